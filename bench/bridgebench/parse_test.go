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
