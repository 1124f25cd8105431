//go:build js && wasm

package bridge

import (
	"strings"
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/internal/jstest"
)

// await and obj are the harness package later's browser tests share too (wasm/internal/jstest).
var (
	await = jstest.Await
	obj   = jstest.Obj
)

func api(t *testing.T) js.Value {
	t.Helper()
	Register()
	g := js.Global().Get("fitclaim")
	if g.Type() != js.TypeObject {
		t.Fatal("fitclaim global missing")
	}
	return g
}

func TestRenderInBrowserEqualsEngine(t *testing.T) {
	g := api(t)
	v, rej := await(g.Call("render", obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf", "minTps": 30, "efficiencyPct": 60})))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	target, err := target.ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60")
	if err != nil {
		t.Fatal(err)
	}
	want, err := claim.Render(target)
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("yaml").String() != want.YAML || v.Get("json").String() != want.JSON {
		t.Fatal("the bridge's YAML/JSON differ from the engine's")
	}
	if v.Get("permalink").String() != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" {
		t.Fatalf("permalink = %s", v.Get("permalink").String())
	}
	if v.Get("bounds").Get("memoryGi").Int() != int(want.Bounds.MemoryGi) || v.Get("matches").Length() != len(want.Matches) {
		t.Fatalf("bounds or matches wrong: memoryGi %d (want %d), %d matches (want %d)",
			v.Get("bounds").Get("memoryGi").Int(), want.Bounds.MemoryGi, v.Get("matches").Length(), len(want.Matches))
	}
}

func TestRenderRejectsWithFieldError(t *testing.T) {
	g := api(t)
	cases := []struct {
		arg   js.Value
		field string
		msg   string
	}{
		{obj(map[string]any{"model": "meta-llama/Llama-3.1-8B-Instruct", "minTps": -1}), "minTps", "Target decode speed (minTps, tps): must be a decimal number greater than 0"},
		{obj(map[string]any{"model": "meta-llama/Llama-3.1-8B-Instruct", "efficiencyPct": 55.5}), "efficiencyPct", "whole number"},
		{obj(map[string]any{"model": "meta-llama/Llama-3.1-8B-Instruct", "template": "yes please"}), "template", "must be of type boolean, not string"},
		{obj(map[string]any{"color": "red"}), "target", "unknown key"},
		{js.ValueOf("not an object"), "target", "must be an object"},
		{js.Null(), "target", "must be an object"},
	}
	for _, c := range cases {
		_, rej := await(g.Call("render", c.arg))
		if rej.IsUndefined() {
			t.Errorf("%s: resolved, want a rejection", c.msg)
			continue
		}
		if !rej.InstanceOf(js.Global().Get("Error")) || rej.Get("field").String() != c.field || !strings.Contains(rej.Get("message").String(), c.msg) {
			t.Errorf("rejection field %q message %q; want field %q containing %q", rej.Get("field").String(), rej.Get("message").String(), c.field, c.msg)
		}
	}
}

