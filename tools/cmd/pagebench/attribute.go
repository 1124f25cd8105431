package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// slowRenderMs is where a timed render counts as slow for -chrome-trace's attribution: issue 10
// §3's target for the p99.
const slowRenderMs = 5.0

// traceEvent is the part of a Chromium trace event the attribution and loadCPU read.
type traceEvent struct {
	Name string  `json:"name"`
	Cat  string  `json:"cat"`
	Ph   string  `json:"ph"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // µs
	TTs  float64 `json:"tts"`  // the thread's CPU clock, µs
	TDur float64 `json:"tdur"` // the thread's CPU time in the event, µs
	Args struct {
		Name string `json:"name"` // a thread_name event's
		Data struct {
			StartTime float64 `json:"startTime"` // performance.now() of a mark, ms
			// DocumentLoaderURL: a navigationStart's document; "" (with isLoadingMainFrame) for an
			// SVG image's own isolated document (the page's icon.svg), nil when the trace omits it
			DocumentLoaderURL *string `json:"documentLoaderURL"`
		} `json:"data"`
	} `json:"args"`
}

// attribution says what each slow timed render of -chrome-trace's trace spent its time on, per
// phase (the page's render, the documented form, the page's render again), from the main
// thread's events inside it: V8's lazy compiles (wasm.Compile*), V8's collections (the gc
// categories), Go's collections (-render-trace's stamped gctrace lines, when given), and the wall
// time the thread did not run (wall minus the thread's CPU time: the machine's other work and
// V8's background threads). Each slow render is counted under its largest part; "other CPU"
// when no part is a third of it (the render's own work). gcAt holds the performance.now() of
// each of Go's collections.
func attribution(events []json.RawMessage, gcAt []float64) string {
	var evs []traceEvent
	for _, raw := range events {
		var e traceEvent
		if json.Unmarshal(raw, &e) == nil {
			evs = append(evs, e)
		}
	}
	var t0 *traceEvent
	for i := range evs {
		if evs[i].Name == "fitclaim-bench:t0" {
			t0 = &evs[i]
		}
	}
	if t0 == nil {
		return "  (-chrome-trace) no fitclaim-bench:t0 mark in the trace: no attribution\n"
	}
	off := t0.Ts - t0.Args.Data.StartTime*1000 // performance.now() in ms → trace µs
	var compiles, gcs []traceEvent
	type mark struct {
		phase string
		start bool
		e     traceEvent
	}
	var marks []mark
	for _, e := range evs {
		if e.Pid != t0.Pid || e.Tid != t0.Tid {
			continue
		}
		switch {
		case e.Ph == "X" && strings.HasPrefix(e.Name, "wasm.Compile"):
			compiles = append(compiles, e)
		case e.Ph == "X" && (strings.Contains(e.Cat, "gc") || e.Name == "MinorGC" || e.Name == "MajorGC"):
			gcs = append(gcs, e)
		case strings.HasPrefix(e.Name, "fitclaim-bench:") && (strings.HasSuffix(e.Name, ":s") || strings.HasSuffix(e.Name, ":e")):
			parts := strings.Split(e.Name, ":")
			marks = append(marks, mark{parts[1], parts[2] == "s", e})
		}
	}
	slices.SortFunc(marks, func(a, b mark) int { return cmpFloat(a.e.Ts, b.e.Ts) })
	phases := []string{"page", "full", "again"}
	count := map[string]map[string]int{}
	total := map[string]int{}
	cpu := map[string][]float64{} // each render's main-thread CPU time, ms
	open := map[string]traceEvent{}
	for _, m := range marks {
		if m.start {
			open[m.phase] = m.e
			continue
		}
		s, ok := open[m.phase]
		if !ok {
			continue
		}
		delete(open, m.phase)
		total[m.phase]++
		a, b := s.Ts, m.e.Ts
		wall := (b - a) / 1000
		cpu[m.phase] = append(cpu[m.phase], (m.e.TTs-s.TTs)/1000)
		if wall < slowRenderMs {
			continue
		}
		parts := map[string]float64{
			"lazy compile": covered(compiles, a, b),
			"V8 GC":        covered(gcs, a, b),
			"not running":  wall - (m.e.TTs-s.TTs)/1000,
		}
		cause := "other CPU"
		best := wall / 3
		for _, k := range []string{"lazy compile", "V8 GC", "not running"} {
			if parts[k] >= best {
				cause, best = k, parts[k]
			}
		}
		for _, at := range gcAt {
			if us := at*1000 + off; us >= a && us <= b {
				cause = "Go GC (" + cause + ")"
				break
			}
		}
		if count[m.phase] == nil {
			count[m.phase] = map[string]int{}
		}
		count[m.phase][cause]++
	}
	var out strings.Builder
	fmt.Fprintf(&out, "  (-chrome-trace) renders of %.0f ms or more, by what most of their time went to (main thread):\n", slowRenderMs)
	for _, ph := range phases {
		if total[ph] == 0 {
			continue
		}
		n := 0
		var causes []string
		for k, v := range count[ph] {
			n += v
			causes = append(causes, fmt.Sprintf("%s %d", k, v))
		}
		slices.Sort(causes)
		fmt.Fprintf(&out, "    %-5s %d of %d: %s\n", ph, n, total[ph], strings.Join(causes, ", "))
	}
	// V8's optimizing tier: the hot wasm functions it compiles again on background threads, which
	// on a 2-core machine take the cores the page's thread waits for (issue 10 §3).
	var first, last float64 = -1, -1
	for _, m := range marks {
		if first < 0 || m.e.Ts < first {
			first = m.e.Ts
		}
		last = max(last, m.e.Ts)
	}
	var before, during, after float64
	var nBefore, nDuring int
	for _, e := range evs {
		if e.Pid != t0.Pid || e.Ph != "X" || e.Name != "wasm.TopTierCompilation" {
			continue
		}
		switch {
		case e.Ts < first:
			before += e.TDur
			nBefore++
		case e.Ts <= last:
			during += e.TDur
			nDuring++
		default:
			after += e.TDur
		}
	}
	fmt.Fprintf(&out, "  (-chrome-trace) V8's optimizing tier (wasm.TopTierCompilation, background threads' CPU): %d functions %.0f ms from the trace's start to the timed renders, %d functions %.0f ms during them, %.0f ms after\n",
		nBefore, before/1000, nDuring, during/1000, after/1000)
	// The main thread's CPU time per render does not count the time the machine ran something else:
	// on a busy machine it is the figure to compare runs by.
	fmt.Fprintf(&out, "  (-chrome-trace) main-thread CPU time per render:\n")
	for _, ph := range phases {
		if xs := slices.Sorted(slices.Values(cpu[ph])); len(xs) > 0 {
			h := len(cpu[ph]) / 2
			first := slices.Sorted(slices.Values(cpu[ph][:h]))
			fmt.Fprintf(&out, "    %-5s median %.3f ms, p99 %.3f ms, max %.3f ms; p99 of the first %d %.3f ms; %d of %d at %.0f ms or more\n", ph,
				quantile(xs, 0.5), quantile(xs, 0.99), xs[len(xs)-1], h, quantile(first, 0.99), len(xs)-countBelow(xs, slowRenderMs), len(xs), slowRenderMs)
		}
	}
	return out.String()
}

// covered is how many ms of [a, b] (µs) the events cover, overlaps counted once.
func covered(evs []traceEvent, a, b float64) float64 {
	type span struct{ s, e float64 }
	var spans []span
	for _, e := range evs {
		if e.Ts < b && e.Ts+e.Dur > a {
			spans = append(spans, span{max(e.Ts, a), min(e.Ts+e.Dur, b)})
		}
	}
	slices.SortFunc(spans, func(x, y span) int { return cmpFloat(x.s, y.s) })
	var sum, end float64
	for _, sp := range spans {
		if sp.s > end {
			sum += sp.e - sp.s
			end = sp.e
		} else if sp.e > end {
			sum += sp.e - end
			end = sp.e
		}
	}
	return sum / 1000
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// countBelow is how many of the sorted xs are under x.
func countBelow(xs []float64, x float64) int {
	n, _ := slices.BinarySearch(xs, x)
	return n
}
