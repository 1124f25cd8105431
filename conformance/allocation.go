package conformance

import (
	"context"
	"fmt"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// CheckAllocation runs the scheduler's allocator for a rendered, defaulted
// manifest against the fleet (replicated to the claim's count) and checks its
// decision against the driver spec: the first alternative (in order) for
// which enough expected untainted devices exist is allocated, with exactly
// count devices, all expected for that alternative and none tainted, all of one product when the
// claim constrains it; no alternative with enough devices means refusal.
// It returns the sub-request (or request) that got the devices, "" when
// refused.
func (c *Checker) CheckAllocation(ctx context.Context, t target.Target, b *fit.Bounds, m Manifest, fleet Fleet) (string, error) {
	spec := c.Drivers[t.Driver]
	fleet = fleet.Replicate(t.Count)
	byName := map[string]FakeDevice{}
	for _, d := range fleet {
		byName[d.Name] = d
	}
	products := NVIDIAProducts(c.Accels, b.MemoryMi, b.NVIDIAMinBandwidthGBs)
	want := -1
	for i, as := range spec.Alts {
		n := 0
		for _, d := range fleet {
			if as.Expect(d, b, products) && !d.Tainted {
				n++
			}
		}
		if n >= t.Count {
			want = i
			break
		}
	}
	got, err := Allocate(ctx, m, fleet)
	if err != nil {
		return "", err
	}
	if want < 0 {
		if got != nil {
			return "", fmt.Errorf("allocator allocated %+v, but no device fits", got)
		}
		return "", nil
	}
	as := spec.Alts[want]
	request := "model"
	if as.Sub != "" {
		request += "/" + as.Sub
	}
	if len(got) != t.Count {
		return "", fmt.Errorf("allocator allocated %d devices %+v, want %d from %s", len(got), got, t.Count, request)
	}
	product := ""
	for i, a := range got {
		d, ok := byName[a.Device]
		if !ok || a.Request != request || a.Driver != d.Driver || !as.Expect(d, b, products) || d.Tainted {
			return "", fmt.Errorf("allocator allocated %+v for %s, which is not a fitting device of that request", a, a.Request)
		}
		if t.Count > 1 && as.Class == DriverNVIDIA {
			if i > 0 && d.ProductName != product {
				return "", fmt.Errorf("allocator mixed products %q and %q despite matchAttribute", product, d.ProductName)
			}
			product = d.ProductName
		}
	}
	return request, nil
}
