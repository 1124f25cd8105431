package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Outcome of checking one target.
type Outcome int

const (
	Rendered Outcome = iota // rendered and every check passed
	Refused                 // fitclaim refused, and the suite agrees it had to
)

// AltSpec is what one request alternative of a driver's claim must be.
type AltSpec struct {
	Class, Sub string
	// Expect says whether device d must match, from its facts alone.
	Expect func(d FakeDevice, b *fit.Bounds, products []string) bool
}

// DriverSpec is what a claim for one driver must be: its alternatives in
// order, and which fleet devices stand for an accelerator in fit's matching
// table (Match.Selected).
type DriverSpec struct {
	Alts []AltSpec
	// SelectedDevices are the fleet devices that stand for the accelerator, one
	// per kind of device an alternative can choose: it is Selected when an
	// alternative matched one of them.
	SelectedDevices func(a Accel) []string
	// Products: the claim carries an NVIDIA productName allow-list, and
	// rendering must refuse when no NVIDIA accelerator meets the floors.
	Products bool
}

// Checker renders targets and checks them against Kubernetes' code and the
// fleet. It is safe for concurrent use.
type Checker struct {
	Accels  []Accel
	Fleet   Fleet
	Matcher *Matcher
	Drivers map[string]DriverSpec
	// Validated caches CEL expressions through the official validator.
	Validated *ValidatedExpressions

	Renders, Refusals, Evaluations atomic.Int64
}

// NewChecker builds the fleet from the accelerators.
func NewChecker(accels []Accel, drivers map[string]DriverSpec) (*Checker, error) {
	f, err := NewFleet(accels)
	if err != nil {
		return nil, err
	}
	return &Checker{Accels: accels, Fleet: f, Matcher: NewMatcher(), Drivers: drivers, Validated: &ValidatedExpressions{}}, nil
}

// Check renders t and checks the result: strict decode, defaulting, official
// validation, the request's shape, CEL compilation under the limits, the
// matched fleet devices (and boundary devices) against the expectation, and
// fit's matching table against the same. wantModel, if set, is the catalog
// entry t must have resolved to.
func (c *Checker) Check(ctx context.Context, t target.Target, wantModel string) (Outcome, *claim.Result, Manifest, error) {
	spec, ok := c.Drivers[t.Driver]
	if !ok {
		return 0, nil, Manifest{}, fmt.Errorf("no driver spec for %q", t.Driver)
	}
	r, err := claim.Render(t)
	if err != nil {
		return c.checkRefusal(t, spec, err)
	}
	c.Renders.Add(1)
	if wantModel != "" && r.Bounds.Model.Name != wantModel {
		return 0, nil, Manifest{}, fmt.Errorf("rendered model %q, asked for %q", r.Bounds.Model.Name, wantModel)
	}
	m, err := c.CheckResult(ctx, t, &r)
	if err != nil {
		return 0, nil, m, err
	}
	return Rendered, &r, m, nil
}

