package conformance

import (
	"context"
	"fmt"
	"sync"
)

// Matcher evaluates alternatives against devices with the DRA CEL evaluator,
// as the allocator does: the device must match every selector of its
// DeviceClass and every selector of the request. Unlike the allocator, every
// selector is evaluated on every device of the fleet (not only on the devices
// of the class's driver), and any evaluation error is returned: a selector
// must be safe on any device a cluster may publish.
type Matcher struct {
	Compiler *Compiler
	Classes  map[string]*DeviceClassSelectors

	matched    onceMap[[]string]  // alternative key → matched device names
	mu         sync.Mutex         // guards classCache
	classCache map[[2]string]bool // (class, device name) → class selectors match
}

// DeviceClassSelectors are a class's CEL selectors.
type DeviceClassSelectors struct{ Selectors []string }

// NewMatcher uses DeviceClasses and a fresh Compiler.
func NewMatcher() *Matcher {
	m := &Matcher{Compiler: NewCompiler(), Classes: map[string]*DeviceClassSelectors{}, classCache: map[[2]string]bool{}}
	for name, c := range DeviceClasses {
		cs := &DeviceClassSelectors{}
		for _, s := range c.Spec.Selectors {
			cs.Selectors = append(cs.Selectors, s.CEL.Expression)
		}
		m.Classes[name] = cs
	}
	return m
}

// Compile compiles every selector of the alternative (request selectors
// only; class selectors are ours) under the limits.
func (m *Matcher) Compile(alt Alternative) error {
	for i, s := range alt.Selectors {
		if _, err := m.Compiler.Compile(s); err != nil {
			return fmt.Errorf("%s: selector %d: %w", altName(alt), i, err)
		}
	}
	return nil
}

func altName(alt Alternative) string {
	if alt.SubRequest == "" {
		return "request " + alt.Request
	}
	return "request " + alt.Request + "/" + alt.SubRequest
}

// Match returns the names of the fleet devices that satisfy the alternative's
// class and selectors, in fleet order.
func (m *Matcher) Match(ctx context.Context, alt Alternative, fleet Fleet) ([]string, error) {
	class, ok := m.Classes[alt.DeviceClassName]
	if !ok {
		return nil, fmt.Errorf("%s: no DeviceClass %q in the test cluster", altName(alt), alt.DeviceClassName)
	}
	var out []string
	for _, d := range fleet {
		ok, err := m.classMatches(ctx, alt.DeviceClassName, class, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", altName(alt), err)
		}
		for _, e := range alt.Selectors {
			r, err := m.Compiler.Compile(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", altName(alt), err)
			}
			match, _, err := r.DeviceMatches(ctx, d.CEL())
			if err != nil {
				return nil, fmt.Errorf("%s: device %s: CEL evaluation error: %w", altName(alt), d.Name, err)
			}
			// No short cut: every selector is evaluated on every device, so
			// an evaluation error on any device is found.
			ok = ok && match
		}
		if ok {
			out = append(out, d.Name)
		}
	}
	return out, nil
}

// MatchCached is Match cached by class and selectors, for a fleet that does
// not change between calls (the catalog sweep's shared fleet). Concurrent
// callers of one key wait for one evaluation.
func (m *Matcher) MatchCached(ctx context.Context, alt Alternative, fleet Fleet) ([]string, error) {
	key := alt.DeviceClassName + "\x00"
	for _, s := range alt.Selectors {
		key += s + "\x00"
	}
	return m.matched.get(key, func() ([]string, error) { return m.Match(ctx, alt, fleet) })
}

// classMatches evaluates a class's selectors on a device, cached by class and
// device name for the named devices of the shared fleet (boundary devices are
// evaluated every time).
func (m *Matcher) classMatches(ctx context.Context, name string, class *DeviceClassSelectors, d FakeDevice) (bool, error) {
	key := [2]string{name, d.Name}
	cacheable := d.Variant != VariantBoundary
	if cacheable {
		m.mu.Lock()
		ok, hit := m.classCache[key]
		m.mu.Unlock()
		if hit {
			return ok, nil
		}
	}
	ok := true
	for _, e := range class.Selectors {
		r, err := m.Compiler.Compile(e)
		if err != nil {
			return false, fmt.Errorf("DeviceClass %s: %w", name, err)
		}
		match, _, err := r.DeviceMatches(ctx, d.CEL())
		if err != nil {
			return false, fmt.Errorf("DeviceClass %s: device %s: CEL evaluation error: %w", name, d.Name, err)
		}
		ok = ok && match
	}
	if cacheable {
		m.mu.Lock()
		m.classCache[key] = ok
		m.mu.Unlock()
	}
	return ok, nil
}
