package conformance

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

var (
	fuzzOnce    sync.Once
	fuzzChecker *Checker
)

// FuzzTargetConforms: any target is either refused with a *target.FieldError or
// renders a manifest that passes every check of the sweep (strict decode,
// official validation, CEL limits, the fleet, fit's table, the JSON) and the
// allocator's. `go test` runs the seeds; `go test -fuzz FuzzTargetConforms
// -fuzztime 30s` explores.
func FuzzTargetConforms(f *testing.F) {
	f.Add(uint16(0), 20.0, 55, uint8(0), uint8(1), uint8(0), false, uint32(0), uint16(1), false, "")
	f.Add(uint16(900), 30.0, 60, uint8(3), uint8(2), uint8(1), true, uint32(32768), uint16(4), true, "my-claim")
	f.Add(uint16(1851), 0.5, 100, uint8(7), uint8(8), uint8(4), true, uint32(1), uint16(4096), false, "a.b")
	f.Add(uint16(1200), 1e5, 1, uint8(9), uint8(3), uint8(2), false, uint32(0), uint16(1), true, "-fit")
	f.Add(uint16(42), math.NaN(), 0, uint8(255), uint8(0), uint8(9), true, uint32(1<<30), uint16(0), false, "Name")
	f.Fuzz(func(t *testing.T, model uint16, minTps float64, eff int, quant, count, driver uint8, kv bool, context_ uint32, seq uint16, template bool, name string) {
		fuzzOnce.Do(func() { fuzzChecker = newChecker(t) })
		models := catalog.Models()
		quants := append([]string{""}, fit.Quants()...)
		drivers := fit.DriverNames()
		tg := target.Default()
		tg.Model = models[int(model)%len(models)].Name
		tg.MinTps, tg.EfficiencyPct = minTps, eff
		tg.Quant = quants[int(quant)%len(quants)]
		tg.Count = int(count)
		tg.Driver = drivers[int(driver)%len(drivers)]
		if kv {
			tg.Sizing, tg.Context, tg.Sequences = target.SizingKV, int(context_), int(seq)
		}
		tg.Template, tg.Name = template, name
		c := fuzzChecker
		if _, rerr := claim.Render(tg); rerr != nil {
			var fe *target.FieldError
			if !errors.As(rerr, &fe) {
				t.Fatalf("%+v: refused without a field error: %v", tg, rerr)
			}
			lt := tg
			lt.Driver = fit.DriverLlmfit
			if _, lerr := claim.Render(lt); lerr == nil {
				// Valid input refused: only right when no NVIDIA product fits.
				if out, _, _, err := c.Check(context.Background(), tg, tg.Model); err != nil || out != Refused {
					t.Fatalf("%+v: %v (outcome %v)", tg, err, out)
				}
			}
			return
		}
		out, r, m, err := c.Check(context.Background(), tg, tg.Model)
		if err != nil || out != Rendered {
			t.Fatalf("%+v: %v", tg, err)
		}
		if _, err := c.CheckAllocation(context.Background(), r.Bounds.Target, &r.Bounds, m, c.Fleet); err != nil {
			t.Fatalf("%+v: %v", tg, err)
		}
	})
}
