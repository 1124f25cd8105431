//go:build js && wasm

package bridge

import (
	"strings"
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/target"
)

// await waits for a Promise in the browser's event loop and returns its value or rejection.
func await(p js.Value) (value js.Value, rejected js.Value) {
	done := make(chan struct{})
	onOK := js.FuncOf(func(_ js.Value, args []js.Value) any { value = args[0]; close(done); return nil })
	onErr := js.FuncOf(func(_ js.Value, args []js.Value) any { rejected = args[0]; close(done); return nil })
	defer onOK.Release()
	defer onErr.Release()
	p.Call("then", onOK, onErr)
	<-done
	return value, rejected
}

func api(t *testing.T) js.Value {
	t.Helper()
	Register()
	g := js.Global().Get("fitclaim")
	if g.Type() != js.TypeObject {
		t.Fatal("fitclaim global missing")
	}
	return g
}

func obj(kv map[string]any) js.Value { return js.ValueOf(kv) }

func TestRenderInBrowserEqualsEngine(t *testing.T) {
	g := api(t)
	v, rej := await(g.Call("render", obj(map[string]any{"model": "NousResearch/Llama-2-7b-chat-hf", "minTps": 30, "efficiencyPct": 60})))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	target, _ := claim.ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60")
	want, _ := claim.Render(target)
	if v.Get("yaml").String() != want.YAML || v.Get("json").String() != want.JSON {
		t.Fatal("the bridge's YAML/JSON differ from the engine's")
	}
	if v.Get("permalink").String() != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" {
		t.Fatalf("permalink = %s", v.Get("permalink").String())
	}
	if v.Get("bounds").Get("memoryGi").Int() != int(want.Bounds.MemoryGi) || v.Get("matches").Length() != 36 {
		t.Fatal("bounds or matches wrong")
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
		{obj(map[string]any{"model": "meta-llama/Llama-3.1-8B-Instruct", "template": "yes please"}), "template", "must be 1 or 0"},
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
	if !rej.IsUndefined() || list.Length() != 5 || list.Index(0).Get("name").String() == "" {
		t.Fatalf("models: %v", rej)
	}
	_, rej = await(g.Call("models", 42))
	if rej.IsUndefined() || rej.Get("field").String() != "query" {
		t.Fatal("a non-string query must reject")
	}
	if g.Get("catalog").Get("models").Int() != 1852 || g.Get("version").String() != claim.Version {
		t.Fatal("info wrong")
	}
}

func TestDeployInBrowserEqualsEngine(t *testing.T) {
	g := api(t)
	v, rej := await(g.Call("deploy", obj(map[string]any{"model": "Qwen/Qwen3-8B", "sizing": "kv", "context": 4096, "engine": "llama.cpp"})))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	tg, err := target.ParsePermalink("m=Qwen%2FQwen3-8B&s=kv&ctx=4096&engine=llama.cpp")
	if err != nil {
		t.Fatal(err)
	}
	want, err := deploy.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("yaml").String() != want.YAML || v.Get("summary").String() != want.Summary || v.Get("apiQuery").String() != want.Query {
		t.Fatal("the bridge's deploy output differs from the engine's")
	}
	for _, c := range []struct {
		key   string
		value any
	}{{"engine", "tgi"}, {"image", 5}, {"image", "a b"}} {
		_, rej := await(g.Call("deploy", obj(map[string]any{"model": "Qwen/Qwen3-8B", c.key: c.value})))
		if rej.IsUndefined() || rej.Get("field").String() != c.key {
			t.Errorf("%s %v: want a rejection naming %s", c.key, c.value, c.key)
		}
	}
}
