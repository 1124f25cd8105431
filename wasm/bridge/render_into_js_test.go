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
	tg, r := renderLink(t, link)
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

// renderInto answers a frozen options object it has read before from what it read (the page
// passes one frozen {columns: true} to every render), and reads any other object afresh: an
// object that is not frozen, changed between two calls, gets the form it asks for each time, and
// a frozen one with an unknown key is refused every time.
func TestRenderIntoOptionsReadAgainUnlessFrozen(t *testing.T) {
	g := api(t)
	tg, err := target.ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf")
	if err != nil {
		t.Fatal(err)
	}
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	columnsLen, fullLen := len(AppendResultColumnsJSON(nil, tg, r)), len(ResultJSON(tg, r))
	arg := obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf"})
	bytes := js.Global().Get("Uint8Array").New(1 << 18)
	object := js.Global().Get("Object")
	frozen := object.Call("freeze", obj(map[string]any{"columns": true}))
	open := obj(map[string]any{"columns": true})
	for i, c := range []struct {
		options js.Value
		set     any // open.columns before the call, when not nil
		want    int
	}{
		{frozen, nil, columnsLen},
		{open, nil, columnsLen},
		{open, false, fullLen}, // the same object, changed: read again
		{frozen, nil, columnsLen},
		{open, true, columnsLen},
	} {
		if c.set != nil {
			open.Set("columns", c.set)
		}
		if n := g.Call("renderInto", arg, c.options, bytes); n.Type() != js.TypeNumber || n.Int() != c.want {
			t.Fatalf("call %d: renderInto returned %v, want %d bytes", i, n, c.want)
		}
	}
	bad := object.Call("freeze", obj(map[string]any{"columns": true, "rows": true}))
	for i := 0; i < 2; i++ {
		if e := g.Call("renderInto", arg, bad, bytes); !e.InstanceOf(js.Global().Get("Error")) || e.Get("field").String() != "options" {
			t.Fatalf("call %d with a frozen {columns, rows}: %v, want an Error naming options", i, e)
		}
	}
}