// CheckResult checks a rendered result (its YAML against its Bounds and
// Matches); Check calls it, and tests call it on results altered on purpose.
func (c *Checker) CheckResult(ctx context.Context, t target.Target, r *claim.Result) (Manifest, error) {
	spec, ok := c.Drivers[t.Driver]
	if !ok {
		return Manifest{}, fmt.Errorf("no driver spec for %q", t.Driver)
	}
	b := &r.Bounds
	m, err := DecodeAndValidateCached([]byte(r.YAML), c.Validated)
	if err != nil {
		return m, fmt.Errorf("%w\n%s", err, r.YAML)
	}
	if m.Name() != r.Name {
		return m, fmt.Errorf("metadata.name %q, Result.Name %q", m.Name(), r.Name)
	}
	if (m.Template != nil) != t.Template {
		return m, fmt.Errorf("template %v, asked %v", m.Template != nil, t.Template)
	}
	if err := checkNVIDIAFloor(t, b); err != nil {
		return m, err
	}
	products := NVIDIAProducts(c.Accels, b.MemoryMi, b.NVIDIAMinBandwidthGBs)
	if spec.Products {
		got := slices.Sorted(slices.Values(b.Products))
		if !slices.Equal(got, products) {
			return m, fmt.Errorf("Bounds.Products %q, the NVIDIA accelerators meeting %d Mi and %d GB/s are %q", got, b.MemoryMi, b.NVIDIAMinBandwidthGBs, products)
		}
	}
	reqs, err := Requests(m)
	if err != nil {
		return m, err
	}
	if len(reqs) != 1 || len(reqs[0].Alternatives) != len(spec.Alts) {
		return m, fmt.Errorf("want one request with %d alternatives, got %+v", len(spec.Alts), reqs)
	}
	boundary := append(BoundaryDevices(b.MemoryMi, b.MinBandwidthGBs), RealBoundaryDevices(b.MemoryMi, products)...)
	var claimMatched []string // every alternative's matches on the fleet
	for i, alt := range reqs[0].Alternatives {
		as := spec.Alts[i]
		if alt.DeviceClassName != as.Class || alt.SubRequest != as.Sub {
			return m, fmt.Errorf("alternative %d: class %q sub-request %q, want %q %q", i, alt.DeviceClassName, alt.SubRequest, as.Class, as.Sub)
		}
		if alt.AllocationMode != "ExactCount" || alt.Count != int64(t.Count) {
			return m, fmt.Errorf("%s: allocationMode %s count %d, want ExactCount %d", altName(alt), alt.AllocationMode, alt.Count, t.Count)
		}
		if err := c.Matcher.Compile(alt); err != nil {
			return m, err
		}
		for _, fl := range []struct {
			fleet  Fleet
			cached bool
		}{{c.Fleet, true}, {boundary, false}} {
			var got []string
			if fl.cached {
				got, err = c.Matcher.MatchCached(ctx, alt, fl.fleet)
			} else {
				got, err = c.Matcher.Match(ctx, alt, fl.fleet)
				c.Evaluations.Add(int64(len(fl.fleet)))
			}
			if err != nil {
				return m, err
			}
			var want []string
			for _, d := range fl.fleet {
				if as.Expect(d, b, products) {
					want = append(want, d.Name)
				}
			}
			if !slices.Equal(got, want) {
				return m, fmt.Errorf("%s (%d Mi, %d GB/s): matched %q\nwant %q", altName(alt), b.MemoryMi, b.MinBandwidthGBs, got, want)
			}
			if !fl.cached && len(want) == 0 {
				return m, fmt.Errorf("%s: no boundary device expected to match: the boundary check checks nothing", altName(alt))
			}
			if fl.cached {
				claimMatched = append(claimMatched, got...)
			}
		}
	}
	if err := checkJSON(r, m, t); err != nil {
		return m, err
	}
	if err := c.checkMatches(*r, spec, claimMatched); err != nil {
		return m, err
	}
	return m, nil
}

// checkMatches: fit's matching table agrees with what the selector matched
// and with the floors, for every accelerator exactly once.
func (c *Checker) checkMatches(r claim.Result, spec DriverSpec, matched []string) error {
	b := &r.Bounds
	if len(r.Matches) != len(c.Accels) {
		return fmt.Errorf("Result.Matches has %d entries, %d accelerators", len(r.Matches), len(c.Accels))
	}
	byID := map[string]Accel{}
	for _, a := range c.Accels {
		byID[a.ID] = a
	}
	seen := map[string]bool{}
	for _, mt := range r.Matches {
		a, ok := byID[mt.Accelerator.ID]
		if !ok || seen[a.ID] {
			return fmt.Errorf("Result.Matches: unknown or repeated accelerator %q", mt.Accelerator.ID)
		}
		seen[a.ID] = true
		mem := a.MemoryMiB >= b.MemoryMi
		// Driver any also offers an NVIDIA product through its NVIDIA alternative, whose floor
		// (NVIDIA's efficiency) is never above llmfit.ai's (the least efficient family's).
		floor := b.MinBandwidthGBs
		if b.Target.Driver == fit.DriverAny && a.Driver == DriverNVIDIA && a.ProductName != "" {
			floor = min(floor, b.NVIDIAMinBandwidthGBs)
		}
		bw := a.BandwidthGBs >= float64(floor)
		if mt.FitsMemory != mem || mt.FitsBandwidth != bw {
			return fmt.Errorf("Result.Matches %s: fitsMemory %v fitsBandwidth %v, want %v %v (%d MiB vs %d Mi, %g vs %d GB/s)",
				a.ID, mt.FitsMemory, mt.FitsBandwidth, mem, bw, a.MemoryMiB, b.MemoryMi, a.BandwidthGBs, floor)
		}
		sel := false
		for _, d := range spec.SelectedDevices(a) {
			sel = sel || slices.Contains(matched, d)
		}
		if mt.Selected != sel {
			return fmt.Errorf("Result.Matches %s: Selected %v, but the selectors matching devices %q is %v", a.ID, mt.Selected, spec.SelectedDevices(a), sel)
		}
	}
	return nil
}

