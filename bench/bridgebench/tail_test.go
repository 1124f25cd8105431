//go:build js && wasm

package bridgebench

import (
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// pageGCPercent is wasm/page's gcPercent (package main there, so not importable).
const pageGCPercent = 400

// pageTargets are the page bench's varied targets (tools/cmd/pagebench renderJS: catalog models
// found by a dozen queries, custom sizes, and quant, speed, efficiency, kv, driver, template and
// count set on some), built the way the bridge reads the page's objects.
func pageTargets(n int) []target.Target {
	var names []string
	seen := map[string]bool{}
	for _, q := range []string{"", "llama", "qwen", "mistral", "gemma", "phi", "deepseek", "mixtral", "7b", "70b", "instruct", "coder"} {
		for _, m := range claim.SearchModels(q, 100) {
			if !seen[m.Name] {
				seen[m.Name] = true
				names = append(names, m.Name)
			}
		}
	}
	num := func(x int) bridge.Value { return bridge.Value{Type: "number", Num: float64(x)} }
	str := func(s string) bridge.Value { return bridge.Value{Type: "string", Str: s} }
	quants := []string{"Q4_K_M", "Q8_0", "F16", "Q5_K_M", "Q2_K"}
	var out []target.Target
	for i := 0; len(out) < n; i++ {
		o := map[string]bridge.Value{}
		if i%17 == 9 {
			o["paramsB"] = num(1 + i%120)
		} else {
			o["model"] = str(names[i%len(names)])
		}
		if i%3 == 1 {
			o["minTps"] = num(5 + i%60)
		}
		if i%4 == 2 {
			o["efficiencyPct"] = num(30 + i%70)
		}
		if i%5 == 3 {
			o["quant"] = str(quants[i%len(quants)])
		}
		if i%7 == 4 {
			o["sizing"], o["sequences"], o["context"] = str("kv"), num(1+i%8), num(1024*(1+i%8))
		}
		if i%11 == 5 {
			o["driver"] = str([]string{"nvidia", "amd", "intel", "any"}[i%4])
		}
		if i%13 == 6 {
			o["template"] = bridge.Value{Type: "boolean", Bool: true}
		}
		if i%19 == 7 {
			o["count"] = num(1 + i%4)
		}
		if t, err := bridge.TargetFromObject(o); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// BenchmarkPageRenderTail is the page's render (claim.Render, the columns, JSON.parse) over the
// page bench's 1,000 targets in turn, each op timed on its own with performance.now() (100 µs
// steps here: the test page is not cross-origin isolated), with the page's GC setting: it reports
// the median and p99 of one render, the p99 over the targets of each one's best time (what the
// render itself costs without the machine's interruptions; with -benchtime 3000x each target
// is rendered three times), and how many of Go's garbage collections fell in the renders, per
// 1,000.
func BenchmarkPageRenderTail(b *testing.B) {
	renderTail(b, bridge.AppendResultColumnsJSON)
}

// BenchmarkDocumentedRenderTail is the same for fitclaim.render(target): every match an object.
func BenchmarkDocumentedRenderTail(b *testing.B) {
	renderTail(b, bridge.AppendResultJSON)
}

func renderTail(b *testing.B, text func([]byte, target.Target, claim.Result) []byte) {
	defer debug.SetGCPercent(debug.SetGCPercent(pageGCPercent))
	ts := pageTargets(1000)
	perf, parse := js.Global().Get("performance"), js.Global().Get("JSON")
	sample := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	cycles := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	var buf []byte
	ds := make([]float64, 0, b.N)
	best := make([]float64, len(ts))
	gc0 := cycles()
	i := 0
	for b.Loop() {
		t := ts[i%len(ts)]
		t0 := perf.Call("now").Float()
		if r, err := claim.Render(t); err == nil {
			buf = text(buf[:0], t, r)
			_ = parse.Call("parse", string(buf))
		}
		d := perf.Call("now").Float() - t0
		ds = append(ds, d)
		if k := i % len(ts); best[k] == 0 || d < best[k] {
			best[k] = d
		}
		i++
	}
	gcs := cycles() - gc0
	quantile := func(xs []float64, q float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[max(0, int(q*float64(len(s)))-1)]
	}
	b.ReportMetric(quantile(ds, 0.5)*1e3, "p50-µs")
	b.ReportMetric(quantile(ds, 0.99)*1e3, "p99-µs")
	if i >= len(ts) {
		b.ReportMetric(quantile(best, 0.99)*1e3, "best-p99-µs")
	}
	b.ReportMetric(float64(gcs)*1000/float64(i), "gc/1k")
}
