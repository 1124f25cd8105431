// Package render times single renders and the permalink codec, natively; the whole catalog is
// bench/sweep's. bench/bench.sh runs these with the catalog's and fit's own benchmarks.
package render

import (
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// BenchmarkRender is one render of a catalog model at llmfit's defaults: lookup, sizing,
// matching, YAML, JSON and warnings.
func BenchmarkRender(b *testing.B) {
	tg := target.Default()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	if _, err := claim.Render(tg); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := claim.Render(tg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderKVNvidia is the heaviest common render: kv sizing with the NVIDIA allow-list.
func BenchmarkRenderKVNvidia(b *testing.B) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Driver, tg.Context = "Qwen/Qwen3-30B-A3B-Instruct-2507", "kv", "nvidia", 32768
	b.ReportAllocs()
	for b.Loop() {
		if _, err := claim.Render(tg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPermalinkRoundTrip writes a target's permalink and reads it back.
func BenchmarkPermalinkRoundTrip(b *testing.B) {
	tg := target.Default()
	tg.Model, tg.MinTps, tg.EfficiencyPct, tg.Sizing, tg.Driver = "NousResearch/Llama-2-7b-chat-hf", 30, 60, "kv", "nvidia"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := target.ParsePermalink(target.Permalink(tg)); err != nil {
			b.Fatal(err)
		}
	}
}
