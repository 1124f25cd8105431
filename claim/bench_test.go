package claim

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
)

// BenchmarkRender is one render of a catalog model at llmfit's defaults: lookup, sizing,
// matching, YAML, JSON and warnings.
func BenchmarkRender(b *testing.B) {
	tg := fit.DefaultTarget()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	if _, err := Render(tg); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(tg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderKVNvidia is the heaviest common render: kv sizing with the NVIDIA allow-list.
func BenchmarkRenderKVNvidia(b *testing.B) {
	tg := fit.DefaultTarget()
	tg.Model, tg.Sizing, tg.Driver, tg.Context = "Qwen/Qwen3-30B-A3B-Instruct-2507", "kv", "nvidia", 32768
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(tg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderCatalog renders every catalog entry at the defaults; one op is the whole sweep.
func BenchmarkRenderCatalog(b *testing.B) {
	ms := catalog.Models()
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range ms {
			tg := fit.DefaultTarget()
			tg.Model = m.Name
			if _, err := Render(tg); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ms)), "ns/entry")
}

func BenchmarkPermalinkRoundTrip(b *testing.B) {
	tg := fit.DefaultTarget()
	tg.Model, tg.MinTps, tg.EfficiencyPct, tg.Sizing, tg.Driver = "NousResearch/Llama-2-7b-chat-hf", 30, 60, "kv", "nvidia"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePermalink(Permalink(tg)); err != nil {
			b.Fatal(err)
		}
	}
}
