package bridge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// A sound link's first claim is repairLink's target and render's YAML and JSON, and its rest is
// the page's render of that target, byte for byte, so the page adopting it renders once.
func TestFirstClaimIsRepairAndRender(t *testing.T) {
	kv := target.Default()
	kv.Model, kv.Sizing, kv.Context, kv.Sequences, kv.Driver, kv.Count = "Qwen/Qwen2.5-7B-Instruct", "kv", 32768, 4, "nvidia", 2
	custom := target.Default()
	custom.ParamsB, custom.Template, custom.Name, custom.MinTps = 70, true, "my-claim", 12.5
	// vllmRefused warns: the KV-aware claim's header says it (sixteenth session), the fast path's too.
	const vllmRefused = "m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm"
	for _, link := range []string{"m=NousResearch%2FLlama-2-7b-chat-hf", target.Permalink(kv), target.Permalink(custom), vllmRefused} {
		f, ok := FirstClaim(link)
		if !ok {
			t.Fatalf("%s: not a first claim", link)
		}
		var got, repair struct {
			Target     map[string]any
			YAML, JSON string
		}
		if err := json.Unmarshal(AppendFirstJSON(nil, &f), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(RepairJSON(link)), &repair); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Target, repair.Target) {
			t.Errorf("%s: target %v, repairLink's %v", link, got.Target, repair.Target)
		}
		tg, err := target.ParsePermalink(link)
		if err != nil {
			t.Fatal(err)
		}
		want, err := claim.Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		if got.YAML != want.YAML || got.JSON != want.JSON {
			t.Errorf("%s: the first claim's YAML or JSON differs from render's", link)
		}
		if link == vllmRefused && !strings.Contains(got.YAML, "\n# warning: vLLM refuses --max-model-len 200000, above the model's 40960 tokens\n") {
			t.Errorf("%s: the first claim's YAML does not say the warning:\n%s", link, got.YAML)
		}
		// The page's render of the same target object, as web/render.js writes the call.
		call := callObject(nil, entries(t, got.Target)...)
		call = callObject(call, entry{key: "columns", typ: 'b', b: true})
		page, okRender := AppendRender(nil, call)
		if !okRender {
			t.Fatalf("%s: render refused: %s", link, page)
		}
		if rest := AppendFirstRest(nil, &f); string(rest) != string(page) {
			t.Errorf("%s: the rest differs from the page's render:\n%s\n%s", link, rest, page)
		}
		if rest := AppendFirstRest(nil, &f); string(rest) != string(page) {
			t.Errorf("%s: the rest asked again differs", link)
		}
	}
}

// entries is a target object's keys as render.js writes them, in any order (Go reads them
// into a map); an int is TargetView's count, written as a number.
func entries(t *testing.T, obj map[string]any) []entry {
	var out []entry
	for k, v := range obj {
		switch v := v.(type) {
		case string:
			out = append(out, entry{key: k, typ: 's', str: v})
		case float64:
			out = append(out, entry{key: k, typ: 'n', num: v})
		case int:
			out = append(out, entry{key: k, typ: 'n', num: float64(v)})
		case bool:
			out = append(out, entry{key: k, typ: 'b', b: v})
		default:
			t.Fatalf("key %s: a %T in a target", k, v)
		}
	}
	return out
}

// A link the page's start must read itself is no first claim: one with a dropped pair or a
// message (shown by their fields), one without a model or size (the page asks), one whose claim
// render refuses (the page shows the error).
func TestFirstClaimLeavesTheRestToThePage(t *testing.T) {
	for _, link := range []string{
		"",         // no model: the page asks for one
		"ctx=4096", // still none
		"m=NousResearch%2FLlama-2-7b-chat-hf&garbage", // a pair without "=": dropped
		"m=NousResearch%2FLlama-2-7b-chat-hf&eff=500", // efficiency beyond its range: dropped
		"m=NousResearch%2FLlama-2-7b-chat-hf&p=7",     // a model and a size: the size dropped
		"m=NoSuch%2FModel",                            // render knows no such model
		"p=70&name=Bad",                               // render refuses the name (not a DNS subdomain)
	} {
		if f, ok := FirstClaim(link); ok {
			t.Errorf("%q: a first claim %q", link, f.Result.YAML[:40])
		}
	}
}
