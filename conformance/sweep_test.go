package conformance

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// gridTarget is one point of a target grid, applied to a catalog entry.
type gridTarget struct {
	name string
	edit func(*target.Target)
}

// llmfitGrid is issue 2's grid: defaults; 30 tok/s at 60 %; Q8_0, F16 and
// Q2_K overrides; each with template off and on.
var llmfitGrid = func() []gridTarget {
	base := []gridTarget{
		{"defaults", func(*target.Target) {}},
		{"30tps-60pct", func(t *target.Target) { t.MinTps, t.EfficiencyPct = 30, 60 }},
		{"Q8_0", func(t *target.Target) { t.Quant = "Q8_0" }},
		{"F16", func(t *target.Target) { t.Quant = "F16" }},
		{"Q2_K", func(t *target.Target) { t.Quant = "Q2_K" }},
	}
	var out []gridTarget
	for _, g := range base {
		out = append(out, g, gridTarget{g.name + "+template", func(t *target.Target) { g.edit(t); t.Template = true }})
	}
	return out
}()

func newChecker(t testing.TB) *Checker {
	t.Helper()
	c, err := NewChecker(CatalogAccelerators(), driverSpecs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sweep checks every (entry, grid point) on all cores and reports failures
// (at most 20 in full) and timings.
//
// Every allocEvery-th check (0: none) also runs the allocator.
func sweep(t *testing.T, c *Checker, entries []catalog.Model, grid []gridTarget, allocEvery int) {
	t.Helper()
	ctx := context.Background()
	type job struct {
		entry catalog.Model
		g     gridTarget
		alloc bool
	}
	allocated := map[string]int{}
	jobs := make(chan job)
	var mu sync.Mutex
	var failures []string
	outcomes := map[string][2]int{}
	// The sweep allocates briskly and the machine has memory to spare: fewer
	// collections save about a fifth of the CPU time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	start, cpu0 := time.Now(), cpuTime()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				tg := target.Default()
				tg.Model = j.entry.Name
				j.g.edit(&tg)
				out, r, m, err := c.Check(ctx, tg, j.entry.Name)
				got := "-"
				if err == nil && out == Rendered && j.alloc {
					got, err = c.CheckAllocation(ctx, r.Bounds.Target, &r.Bounds, m, c.Fleet)
					if got == "" {
						got = "refused"
					}
					// With several alternatives, also without the first one's
					// devices: the allocator must fall back to the next.
					if alts := c.Drivers[tg.Driver].Alts; err == nil && len(alts) > 1 {
						var fb string
						fb, err = c.CheckAllocation(ctx, r.Bounds.Target, &r.Bounds, m,
							c.Fleet.Without(func(d FakeDevice) bool { return d.Driver == alts[0].Class }))
						if fb == "" {
							fb = "refused"
						}
						got += ", without " + alts[0].Class + " → " + fb
					}
				}
				mu.Lock()
				if got != "-" {
					allocated[j.g.name+" → "+got]++
				}
				if err != nil {
					failures = append(failures, fmt.Sprintf("%s [%s]: %v", j.entry.Name, j.g.name, err))
				} else {
					o := outcomes[j.g.name]
					o[out]++
					outcomes[j.g.name] = o
				}
				mu.Unlock()
			}
		}()
	}
	n := 0
	// Grid point by grid point: template twins (same selectors) are far apart.
	for _, g := range grid {
		for _, e := range entries {
			jobs <- job{e, g, allocEvery > 0 && n%allocEvery == 0}
			n++
		}
	}
	close(jobs)
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	sort.Strings(failures)
	for i, f := range failures {
		if i == 20 {
			t.Errorf("… and %d more failures", len(failures)-20)
			break
		}
		t.Error(f)
	}
	for _, g := range grid {
		t.Logf("%-28s rendered %5d, refused %4d", g.name, outcomes[g.name][Rendered], outcomes[g.name][Refused])
	}
	var keys []string
	for k := range allocated {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("allocator: %-40s %4d", k, allocated[k])
	}
	t.Logf("%d entries × %d targets = %d checks in %v wall, %v CPU, on %d cores (%d renders, %d refusals, %d distinct selectors compiled, longest %d bytes, highest estimated cost %d, %d boundary evaluations)",
		len(entries), len(grid), len(entries)*len(grid), elapsed.Round(time.Millisecond), cpu.Round(time.Millisecond), runtime.GOMAXPROCS(0),
		c.Renders.Load(), c.Refusals.Load(), c.Matcher.Compiler.Compiles.Load(), c.Matcher.Compiler.MaxLen.Load(), c.Matcher.Compiler.MaxCost.Load(), c.Evaluations.Load())
}

