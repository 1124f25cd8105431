package conformance

import (
	"context"
	"fmt"
	"sync"

	resourcev1 "k8s.io/api/resource/v1"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/apis/resource/validation"
)

// Namespace is the namespace a manifest without one is validated in. fitclaim
// writes no namespace (kubectl takes it from the context), and the API server
// sets it from the request before validating; the validator requires one.
const Namespace = "default"

// Default applies the API server's defaulting to the manifest in place, using
// the defaulting functions registered by k8s.io/kubernetes/pkg/apis/resource/v1
// (allocationMode ExactCount and count 1 on exactly and on firstAvailable
// sub-requests). Offline consumers such as the allocator need these set.
func Default(m Manifest) {
	scheme.Default(m.Object())
}

// Validate runs, on a copy of a (defaulted) manifest, what the API server runs
// on create: the hand-written official validator
// (k8s.io/kubernetes/pkg/apis/resource/validation, on the internal types) and
// the declarative validation generated for resource.k8s.io/v1 (registered in
// the scheme by k8s.io/kubernetes/pkg/apis/resource/v1). It does not default:
// call Default first, as the API server does.
func Validate(m Manifest) (field.ErrorList, error) {
	obj := m.Object().DeepCopyObject()
	setNamespace(obj)
	var errs field.ErrorList
	if m.Claim != nil {
		var in resource.ResourceClaim
		if err := scheme.Convert(obj, &in, nil); err != nil {
			return nil, fmt.Errorf("convert ResourceClaim to internal: %w", err)
		}
		errs = append(errs, validation.ValidateResourceClaim(&in)...)
	} else {
		var in resource.ResourceClaimTemplate
		if err := scheme.Convert(obj, &in, nil); err != nil {
			return nil, fmt.Errorf("convert ResourceClaimTemplate to internal: %w", err)
		}
		errs = append(errs, validation.ValidateResourceClaimTemplate(&in)...)
	}
	if !scheme.HasValidationFunc(obj) {
		return nil, fmt.Errorf("no declarative validation registered for %T", obj)
	}
	errs = append(errs, scheme.Validate(context.Background(), nil, obj)...)
	return errs, nil
}

func setNamespace(obj runtime.Object) {
	type namespaced interface {
		GetNamespace() string
		SetNamespace(string)
	}
	if o, ok := obj.(namespaced); ok && o.GetNamespace() == "" {
		o.SetNamespace(Namespace)
	}
}

// DecodeAndValidate is the whole admission path for raw bytes: strict decode,
// defaulting, official validation. The returned manifest is defaulted.
func DecodeAndValidate(data []byte) (Manifest, error) {
	return DecodeAndValidateCached(data, nil)
}

// ValidatedExpressions remembers CEL selector expressions that have passed
// the official validator inside a manifest that passed it. The validator
// compiles every selector on every call (about a millisecond each) and its
// verdict on an expression depends on the expression string alone, so a
// catalog sweep replaces an already validated expression by `true` before
// validating again: every manifest still goes through the whole validator
// (names, structure, counts, limits), and every distinct expression through
// its CEL checks at least once. Safe for concurrent use.
type ValidatedExpressions struct{ m sync.Map }

// DecodeAndValidateCached is DecodeAndValidate with a ValidatedExpressions
// cache (nil: none).
func DecodeAndValidateCached(data []byte, cache *ValidatedExpressions) (Manifest, error) {
	m, err := DecodeStrict(data)
	if err != nil {
		return m, err
	}
	Default(m)
	v := m
	var fresh []string
	if cache != nil {
		v = copyManifest(m)
		fresh = cache.substitute(v.Spec())
	}
	errs, err := Validate(v)
	if err != nil {
		return m, err
	}
	if len(errs) > 0 {
		return m, fmt.Errorf("validation: %w", errs.ToAggregate())
	}
	for _, e := range fresh {
		cache.m.Store(e, true)
	}
	return m, nil
}

func copyManifest(m Manifest) Manifest {
	if m.Claim != nil {
		return Manifest{Claim: m.Claim.DeepCopy()}
	}
	return Manifest{Template: m.Template.DeepCopy()}
}

// substitute replaces validated expressions by `true` in place and returns
// the others.
func (c *ValidatedExpressions) substitute(spec *resourcev1.ResourceClaimSpec) []string {
	var fresh []string
	sub := func(sels []resourcev1.DeviceSelector) {
		for _, s := range sels {
			if s.CEL == nil {
				continue
			}
			if _, ok := c.m.Load(s.CEL.Expression); ok {
				s.CEL.Expression = "true"
			} else {
				fresh = append(fresh, s.CEL.Expression)
			}
		}
	}
	for _, r := range spec.Devices.Requests {
		if r.Exactly != nil {
			sub(r.Exactly.Selectors)
		}
		for _, s := range r.FirstAvailable {
			sub(s.Selectors)
		}
	}
	return fresh
}
