package claim

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// checkRendered demands what every successful render must give: one YAML document that parses
// back, comment-only header lines, a valid claim name read back as that string, a valid
// request, and JSON that parses.
func checkRendered(t *testing.T, r Result) {
	t.Helper()
	p := parseYAML(t, r.YAML) // one document, strict parse, header all comments
	name, ok := path(t, p.doc, "metadata", "name").(string)
	if !ok || name != r.Name || !validSubdomain(name) {
		t.Fatalf("claim name %#v (result %q) is not a valid subdomain read back as itself:\n%s", path(t, p.doc, "metadata", "name"), r.Name, r.YAML)
	}
	if p.doc["apiVersion"] != "resource.k8s.io/v1" || (p.doc["kind"] != "ResourceClaim" && p.doc["kind"] != "ResourceClaimTemplate") {
		t.Fatalf("doc %v", p.doc)
	}
	if p.request["name"] != "model" {
		t.Fatalf("request %v", p.request)
	}
	if len(p.header) < 4 {
		t.Fatalf("header %q", p.header)
	}
	var exacts []map[string]any
	if fa, ok := p.request["firstAvailable"].([]any); ok {
		for _, s := range fa {
			exacts = append(exacts, s.(map[string]any))
		}
	} else {
		exacts = append(exacts, path(t, p.request, "exactly").(map[string]any))
	}
	for _, e := range exacts {
		class, ok := e["deviceClassName"].(string)
		if !ok || !validSubdomain(class) {
			t.Fatalf("deviceClassName %#v", e["deviceClassName"])
		}
		expr := expression(t, e)
		if len(expr) > 10240 || strings.Contains(expr, ">= -") || strings.Contains(expr, "quantity('-") || strings.Contains(expr, "quantity('0Gi')") {
			t.Fatalf("expression: %s", expr)
		}
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(r.JSON), &j); err != nil {
		t.Fatalf("JSON: %v\n%s", err, r.JSON)
	}
	if j["claimName"] != r.Name || j["memoryGi"].(float64) < 1 || j["minBandwidthGBs"].(float64) < 1 {
		t.Fatalf("JSON values: %s", r.JSON)
	}
}

func requireFieldError(t *testing.T, err error) *target.FieldError {
	t.Helper()
	var fe *target.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *target.FieldError", err, err)
	}
	if fe.Field == "" || fe.Msg == "" {
		t.Fatalf("empty FieldError %#v", fe)
	}
	return fe
}

// FuzzRenderModelName renders arbitrary model entries and targets: never a panic; a FieldError or
// a valid claim.
func FuzzRenderModelName(f *testing.F) {
	f.Add("Test Model 7B", int64(7e9), 6.0, 20.0, 55, "", false, uint8(0), 1, "")
	f.Add("evil\nkind: Secret", int64(7e9), 6.0, 22.5, 60, "Q8_0", true, uint8(1), 2, "")
	f.Add("!!!", int64(0), 0.0, 0.0, 0, "iq4", false, uint8(2), 0, "")
	f.Add("a\u2028b\u0085c", int64(-1), math.NaN(), 1e300, 100, "f16", true, uint8(4), 8, "ok-name")
	f.Add(strings.Repeat("x", 300), int64(math.MaxInt64), math.Inf(1), 100000.0, 1, "F32", true, uint8(3), 8, "123")
	f.Add("\xff\xfe", int64(1629), 0.5, 1e-9, 50, "AutoRound-4bit", false, uint8(1), 3, "Bad_Name")
	f.Fuzz(func(t *testing.T, name string, raw int64, minVRAM, minTps float64, eff int, quant string, kv bool, driver uint8, count int, override string) {
		m := catalog.Model{Name: name, ParametersRaw: raw, ParameterCount: "7.0B", MinRAMGB: 8, MinVRAMGB: minVRAM, HasMinVRAM: minVRAM != 0,
			Quantization: "Q4_K_M", ContextLength: 4096, Layers: 32, KVHeads: 8, HeadDim: 128}
		if raw%3 == 0 { // some entries without architecture
			m.Layers, m.KVHeads, m.HeadDim = 0, 0, 0
		}
		tg := target.Default()
		tg.MinTps, tg.EfficiencyPct, tg.Quant, tg.Count, tg.Name = minTps, eff, quant, count, override
		tg.Driver = fit.DriverNames()[int(driver)%len(fit.DriverNames())]
		if kv {
			tg.Sizing = "kv"
		}
		r, err := renderModel(m, tg, "9.9.9-fuzz")
		if err != nil {
			requireFieldError(t, err)
			return
		}
		checkRendered(t, r)
		if override != "" && r.Name != override {
			t.Fatalf("override %q ignored: %q", override, r.Name)
		}
		if override == "" && r.Name != DeriveName(name) {
			t.Fatalf("derived %q, want %q", r.Name, DeriveName(name))
		}
	})
}

