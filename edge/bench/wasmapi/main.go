// Command wasmapi times the API's own work, edge/api's handler without any HTTP transport, on
// the edge bench's request mix (edge/bench/mix), per route. The same program runs natively
// and as Go wasm under Node (edge/bench/wasmapi/run.sh runs both and prints them side by
// side), so the figures separate what Go-on-wasm costs from what workerd and the
// Request/Response glue cost. Built without -ldflags=-s, its wasm keeps function names for
// `node --cpu-prof` (run.sh: PROF=dir).
//
// The mix is cycled in order, as edge/bench sends it, after a warm-up (V8 compiles the wasm
// with its baseline compiler first and optimises hot functions as they run). Each request's
// time is its own (two clock reads around ServeHTTP; a clock read is a JS call in wasm, under
// a microsecond). Allocations per request come from a separate pass per route. The GC percent
// is the edge worker's (400, wasm/edge/main.go).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/edge/bench/mix"
)

func main() {
	warm := flag.Int("warm", 1500, "warm-up requests (the mix cycled), not timed")
	rounds := flag.Int("rounds", 200, "timed rounds of the whole mix")
	only := flag.String("only", "", "time only the routes whose path (or, with -mix hostile, label) contains this (for a profile)")
	which := flag.String("mix", "", "the request mix: empty for the edge bench's (mix.Paths), hostile for refused and edge-of-range requests (mix.Hostile; any status, shown after the label)")
	gc := flag.Int("gogc", 400, "GC percent (the edge worker's is 400)")
	cpuProfile := flag.String("cpuprofile", "", "write a pprof CPU profile of the timed rounds to this file (natively: edge/pgo.sh makes wasm/edge/default.pgo from it)")
	tsv := flag.Bool("tsv", false, "print route<TAB>median µs<TAB>mean µs<TAB>allocated bytes/req<TAB>allocs/req<TAB>body bytes<TAB>10th percentile µs<TAB>CPU µs (the mix's only) only")
	flag.Parse()
	debug.SetGCPercent(*gc)

	var cases []mix.Case
	switch *which {
	case "":
		paths, err := mix.Paths()
		if err != nil {
			fail(err)
		}
		for _, p := range paths {
			cases = append(cases, mix.Case{Name: name(p), Path: p})
		}
	case "hostile":
		cases = mix.Hostile()
	default:
		fail(fmt.Errorf("-mix %q: want empty or hostile", *which))
	}
	if *only != "" {
		cases = slices.DeleteFunc(cases, func(c mix.Case) bool { return !strings.Contains(c.Path, *only) && !strings.Contains(c.Name, *only) })
		if len(cases) == 0 {
			fail(fmt.Errorf("no route of the mix contains %q", *only))
		}
	}
	paths := make([]string, len(cases))
	labels := make([]string, len(cases))
	for i, c := range cases {
		paths[i], labels[i] = c.Path, c.Name
	}
	var err error
	h := api.Handler()
	reqs := make([]*http.Request, len(paths))
	want := make([]string, len(paths))
	for i, p := range paths {
		reqs[i], err = http.NewRequest("GET", p, nil)
		if err != nil {
			fail(err)
		}
	}
	// One recorder for every request, emptied before each: what a request costs the writer
	// (the worker's dispatch buffers the answer its own way) stays out of the figures.
	w := mix.NewRecorder()
	serve := func(i int) *mix.Recorder {
		w.Reset()
		h.ServeHTTP(w, reqs[i])
		return w
	}
	for i := range paths {
		w := serve(i)
		if *which == "hostile" {
			labels[i] += "/" + strconv.Itoa(w.Status)
		} else if w.Status != http.StatusOK {
			fail(fmt.Errorf("%s: %d %s", paths[i], w.Status, w.Body.String()))
		}
		want[i] = w.Body.String()
	}
	for k := 0; k < *warm; k++ {
		serve(k % len(paths))
	}

	times := make([][]time.Duration, len(paths))
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	stopProfile := startProfile(*cpuProfile)
	cpu0 := processCPU()
	start := time.Now()
	for range *rounds {
		for i := range paths {
			t0 := time.Now()
			w := serve(i)
			times[i] = append(times[i], time.Since(t0))
			if string(w.Body.Bytes()) != want[i] {
				fail(fmt.Errorf("%s: the answer changed between requests", paths[i]))
			}
		}
	}
	total := time.Since(start)
	cpu := processCPU() - cpu0
	stopProfile()
	runtime.ReadMemStats(&ms1)

	// Allocations per request, each route on its own (ReadMemStats stops the world: outside
	// the timed loop).
	const allocRuns = 50
	bytesPer := make([]uint64, len(paths))
	allocsPer := make([]uint64, len(paths))
	for i := range paths {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		for range allocRuns {
			serve(i)
		}
		runtime.ReadMemStats(&b)
		bytesPer[i] = (b.TotalAlloc - a.TotalAlloc) / allocRuns
		allocsPer[i] = (b.Mallocs - a.Mallocs) / allocRuns
	}

	n := *rounds * len(paths)
	if *tsv {
		for i := range paths {
			fmt.Printf("%s\t%.1f\t%.1f\t%d\t%d\t%d\t%.1f\t-\n", labels[i], us(median(times[i])), us(mean(times[i])), bytesPer[i], allocsPer[i], len(want[i]), us(percentile(times[i], 0.1)))
		}
		fmt.Printf("mix\t%.1f\t%.1f\t%d\t%d\t-\t%.1f\t%.1f\n", us(median(flat(times))), us(total/time.Duration(n)), (ms1.TotalAlloc-ms0.TotalAlloc)/uint64(n), (ms1.Mallocs-ms0.Mallocs)/uint64(n), us(percentile(flat(times), 0.1)), us(cpu/time.Duration(n)))
		return
	}
	fmt.Printf("%s/%s, %d warm-up requests, %d timed (%d rounds of %d routes), GOGC %d; the process's CPU time per request over the timed mix: %.1f µs\n", runtime.GOOS, runtime.GOARCH, *warm, n, *rounds, len(paths), *gc, us(cpu/time.Duration(n)))
	fmt.Printf("%-22s %10s %10s %10s %10s %8s %8s\n", "route", "median µs", "10th pct", "mean µs", "B/req", "allocs", "body B")
	for i := range paths {
		fmt.Printf("%-22s %10.1f %10.1f %10.1f %10d %8d %8d\n", labels[i], us(median(times[i])), us(percentile(times[i], 0.1)), us(mean(times[i])), bytesPer[i], allocsPer[i], len(want[i]))
	}
	fmt.Printf("%-22s %10.1f %10.1f %10.1f %10d %8d   (mean includes GC: %d collections, %.1f ms paused)\n", "whole mix", us(median(flat(times))), us(percentile(flat(times), 0.1)), us(total/time.Duration(n)),
		(ms1.TotalAlloc-ms0.TotalAlloc)/uint64(n), (ms1.Mallocs-ms0.Mallocs)/uint64(n), ms1.NumGC-ms0.NumGC, float64(ms1.PauseTotalNs-ms0.PauseTotalNs)/1e6)
}

