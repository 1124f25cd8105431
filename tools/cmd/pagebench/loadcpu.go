package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// loadCPU is -chrome-trace's account of one cold load (FILE.load, FILE.minimal): from the
// navigation to the probe's fitclaim-bench:done mark (the YAML shown, the minimal page's word),
// the CPU time of each thread, not the wall time. On this shared machine a load's wall time
// mostly measures what else runs (a page's main thread ran 40 % of the time in a load at load
// average 2), while its threads' CPU time is its own work, the figure a change to the page
// moves (issue 10 §2). It prints the CPU time of the page's main thread, V8's background threads
// (of them TurboFan: the hot wasm functions V8 compiles a second time while the page waits) and
// every other thread of the browser, the main thread's CPU between each of the page's marks, and
// V8's lazy compiles and streaming reads of the wasm on the main thread. It returns the total.
func loadCPU(path, label string) (float64, string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Sprintf("  %s: %v\n", label, err)
	}
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return 0, fmt.Sprintf("  %s: %v\n", label, err)
	}
	evs := doc.TraceEvents
	type thread struct{ pid, tid int }
	names := map[thread]string{}
	for _, e := range evs {
		if e.Ph == "M" && e.Name == "thread_name" {
			names[thread{e.Pid, e.Tid}] = e.Args.Name
		}
	}
	// The page's main thread is the renderer's CrRendererMain that navigated last (the first
	// navigation of a new tab is about:blank's). An SVG image (the page's icon.svg) is a
	// document of its own with a navigationStart of no URL, on the page's thread, later: not it
	// (under -throttle the icon comes mid-load and the window started there).
	var main thread
	t0 := -1.0
	for _, e := range evs {
		if u := e.Args.Data.DocumentLoaderURL; u != nil && *u == "" {
			continue
		}
		if e.Name == "navigationStart" && names[thread{e.Pid, e.Tid}] == "CrRendererMain" && e.Ts > t0 {
			t0, main = e.Ts, thread{e.Pid, e.Tid}
		}
	}
	if t0 < 0 {
		return 0, fmt.Sprintf("  %s: no navigationStart in the trace\n", label)
	}
	type mark struct {
		name    string
		ts, tts float64
	}
	var marks []mark
	end := -1.0
	for _, e := range evs {
		if e.Pid != main.pid || e.Tid != main.tid || e.Ts < t0 {
			continue
		}
		switch {
		case e.Name == "fitclaim-bench:done" && end < 0:
			end = e.Ts
		case strings.HasPrefix(e.Name, "fitclaim:") && e.TTs > 0 && !slices.ContainsFunc(marks, func(m mark) bool { return m.name == e.Name }):
			marks = append(marks, mark{strings.TrimPrefix(e.Name, "fitclaim:"), e.Ts, e.TTs})
		}
	}
	if end < 0 {
		return 0, fmt.Sprintf("  %s: no fitclaim-bench:done mark in the trace\n", label)
	}
	slices.SortFunc(marks, func(a, b mark) int { return cmpFloat(a.ts, b.ts) })
	// A thread's CPU time is the sum of its outermost complete events' (ph X) thread durations
	// inside the window; nested events are counted by their outermost one.
	cpu := map[thread]float64{}
	lastEnd := map[thread]float64{}
	var turbofan, lazy, stream float64
	lazyN := 0
	// Outermost first: by start, the longer of two that start together first.
	slices.SortStableFunc(evs, func(a, b traceEvent) int {
		if c := cmpFloat(a.Ts, b.Ts); c != 0 {
			return c
		}
		return cmpFloat(b.Dur, a.Dur)
	})
	for _, e := range evs {
		if e.Ph != "X" || e.Ts < t0 || e.Ts+e.Dur > end {
			continue
		}
		th := thread{e.Pid, e.Tid}
		if e.Ts >= lastEnd[th] {
			cpu[th] += e.TDur
			lastEnd[th] = e.Ts + e.Dur
		}
		switch {
		case e.Name == "wasm.TopTierCompilation":
			turbofan += e.TDur
		case e.Name == "wasm.CompileLazy" && th == main:
			lazy += e.TDur
			lazyN++
		case (e.Name == "wasm.OnBytesReceived" || e.Name == "wasm.FinishStreaming") && th == main:
			stream += e.TDur
		}
	}
	var mainCPU, v8, other float64
	for th, c := range cpu {
		switch {
		case th == main:
			mainCPU += c
		case th.pid == main.pid && strings.HasPrefix(names[th], "ThreadPool"):
			v8 += c
		default:
			other += c
		}
	}
	total := mainCPU + v8 + other
	var b strings.Builder
	fmt.Fprintf(&b, "  %s: navigation -> done %.0f ms wall; CPU %.0f ms: the page's main thread %.0f, V8's background threads %.0f (TurboFan %.0f), the browser's other threads %.0f\n",
		label, (end-t0)/1e3, total/1e3, mainCPU/1e3, v8/1e3, turbofan/1e3, other/1e3)
	if len(marks) > 0 {
		b.WriteString("    main thread CPU between the page's marks (ms):")
		for i, m := range marks {
			if i > 0 && m.ts <= end && m.tts >= marks[i-1].tts {
				fmt.Fprintf(&b, " %s %.1f,", m.name, (m.tts-marks[i-1].tts)/1e3)
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "    on the main thread: %d lazy wasm compiles %.1f ms CPU; reading the streamed wasm %.1f ms CPU\n", lazyN, lazy/1e3, stream/1e3)
	return total, b.String()
}