// FuzzParsePermalink reads arbitrary fragments: never a panic; errors are FieldErrors; a parsed
// target renders or fails with a FieldError, and its permalink reads back as the same target.
func FuzzParsePermalink(f *testing.F) {
	for _, s := range []string{
		"", "#", "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=32768&drv=nvidia",
		"p=405&drv=any&n=2&tpl=1", "p=100&ap=10&L=48&kvh=8&hd=128&s=kv&seq=8&kv=q4_0",
		"m=%zz", "tps=1&tps=2", "v=2", "foo=bar", "eff=55.5", "name=123&dc=true&p=7",
		"tps=-0&p=-0", "m=a+b%2Bc&q=q8_0", "p=1e-300&s=kv", "ctx=2147483648", "n=8&drv=nvidia&p=7",
		// Architecture overrides and serving formats (fit/kvcache.go, fit/formats.go).
		"m=openai%2Fgpt-oss-120b&s=kv&ctx=131072&sw=4096&sl=36&L=36",
		"p=671&s=kv&att=mla&L=61&klr=512&qkr=64&ne=256&nept=8&q=FP8",
		"m=Qwen%2FQwen3-Next-80B-A3B-Instruct&s=kv&att=hybrid&fal=48&q=NVFP4",
		"m=deepseek-ai%2FDeepSeek-R1&s=kv&att=gqa&engine=vllm",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, frag string) {
		tg, errs := target.ParsePermalinkPartial(frag)
		for _, e := range errs {
			requireFieldError(t, e)
		}
		tg1, err := target.ParsePermalink(frag)
		if (err != nil) != (len(errs) > 0) || !reflect.DeepEqual(tg1, tg) {
			t.Fatalf("ParsePermalink and ParsePermalinkPartial disagree: %v vs %v", err, errs)
		}
		// Whatever was read, its permalink reads back as the same target.
		link := target.Permalink(tg)
		back, err := target.ParsePermalink(link)
		if err != nil || !reflect.DeepEqual(back, tg) {
			t.Fatalf("Permalink(%+v) = %q reads back as %+v, %v", tg, link, back, err)
		}
		if len(errs) > 0 {
			return
		}
		// A model that is not an exact catalog name would cost a full edit-distance scan for
		// suggestions (tens of ms; catalog tests cover Lookup): render it as an entry of its own.
		var r Result
		if _, known := catalogNames()[tg.Model]; tg.Model == "" || known {
			r, err = Render(tg)
		} else {
			m := testModel7B
			m.Name = tg.Model
			r, err = renderModel(m, tg, "9.9.9-fuzz")
		}
		if err != nil {
			requireFieldError(t, err)
			return
		}
		checkRendered(t, r)
	})
}

var (
	namesOnce sync.Once
	names     map[string]struct{}
)

func catalogNames() map[string]struct{} {
	namesOnce.Do(func() {
		names = map[string]struct{}{}
		for _, m := range catalog.Models() {
			names[m.Name] = struct{}{}
		}
	})
	return names
}

// FuzzNameOverride: an override is accepted exactly when it is a DNS-1123 subdomain (with
// labels of at most 63), and then it is the claim's name, read back as that string.
func FuzzNameOverride(f *testing.F) {
	for _, s := range []string{"", "a", "my-claim.v1", "My-Claim", "a..b", "-a", "a-", "123", "true", "null", "2001-12-14",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 126) + "a", "a\nb", "é", "a_b", "0x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		r, err := renderModel(testModel7B, target.Target{MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1,
			KVCache: "fp16", Driver: "llmfit", Count: 1, Name: name}, "9.9.9-fuzz")
		valid := validSubdomain(name) // Kubernetes' rule: no 63-character limit on a part
		switch {
		case name == "":
			if err != nil || r.Name != "test-model-7b-fit" {
				t.Fatalf("empty override: %q, %v", r.Name, err)
			}
		case err != nil:
			if fe := requireFieldError(t, err); fe.Field != "name" {
				t.Fatalf("error on %s, want name", fe.Field)
			}
			if valid {
				t.Fatalf("valid name %q rejected: %v", name, err)
			}
		default:
			if !valid {
				t.Fatalf("invalid name %q accepted", name)
			}
			if r.Name != name {
				t.Fatalf("name %q, want %q", r.Name, name)
			}
		}
		if err == nil {
			checkRendered(t, r)
		}
	})
}