// name is a short label for a path of the mix: the route and the first query pair, enough to
// tell the mix's requests apart.
func name(p string) string {
	route, query, _ := strings.Cut(strings.TrimPrefix(p, api.Prefix), "?")
	switch {
	case strings.Contains(query, "s=kv"):
		route += "+kv"
	case strings.Contains(query, "drv=nvidia"):
		route += "+nvidia"
	case strings.Contains(query, "drv=amd"):
		route += "+amd"
	case strings.Contains(query, "p=70"):
		route += "+70B"
	case strings.HasPrefix(query, "q="):
		q, _, _ := strings.Cut(strings.TrimPrefix(query, "q="), "&")
		route += "?" + q
	}
	return route
}

func median(d []time.Duration) time.Duration { return percentile(d, 0.5) }

// percentile is the p-th (0-1) of the times: on a busy machine a low one (run.sh prints the
// 10th) is closer to the request's own cost than the median.
func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1))]
}

func mean(d []time.Duration) time.Duration {
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return sum / time.Duration(len(d))
}

func flat(d [][]time.Duration) []time.Duration {
	var all []time.Duration
	for _, x := range d {
		all = append(all, x...)
	}
	return all
}

func us(d time.Duration) float64 { return float64(d) / 1e3 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "wasmapi:", err)
	os.Exit(1)
}