// checkRefusal: a render error is only right for a driver with an NVIDIA
// allow-list when no NVIDIA accelerator meets the floors (the floors taken
// from the same target rendered for llmfit.ai), and must name the driver field.
func (c *Checker) checkRefusal(t target.Target, spec DriverSpec, renderErr error) (Outcome, *claim.Result, Manifest, error) {
	if !spec.Products {
		return 0, nil, Manifest{}, fmt.Errorf("render: %w", renderErr)
	}
	lt := t
	lt.Driver = fit.DriverLlmfit
	lb, err := fit.Resolve(lt)
	if err != nil {
		return 0, nil, Manifest{}, fmt.Errorf("render for %s: %v; and for llmfit: %w", t.Driver, renderErr, err)
	}
	if p := NVIDIAProducts(c.Accels, lb.MemoryMi, lb.MinBandwidthGBs); len(p) > 0 {
		return 0, nil, Manifest{}, fmt.Errorf("render refused (%v) although %q meet %d Mi and %d GB/s", renderErr, p, lb.MemoryMi, lb.MinBandwidthGBs)
	}
	var fe *target.FieldError
	if !errors.As(renderErr, &fe) || fe.Field != "driver" || !strings.Contains(fe.Error(), "best candidates") {
		return 0, nil, Manifest{}, fmt.Errorf("refusal is not a driver field error naming candidates: %v", renderErr)
	}
	c.Refusals.Add(1)
	return Refused, nil, Manifest{}, nil
}

// checkNVIDIAFloor: the floor behind the NVIDIA allow-list is the claim's own, except for driver
// any in the KV-aware mode, where it is the nvidia driver's claim for the same target (that
// alternative selects NVIDIA devices only, so it assumes NVIDIA's efficiency).
func checkNVIDIAFloor(t target.Target, b *fit.Bounds) error {
	want := b.MinBandwidthGBs
	if t.Driver == fit.DriverAny && t.Sizing == target.SizingKV {
		nt := t
		nt.Driver = fit.DriverNVIDIA
		nb, err := fit.Resolve(nt)
		if err != nil {
			return fmt.Errorf("driver any rendered, the same target for nvidia did not: %w", err)
		}
		if nb.MemoryMi != b.MemoryMi || !slices.Equal(nb.Products, b.Products) {
			return fmt.Errorf("driver any's NVIDIA alternative %d Mi %q, driver nvidia's %d Mi %q", b.MemoryMi, b.Products, nb.MemoryMi, nb.Products)
		}
		want = nb.MinBandwidthGBs
	}
	if b.NVIDIAMinBandwidthGBs != want {
		return fmt.Errorf("Bounds.NVIDIAMinBandwidthGBs %d, want %d", b.NVIDIAMinBandwidthGBs, want)
	}
	return nil
}

