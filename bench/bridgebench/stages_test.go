// Package bridgebench splits one page render into its stages, so the in-page render latency
// that bench/bench.sh prints can be explained: claim.Render, then bridge.ResultJSON (the result as
// JSON text), then, under js/wasm only, JSON.parse (turning it into JavaScript objects).
// bench/bench.sh runs these natively and in headless Chromium; one op is one render.
package bridgebench

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// targets cycles through the catalog at defaults.
func targets() []target.Target {
	ms := catalog.Models()
	out := make([]target.Target, len(ms))
	for i, m := range ms {
		out[i] = target.Default()
		out[i].Model = m.Name
	}
	return out
}

// renderEach renders one catalog entry per op and hands the result to stage, the part after
// claim.Render that a benchmark adds; the stages differ only in it.
func renderEach(b *testing.B, stage func(target.Target, claim.Result)) {
	ts := targets()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t := ts[i%len(ts)]
		r, err := claim.Render(t)
		if err != nil {
			b.Fatal(err)
		}
		stage(t, r)
		i++
	}
}

func BenchmarkStage1Render(b *testing.B) {
	renderEach(b, func(target.Target, claim.Result) {})
}

func BenchmarkStage2RenderView(b *testing.B) {
	renderEach(b, func(t target.Target, r claim.Result) { _ = bridge.ResultJSON(t, r) })
}

// BenchmarkStage2RenderColumns is stage 2 in the page's form (fitclaim.render(target, {columns:
// true}): the matches as columns), written into one buffer kept from render to render as the
// page's bridge keeps it.
func BenchmarkStage2RenderColumns(b *testing.B) {
	var buf []byte
	renderEach(b, func(t target.Target, r claim.Result) { buf = bridge.AppendResultColumnsJSON(buf[:0], t, r) })
}
