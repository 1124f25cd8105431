// Package sweep times the whole catalog rendered at defaults. ./build.sh bench runs it twice,
// natively and under GOOS=js GOARCH=wasm in headless Chromium (wasmbrowsertest), and prints
// the ratio; it is a benchmark, never a timed test.
package sweep

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// sweep renders every catalog entry at llmfit's defaults and returns the bytes of YAML written.
func sweep(tb testing.TB, names []string) int {
	n := 0
	for _, name := range names {
		t := target.Default()
		t.Model = name
		r, err := claim.Render(t)
		if err != nil {
			tb.Fatalf("render %q: %v", name, err)
		}
		n += len(r.YAML)
	}
	return n
}

func names() []string {
	ms := catalog.Models()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// BenchmarkCatalogSweep: one op is the whole catalog (every catalog.Models() name, rendered
// with claim.Render at defaults). The per-model time is reported as ns/model.
func BenchmarkCatalogSweep(b *testing.B) {
	ns := names()
	if len(ns) == 0 {
		b.Fatal("empty catalog")
	}
	sweep(b, ns) // warm the catalog's lookup structures outside the timing
	b.ReportAllocs()
	b.ResetTimer()
	bytes := 0
	for b.Loop() {
		bytes = sweep(b, ns)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ns)), "ns/model")
	b.ReportMetric(float64(len(ns)), "models")
	b.SetBytes(int64(bytes))
}
