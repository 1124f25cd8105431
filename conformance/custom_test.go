package conformance

import (
	"context"
	"fmt"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Custom models (paramsB, with and without an architecture) from the
// smallest to the largest fitclaim accepts, through every driver and count:
// the same checks as the catalog sweep, and the allocator on each.
func TestCustomModels(t *testing.T) {
	ctx := context.Background()
	c := newChecker(t)
	outcomes := map[Outcome]int{}
	for _, p := range []float64{0.001, 0.5, 7, 70, 405, 1000, target.MaxParamsB} {
		for _, arch := range []bool{false, true} {
			for _, drv := range []string{fit.DriverLlmfit, fit.DriverNVIDIA, fit.DriverAMD, fit.DriverIntel, fit.DriverAny} {
				for _, count := range []int{1, 3, target.MaxCount} {
					tg := target.Default()
					tg.ParamsB, tg.Driver, tg.Count = p, drv, count
					name := fmt.Sprintf("paramsB=%g driver=%s n=%d", p, drv, count)
					if arch {
						tg.Sizing, tg.Layers, tg.KVHeads, tg.HeadDim = target.SizingKV, 80, 8, 128
						tg.ActiveParamsB = p / 8
						tg.Context, tg.Sequences = 16384, 4
						name += " kv arch"
					}
					out, r, m, err := c.Check(ctx, tg, "")
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					outcomes[out]++
					if out == Rendered {
						if _, err := c.CheckAllocation(ctx, r.Bounds.Target, &r.Bounds, m, c.Fleet); err != nil {
							t.Errorf("%s: %v", name, err)
						}
					}
				}
			}
		}
	}
	t.Logf("custom models: %d rendered, %d refused", outcomes[Rendered], outcomes[Refused])
	if outcomes[Rendered] == 0 || outcomes[Refused] == 0 {
		t.Error("the grid should have both rendered and refused targets")
	}
}
