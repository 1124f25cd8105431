//go:build js && wasm

package bridge

import (
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// renderInto writes exactly the text render parses (the page's columns form and the documented
// one), says how many bytes it needs when the array is too short, and returns render's Error for
// a bad target or a missing array.
func TestRenderIntoWritesRenderText(t *testing.T) {
	g := api(t)
	const link = "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30"
	tg, err := target.ParsePermalink(link)
	if err != nil {
		t.Fatal(err)
	}
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	arg := obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf", "minTps": 30})
	bytes := js.Global().Get("Uint8Array").New(1 << 18)
	for _, columns := range []bool{true, false} {
		want := ResultJSON(tg, r)
		if columns {
			want = string(AppendResultColumnsJSON(nil, tg, r))
		}
		n := g.Call("renderInto", arg, obj(map[string]any{"columns": columns}), bytes)
		if n.Type() != js.TypeNumber || n.Int() != len(want) {
			t.Fatalf("columns %v: renderInto returned %v, want %d bytes", columns, n, len(want))
		}
		got := make([]byte, n.Int())
		js.CopyBytesToGo(got, bytes.Call("subarray", 0, n))
		if string(got) != want {
			t.Fatalf("columns %v: the text written differs from the bridge's", columns)
		}
	}
	// Too short: minus the length needed, and the page retries with a longer array.
	short := js.Global().Get("Uint8Array").New(10)
	want := len(AppendResultColumnsJSON(nil, tg, r))
	if n := g.Call("renderInto", arg, obj(map[string]any{"columns": true}), short); n.Type() != js.TypeNumber || n.Int() != -want {
		t.Fatalf("a 10-byte array: renderInto returned %v, want %d", n, -want)
	}
	for _, c := range []struct {
		args  []any
		field string
	}{
		{[]any{obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf", "minTps": -1}), js.Undefined(), bytes}, "minTps"},
		{[]any{arg, obj(map[string]any{"rows": true}), bytes}, "options"},
		{[]any{arg, js.Undefined()}, "bytes"},
		{[]any{arg, js.Undefined(), js.ValueOf([]any{1, 2})}, "bytes"},
	} {
		e := g.Call("renderInto", c.args...)
		if !e.InstanceOf(js.Global().Get("Error")) || e.Get("field").String() != c.field {
			t.Fatalf("renderInto(%v) = %v, want an Error naming %s", c.args, e, c.field)
		}
	}
}
