package conformance

import (
	"fmt"
	"sync/atomic"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apiserver/pkg/cel/environment"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

// Alternative is one way to satisfy a request: the request itself when it is
// `exactly`, or one of its `firstAvailable` sub-requests, in order.
type Alternative struct {
	Request         string // the request's name
	SubRequest      string // "" for exactly
	DeviceClassName string
	Selectors       []string // CEL expressions, in order
	AllocationMode  resourcev1.DeviceAllocationMode
	Count           int64
}

// Request is one entry of spec.devices.requests with its alternatives.
type Request struct {
	Name         string
	Alternatives []Alternative
}

// Requests lists the requests of a manifest with their alternatives and CEL
// selectors. Selectors that are not CEL are an error: fitclaim writes only CEL.
func Requests(m Manifest) ([]Request, error) {
	var out []Request
	for _, r := range m.Spec().Devices.Requests {
		req := Request{Name: r.Name}
		if r.Exactly != nil {
			sel, err := celSelectors(r.Exactly.Selectors)
			if err != nil {
				return nil, fmt.Errorf("request %s: %w", r.Name, err)
			}
			req.Alternatives = append(req.Alternatives, Alternative{
				Request: r.Name, DeviceClassName: r.Exactly.DeviceClassName, Selectors: sel,
				AllocationMode: r.Exactly.AllocationMode, Count: r.Exactly.Count,
			})
		}
		for _, s := range r.FirstAvailable {
			sel, err := celSelectors(s.Selectors)
			if err != nil {
				return nil, fmt.Errorf("request %s/%s: %w", r.Name, s.Name, err)
			}
			req.Alternatives = append(req.Alternatives, Alternative{
				Request: r.Name, SubRequest: s.Name, DeviceClassName: s.DeviceClassName, Selectors: sel,
				AllocationMode: s.AllocationMode, Count: s.Count,
			})
		}
		out = append(out, req)
	}
	return out, nil
}

func celSelectors(sels []resourcev1.DeviceSelector) ([]string, error) {
	var out []string
	for i, s := range sels {
		if s.CEL == nil {
			return nil, fmt.Errorf("selector %d is not a CEL selector", i)
		}
		out = append(out, s.CEL.Expression)
	}
	return out, nil
}

// Compiler compiles CEL selectors in the DRA environment for new expressions
// (what the API server uses on create) and checks the API limits: no
// compilation error, length ≤ resourcev1.CELSelectorExpressionMaxLength
// (10,240 bytes) and estimated cost ≤ resourcev1.CELSelectorExpressionMaxCost
// (1,000,000). Results are cached by expression; it is safe for concurrent use.
type Compiler struct {
	cache onceMap[dracel.CompilationResult]
	// Compiles counts real compilations (cache misses).
	Compiles atomic.Int64
	// MaxLen and MaxCost are the largest length and estimated cost seen.
	MaxLen, MaxCost atomic.Uint64
}

// NewCompiler returns an empty compiler cache.
func NewCompiler() *Compiler { return &Compiler{} }

// Compile returns the compiled expression, or an error if it fails to compile
// or breaks a limit.
func (c *Compiler) Compile(expr string) (dracel.CompilationResult, error) {
	return c.cache.get(expr, func() (dracel.CompilationResult, error) {
		c.Compiles.Add(1)
		r, err := CompileSelector(expr)
		storeMax(&c.MaxLen, uint64(len(expr)))
		if err == nil {
			storeMax(&c.MaxCost, r.MaxCost)
		}
		return r, err
	})
}

// CompileSelector compiles one expression without caching and checks the limits.
func CompileSelector(expr string) (dracel.CompilationResult, error) {
	if len(expr) > resourcev1.CELSelectorExpressionMaxLength {
		return dracel.CompilationResult{}, fmt.Errorf("CEL selector is %d bytes, limit %d", len(expr), resourcev1.CELSelectorExpressionMaxLength)
	}
	env := environment.NewExpressions
	r := dracel.GetCompiler(dracel.Features{}).CompileCELExpression(expr, dracel.Options{EnvType: &env})
	if r.Error != nil {
		return r, fmt.Errorf("CEL selector does not compile: %s", r.Error.Detail)
	}
	if r.MaxCost > resourcev1.CELSelectorExpressionMaxCost {
		return r, fmt.Errorf("CEL selector estimated cost %d exceeds %d", r.MaxCost, resourcev1.CELSelectorExpressionMaxCost)
	}
	return r, nil
}

func storeMax(a *atomic.Uint64, v uint64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}
