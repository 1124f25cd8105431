//go:build js && wasm

package later

import (
	"syscall/js"
	"testing"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
	"github.com/fitclaim/fitclaim/wasm/bridge"
	"github.com/fitclaim/fitclaim/wasm/internal/jstest"
)

// api installs both engines' functions, as the page has them once the second engine is loaded.
func api(t *testing.T) js.Value {
	t.Helper()
	bridge.Register()
	Register()
	g := js.Global().Get("fitclaim")
	if g.Type() != js.TypeObject || g.Get("deploy").Type() != js.TypeFunction || g.Get("render").Type() != js.TypeFunction {
		t.Fatal("fitclaim global incomplete")
	}
	if n := g.Get("options").Get("engines").Length(); n != len(deploy.Engines()) {
		t.Fatalf("options.engines has %d, want %d", n, len(deploy.Engines()))
	}
	return g
}

// await and obj are the harness package bridge's browser tests share (wasm/internal/jstest).
var (
	await = jstest.Await
	obj   = jstest.Obj
)

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

// In the browser, hardware(query) holds the engine's estimate (6.53 GiB of 24, 106 tok/s printed whole,
// fit's hand-computed case) and rejects a bad device naming its field.
func TestHardwareInBrowser(t *testing.T) {
	g := api(t)
	q := "p=8&L=32&kvh=8&hd=128&memory=24&bandwidth=1000&family=nvidia"
	v, rej := await(g.Call("hardware", q))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	e, err := estimate.RunRaw(q)
	if err != nil {
		t.Fatal(err)
	}
	est := v.Get("estimate")
	if !est.Get("fits").Bool() || est.Get("needGiB").Float() != 6.53 || est.Get("tokensPerSecond").Float() != 106 ||
		v.Get("text").String() != estimate.Text(e) || v.Get("fitting").Length() != HardwareFitting {
		t.Fatalf("hardware: needGiB %v, tok/s %v, %d fitting", est.Get("needGiB"), est.Get("tokensPerSecond"), v.Get("fitting").Length())
	}
	_, rej = await(g.Call("hardware", "p=8&memory=24&bandwidth=1000&family=tpu"))
	if rej.IsUndefined() || rej.Get("field").String() != "family" {
		t.Fatalf("a bad family: %v", rej)
	}
}