func TestPermalinkRoundTrip(t *testing.T) {
	g := api(t)
	link, rej := await(g.Call("permalink", obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf", "minTps": 30, "efficiencyPct": 60})))
	if !rej.IsUndefined() || link.String() != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" {
		t.Fatalf("permalink %v %v", link, rej)
	}
	target, rej := await(g.Call("parsePermalink", "#"+link.String()))
	if !rej.IsUndefined() || target.Get("minTps").Float() != 30 || target.Get("model").String() != "NousResearch/Llama-2-7b-chat-hf" {
		t.Fatalf("parsePermalink: %v", rej)
	}
}

func TestBrokenLinkKeepsValidParts(t *testing.T) {
	g := api(t)
	_, rej := await(g.Call("parsePermalink", "#m=NousResearch%2FLlama-2-7b-chat-hf&tps=fast&eff=%ZZ"))
	if rej.IsUndefined() {
		t.Fatal("a broken link must reject")
	}
	if rej.Get("target").Get("model").String() != "NousResearch/Llama-2-7b-chat-hf" {
		t.Fatal("the valid model pair must be kept in .target")
	}
	if n := rej.Get("errors").Length(); n != 2 {
		t.Fatalf("%d errors, want 2 (tps and the bad escape): %s", n, rej.Get("message").String())
	}
}

func TestModelsAndInfo(t *testing.T) {
	g := api(t)
	list, rej := await(g.Call("models", "qwen3", 5))
	if !rej.IsUndefined() || list.Length() != 5 {
		t.Fatalf("models: %v", rej)
	}
	for i, m := range claim.SearchModels("qwen3", 5) { // the engine's own answer, name for name
		if got := list.Index(i).Get("name").String(); got != m.Name {
			t.Errorf("models[%d] = %q, the engine says %q", i, got, m.Name)
		}
	}
	_, rej = await(g.Call("models", 42))
	if rej.IsUndefined() || rej.Get("field").String() != "query" {
		t.Fatal("a non-string query must reject")
	}
	if g.Get("catalog").Get("models").Int() != 1852 || g.Get("version").String() != claim.Version {
		t.Fatal("info wrong")
	}
}

// Hostile input: each is refused with a message that names what is wrong, and the engine answers
// the next call as if nothing happened.
func TestHostileInputsKeepTheEngineAlive(t *testing.T) {
	g := api(t)
	model := "NousResearch/Llama-2-7b-chat-hf"
	big := strings.Repeat("x", 100000)
	cases := []struct {
		fn    string
		args  []any
		field string
		msg   string
	}{
		{"render", []any{map[string]any{"model": model, "efficiencyPct": "55"}}, "efficiencyPct", `must be of type number (a whole one), not string (got "55")`},
		{"render", []any{map[string]any{"model": model, "template": "yes"}}, "template", `must be of type boolean, not string (got "yes")`},
		{"render", []any{map[string]any{"model": model, "minTps": "30"}}, "minTps", `must be of type number, not string (got "30")`},
		{"render", []any{map[string]any{"paramsB": "7"}}, "paramsB", `must be of type number, not string (got "7")`},
		{"render", []any{map[string]any{"model": model, "count": true}}, "count", "must be of type number (a whole one), not boolean"},
		{"render", []any{map[string]any{"model": model, "minTps": map[string]any{}}}, "minTps", "must be of type number, not object"},
		{"render", []any{map[string]any{"model": model, "minTps": js.Global().Get("NaN")}}, "minTps", "(got NaN)"},
		{"render", []any{map[string]any{"model": model, "minTps": js.Global().Get("Infinity")}}, "minTps", "(got +Inf)"},
		{"render", []any{map[string]any{"model": model, "count": 2.5}}, "count", "must be a whole number from 1 to 8 devices (got 2.5)"},
		{"render", []any{map[string]any{"model": big}}, "model", "must be at most 300 characters (got 100000)"},
		{"render", []any{map[string]any{"model": model, "name": "a\nkind: Secret"}}, "name", "must be a DNS-1123 subdomain"},
		{"render", []any{[]any{1, 2}}, "target", "unknown key"},
		{"render", []any{}, "target", "must be an object"},
		{"render", []any{map[string]any{"model": model}, "columns"}, "options", "must be an object such as {columns: true}, not string"},
		{"render", []any{map[string]any{"model": model}, map[string]any{"columns": "yes"}}, "options", "columns must be of type boolean, not string"},
		{"render", []any{map[string]any{"model": model}, map[string]any{"rows": true}}, "options", `unknown key "rows"; known keys: columns`},
		{"permalink", []any{map[string]any{"efficiencyPct": "55"}}, "efficiencyPct", "must be of type number"},
		{"models", []any{"qwen", 0}, "limit", "must be a whole number from 1 to 100 (got 0)"},
		{"models", []any{"qwen", 101}, "limit", "must be a whole number from 1 to 100 (got 101)"},
		{"models", []any{"qwen", 2.5}, "limit", "must be a whole number from 1 to 100 (got 2.5)"},
		{"models", []any{"qwen", "5"}, "limit", "must be of type number, not string"},
		{"parsePermalink", []any{42}, "fragment", "must be a string"},
		{"repairLink", []any{map[string]any{}}, "fragment", "must be a string"},
	}
	for _, c := range cases {
		_, rej := await(g.Call(c.fn, c.args...))
		if rej.IsUndefined() {
			t.Errorf("%s(%.60v): resolved, want a rejection", c.fn, c.args)
		} else if rej.Get("field").String() != c.field || !strings.Contains(rej.Get("message").String(), c.msg) {
			t.Errorf("%s(%.60v): field %q, message %q; want field %q containing %q", c.fn, c.args, rej.Get("field").String(), rej.Get("message").String(), c.field, c.msg)
		}
		v, rej := await(g.Call("render", obj(map[string]any{"model": model})))
		if !rej.IsUndefined() || v.Get("bounds").Get("memoryGi").Int() != 4 {
			t.Fatalf("after %s(%.60v) the engine no longer renders", c.fn, c.args)
		}
	}
}

func TestRepairLinkInBrowser(t *testing.T) {
	g := api(t)
	v, rej := await(g.Call("repairLink", "#m=NousResearch%2FLlama-2-7b-chat-hf&eff=500&garbage&p=7"))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	if v.Get("permalink").String() != "m=NousResearch%2FLlama-2-7b-chat-hf" || v.Get("dropped").Length() != 3 ||
		v.Get("dropped").Index(0).Get("field").String() != "query" {
		t.Fatalf("repair: %s", js.Global().Get("JSON").Call("stringify", v).String())
	}
	limited, rej := await(g.Call("models", "qwen3", 2))
	if !rej.IsUndefined() || limited.Length() != 2 {
		t.Fatal("models with a good limit")
	}
}

// The page's form: the table as columns naming accelerators of fitclaim.accelerators(), one row
// per match of the documented form, in its order (table_view_test.go compares every member).
func TestRenderColumnsInBrowser(t *testing.T) {
	g := api(t)
	tg := obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf", "minTps": 30})
	full, rej := await(g.Call("render", tg))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	cols, rej := await(g.Call("render", tg, obj(map[string]any{"columns": true})))
	if !rej.IsUndefined() {
		t.Fatalf("columns rejected: %s", rej.Get("message").String())
	}
	accs, rej := await(g.Call("accelerators"))
	if !rej.IsUndefined() {
		t.Fatalf("accelerators rejected: %s", rej.Get("message").String())
	}
	matches, table := full.Get("matches"), cols.Get("table")
	if !cols.Get("matches").IsUndefined() || table.Type() != js.TypeObject {
		t.Fatal("the columns form should carry table, not matches")
	}
	if n := table.Get("accelerator").Length(); n != matches.Length() || n != accs.Length() {
		t.Fatalf("%d rows, %d matches, %d accelerators", n, matches.Length(), accs.Length())
	}
	for i := 0; i < matches.Length(); i++ {
		a := accs.Index(table.Get("accelerator").Index(i).Int())
		m := matches.Index(i)
		if a.Get("id").String() != m.Get("id").String() || table.Get("estTps").Index(i).Float() != m.Get("estTps").Float() ||
			table.Get("verdicts").Index(table.Get("verdict").Index(i).Int()).String() != m.Get("verdict").String() {
			t.Fatalf("row %d: %s, %v tok/s; match %s, %v tok/s", i, a.Get("id").String(), table.Get("estTps").Index(i).Float(),
				m.Get("id").String(), m.Get("estTps").Float())
		}
	}
	if cols.Get("yaml").String() != full.Get("yaml").String() {
		t.Fatal("the columns form's YAML differs")
	}
}
