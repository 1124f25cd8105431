//go:build js && wasm

package bridgebench

import (
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// BenchmarkParseOnly is the last stage alone: handing one result's JSON text to JavaScript and
// parsing it there.
func BenchmarkParseOnly(b *testing.B) {
	t := targets()[0]
	r, err := claim.Render(t)
	if err != nil {
		b.Fatal(err)
	}
	text := bridge.ResultJSON(t, r)
	parse := js.Global().Get("JSON")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = parse.Call("parse", text)
	}
}
