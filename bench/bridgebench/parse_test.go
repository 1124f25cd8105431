//go:build js && wasm

package bridgebench

import (
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// BenchmarkStage3RenderViewParse is what fitclaim.render does before resolving its Promise.
func BenchmarkStage3RenderViewParse(b *testing.B) {
	ts := targets()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t := ts[i%len(ts)]
		r, err := claim.Render(t)
		if err != nil {
			b.Fatal(err)
		}
		_ = js.Global().Get("JSON").Call("parse", bridge.ResultJSON(t, r))
		i++
	}
}