// TestCatalogSweep is issue 2's proof: every catalog entry × llmfitGrid.
func TestCatalogSweep(t *testing.T) {
	models := catalog.Models()
	if len(models) != 1852 {
		t.Errorf("catalog has %d models, want 1852", len(models))
	}
	if testing.Short() {
		models = sample(models, 100)
	}
	sweep(t, newChecker(t), models, llmfitGrid, 97)
	readmeFigure(t, `a grid of targets \(([0-9,]+) manifests\)`, len(models)*len(llmfitGrid))
	confFigure(t, `template off and on\) = ([0-9,]+) manifests`, len(models)*len(llmfitGrid))
}

// sample takes n entries spread across sizes: sorted by parameter count, every k-th.
func sample(models []catalog.Model, n int) []catalog.Model {
	s := append([]catalog.Model(nil), models...)
	sort.SliceStable(s, func(i, j int) bool { return fit.ParamsB(&s[i]) < fit.ParamsB(&s[j]) })
	var out []catalog.Model
	step := float64(len(s)) / float64(n)
	for i := range n {
		out = append(out, s[int(float64(i)*step)])
	}
	return out
}

// driverGrid is issue 4's: every driver, one and two devices, llmfit and kv
// sizing, plus a long-context kv point; templates on odd points.
var driverGrid = func() []gridTarget {
	var out []gridTarget
	for _, drv := range []string{fit.DriverLlmfit, fit.DriverNVIDIA, fit.DriverAMD, fit.DriverIntel, fit.DriverAny} {
		for _, count := range []int{1, 2} {
			for _, sizing := range []string{target.SizingLlmfit, target.SizingKV} {
				drv, count, sizing, template := drv, count, sizing, len(out)%2 == 1
				name := fmt.Sprintf("%s n=%d %s", drv, count, sizing)
				if template {
					name += " template"
				}
				out = append(out, gridTarget{name, func(t *target.Target) {
					t.Driver, t.Count, t.Sizing, t.Template = drv, count, sizing, template
				}})
			}
		}
		drv := drv
		out = append(out, gridTarget{drv + " n=4 kv ctx=32768 seq=2 q8_0", func(t *target.Target) {
			t.Driver, t.Count, t.Sizing, t.Context, t.Sequences, t.KVCache = drv, 4, target.SizingKV, 32768, 2, "q8_0"
		}})
	}
	return out
}()

// TestDriverSweep is issue 4's proof: a sample of 240 catalog entries across
// sizes × every driver, count and sizing; the allocator on every 7th check.
func TestDriverSweep(t *testing.T) {
	n := 240
	if testing.Short() {
		n = 40
	}
	sweep(t, newChecker(t), sample(catalog.Models(), n), driverGrid, 7)
	readmeFigure(t, `and ([0-9,]+) entries × every driver`, n)
	readmeFigure(t, `every driver, .any. and count \(([0-9,]+) more\)`, n*len(driverGrid))
	confFigure(t, `at 32k context\) = ([0-9,]+)\.`, n*len(driverGrid))
}

// cpuTime is the process's user and system CPU time: unlike wall time it does
// not depend on what else the machine is running.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
