//go:build js && wasm

package bridgebench

import (
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// BenchmarkStage3RenderViewParse is what fitclaim.render does before resolving its Promise.
func BenchmarkStage3RenderViewParse(b *testing.B) {
	parse := js.Global().Get("JSON")
	renderEach(b, func(t target.Target, r claim.Result) { _ = parse.Call("parse", bridge.ResultJSON(t, r)) })
}

// BenchmarkStage3RenderColumnsParse is what fitclaim.render(target, {columns: true}) does, the
// page's call, before resolving its Promise (the page then joins the columns with the
// accelerators it fetched once: web/app.js).
func BenchmarkStage3RenderColumnsParse(b *testing.B) {
	parse := js.Global().Get("JSON")
	var buf []byte
	renderEach(b, func(t target.Target, r claim.Result) {
		buf = bridge.AppendResultColumnsJSON(buf[:0], t, r)
		_ = parse.Call("parse", string(buf))
	})
}