// checkJSON: the JSON summary a controller reads says what the manifest says.
func checkJSON(r *claim.Result, m Manifest, t target.Target) error {
	var j struct {
		ClaimName       string   `json:"claimName"`
		DeviceClass     string   `json:"deviceClass"`
		MemoryGi        *int64   `json:"memoryGi"`
		MemoryMi        *int64   `json:"memoryMi"`
		MinBandwidthGBs *int64   `json:"minBandwidthGBs"`
		Count           *int     `json:"count"`
		Driver          string   `json:"driver"`
		ProductNames    []string `json:"productNames"`
		NVIDIAMinBW     *int64   `json:"nvidiaMinBandwidthGBs"`
	}
	dec := json.NewDecoder(strings.NewReader(r.JSON))
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("JSON: %w", err)
	}
	b := &r.Bounds
	req := m.Spec().Devices.Requests[0]
	class := ""
	if req.Exactly != nil {
		class = req.Exactly.DeviceClassName
	} else if len(req.FirstAvailable) > 0 {
		class = req.FirstAvailable[0].DeviceClassName
	}
	switch {
	case j.ClaimName != m.Name():
		return fmt.Errorf("JSON claimName %q, manifest %q", j.ClaimName, m.Name())
	case j.DeviceClass != class:
		return fmt.Errorf("JSON deviceClass %q, manifest's first class %q", j.DeviceClass, class)
	case j.MemoryGi == nil || *j.MemoryGi != b.MemoryGi || j.MinBandwidthGBs == nil || *j.MinBandwidthGBs != b.MinBandwidthGBs:
		return fmt.Errorf("JSON memoryGi/minBandwidthGBs %v/%v, bounds %d/%d", j.MemoryGi, j.MinBandwidthGBs, b.MemoryGi, b.MinBandwidthGBs)
	case *j.MemoryGi != (b.MemoryMi+1023)/1024:
		return fmt.Errorf("JSON memoryGi %d is not the %d Mi floor rounded up to whole Gi", *j.MemoryGi, b.MemoryMi)
	}
	// memoryMi, the floor the CEL asks, in every JSON but llmfit's own ten keys (llmfit mode,
	// driver llmfit, one device, no capacity request), where it is memoryGi × 1024
	llmfitOwn := t.Sizing != target.SizingKV && t.Driver == fit.DriverLlmfit && t.Count <= 1 && !t.CapacityRequest
	switch {
	case llmfitOwn && (j.MemoryMi != nil || b.MemoryMi != b.MemoryGi*1024):
		return fmt.Errorf("llmfit's own JSON: memoryMi %v, bounds %d Mi of %d Gi", j.MemoryMi, b.MemoryMi, b.MemoryGi)
	case !llmfitOwn && (j.MemoryMi == nil || *j.MemoryMi != b.MemoryMi):
		return fmt.Errorf("JSON memoryMi %v, bounds %d", j.MemoryMi, b.MemoryMi)
	case t.Sizing != target.SizingKV && b.MemoryMi != b.MemoryGi*1024:
		return fmt.Errorf("llmfit mode: %d Mi is not its %d Gi × 1024", b.MemoryMi, b.MemoryGi)
	}
	// the CEL asks exactly that floor, in Gi when it is a whole Gi
	want := fmt.Sprintf("quantity('%dMi')", b.MemoryMi)
	if b.MemoryMi%1024 == 0 {
		want = fmt.Sprintf("quantity('%dGi')", b.MemoryMi/1024)
	}
	if !strings.Contains(r.YAML, want) {
		return fmt.Errorf("the CEL does not ask %s", want)
	}
	if t.Driver == fit.DriverAny && t.Sizing == target.SizingKV {
		if j.NVIDIAMinBW == nil || *j.NVIDIAMinBW != b.NVIDIAMinBandwidthGBs {
			return fmt.Errorf("JSON nvidiaMinBandwidthGBs %v, bounds %d", j.NVIDIAMinBW, b.NVIDIAMinBandwidthGBs)
		}
	} else if j.NVIDIAMinBW != nil {
		return fmt.Errorf("JSON nvidiaMinBandwidthGBs %d outside driver any's KV-aware sizing", *j.NVIDIAMinBW)
	}
	if t.Driver != fit.DriverLlmfit || t.Count > 1 {
		if j.Count == nil || *j.Count != t.Count || j.Driver != t.Driver {
			return fmt.Errorf("JSON count/driver %v/%q, target %d/%q", j.Count, j.Driver, t.Count, t.Driver)
		}
		if !slices.Equal(j.ProductNames, b.Products) {
			return fmt.Errorf("JSON productNames %q, bounds %q", j.ProductNames, b.Products)
		}
	} else if j.Count != nil || j.Driver != "" || j.ProductNames != nil {
		return fmt.Errorf("llmfit-mode JSON has count/driver/productNames")
	}
	return nil
}
