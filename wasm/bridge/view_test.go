package bridge

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

func TestTargetFromObjectTypes(t *testing.T) {
	got, err := TargetFromObject(map[string]Value{
		"model":         {Type: "string", Str: "NousResearch/Llama-2-7b-chat-hf"},
		"minTps":        {Type: "number", Num: 30},
		"efficiencyPct": {Type: "number", Num: 60},
		"template":      {Type: "boolean", Bool: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "NousResearch/Llama-2-7b-chat-hf" || got.MinTps != 30 || got.EfficiencyPct != 60 || !got.Template {
		t.Fatalf("target = %+v", got)
	}
	if p := target.Permalink(got); p != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60&tpl=1" {
		t.Fatalf("permalink = %s", p)
	}
	// Numbers cross as they are: no rounding on the way in.
	got, err = TargetFromObject(map[string]Value{"paramsB": {Type: "number", Num: 6.738417664}, "minTps": {Type: "number", Num: 0.30000000000000004}})
	if err != nil || got.ParamsB != 6.738417664 || got.MinTps != 0.30000000000000004 {
		t.Fatalf("%+v %v", got, err)
	}
}

// A value of the wrong JS type is refused, naming the field and the type it wants, even when
// its text would parse ("55" for a number, "yes" for a boolean).
func TestTargetFromObjectErrors(t *testing.T) {
	cases := []struct {
		obj  map[string]Value
		want string
	}{
		{map[string]Value{"efficiencyPct": {Type: "string", Str: "55"}}, `Bandwidth efficiency (efficiencyPct, eff): must be of type number (a whole one), not string (got "55")`},
		{map[string]Value{"template": {Type: "string", Str: "yes"}}, `Template (template, tpl): must be of type boolean, not string (got "yes")`},
		{map[string]Value{"minTps": {Type: "string", Str: "30"}}, `Target decode speed (minTps, tps): must be of type number, not string (got "30")`},
		{map[string]Value{"paramsB": {Type: "string", Str: "7"}}, `Parameters (paramsB, p): must be of type number, not string (got "7")`},
		{map[string]Value{"template": {Type: "number", Num: 1}}, `Template (template, tpl): must be of type boolean, not number (got 1)`},
		{map[string]Value{"minTps": {Type: "boolean", Bool: true}}, `Target decode speed (minTps, tps): must be of type number, not boolean (got true)`},
		{map[string]Value{"model": {Type: "number", Num: 3}}, `Model (model, m): must be of type string, not number (got 3)`},
		{map[string]Value{"paramsB": {Type: "object"}}, `Parameters (paramsB, p): must be of type number, not object`},
		{map[string]Value{"count": {Type: "bigint"}}, `Devices (count, n): must be of type number (a whole one), not bigint`},
		{map[string]Value{"efficiencyPct": {Type: "number", Num: 55.5}}, "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got 55.5)"},
		{map[string]Value{"count": {Type: "number", Num: 1e300}}, "Devices (count, n): must be a whole number from 1 to 8 devices (got 1e+300)"},
		{map[string]Value{"model": {Type: "string", Str: strings.Repeat("x", 5000)}}, "Model (model, m): must be at most 300 characters (got 5000)"},
		// Characters, not bytes: 2,000 of 模 are 6,000 bytes, over the bridge's bound.
		{map[string]Value{"model": {Type: "string", Str: strings.Repeat("模", 2000)}}, "Model (model, m): must be at most 300 characters (got 2000)"},
		{map[string]Value{"color": {Type: "string", Str: "red"}}, `target: unknown key "color"; known keys: model, paramsB, quant,`},
	}
	for _, c := range cases {
		_, err := TargetFromObject(c.obj)
		var fe *target.FieldError
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.60v: error %v, want %q", c.obj, err, c.want)
		}
	}
}

func TestResultView(t *testing.T) {
	tg, r := renderLink(t, "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60")
	var v struct {
		YAML, JSON, Permalink string
		Bounds                map[string]any
		Matches               []map[string]any
		Explain               struct {
			Summary, Verdict string
			Split            *struct{ Count int }
			Lines            []struct{ Label, Text string }
		}
	}
	if err := json.Unmarshal([]byte(ResultJSON(tg, r)), &v); err != nil {
		t.Fatal(err)
	}
	if v.YAML != r.YAML || v.JSON != r.JSON || v.Permalink != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" {
		t.Fatal("the view must carry the engine's exact texts and the link as asked")
	}
	// 6,738,417,664 parameters, unrounded; × 0.58 (Q4_K_M) = 3.90828224512 GB; memory max(3.5,
	// 3.908) → 4 Gi; bandwidth ceil(30 × 3.90828224512 × 100 / 60) = ceil(195.41) = 196 GB/s.
	b := v.Bounds
	if b["paramsB"] != 6.738417664 || b["bytesPerParam"] != 0.58 || b["memoryGi"] != 4.0 || b["minBandwidthGBs"] != 196.0 ||
		b["claimName"] != "nousresearch-llama-2-7b-chat-hf-fit" || b["deviceClass"] != "llmfit.ai" {
		t.Errorf("bounds = %v", b)
	}
	if w := b["weightsGb"].(float64); w < 3.90828224511 || w > 3.90828224513 {
		t.Errorf("weightsGb %v, want 3.90828224512 unrounded", w)
	}
	if n := len(v.Matches); n != len(catalog.Accelerators()) {
		t.Errorf("%d matches, want every accelerator (%d)", n, len(catalog.Accelerators()))
	}
	if v.Explain.Summary != "ResourceClaim nousresearch-llama-2-7b-chat-hf-fit: a device with ≥ 4 Gi of memory and ≥ 196 GB/s of bandwidth, from device class llmfit.ai." ||
		v.Explain.Split != nil || len(v.Explain.Lines) != 3 || v.Explain.Lines[2].Label != "Memory floor" ||
		!strings.HasSuffix(v.Explain.Verdict, "catalog accelerators meet both floors.") {
		t.Errorf("explain = %+v", v.Explain)
	}
}

func TestRepairView(t *testing.T) {
	var v struct {
		Target    map[string]any
		Permalink string
		Dropped   []struct{ Pair, Field, Key, Label, Message string }
		Message   string
	}
	if err := json.Unmarshal([]byte(RepairJSON("#m=x&eff=500&garbage&tps=31.5")), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Target) != 2 || v.Target["model"] != "x" || v.Target["minTps"] != 31.5 || v.Permalink != "m=x&tps=31.5" {
		t.Errorf("kept %v, %s", v.Target, v.Permalink)
	}
	if len(v.Dropped) != 2 || v.Dropped[0].Pair != "garbage" || v.Dropped[0].Field != "query" ||
		v.Dropped[1].Pair != "eff=500" || v.Dropped[1].Field != "efficiencyPct" || v.Dropped[1].Label != "Bandwidth efficiency" {
		t.Errorf("dropped %+v", v.Dropped)
	}
	if !strings.HasPrefix(v.Message, "This link has 2 parts that could not be used; the rest of it was kept.\n• “garbage”: query: unknown key") {
		t.Errorf("message %q", v.Message)
	}
}

func TestTargetViewOnlyNonDefaults(t *testing.T) {
	target := target.Default()
	target.Model, target.MinTps = "x", 30
	v := TargetView(target)
	if len(v) != 2 || v["model"] != "x" || v["minTps"] != 30.0 {
		t.Fatalf("view = %v", v)
	}
}

func TestModelsView(t *testing.T) {
	var v []map[string]any
	if err := json.Unmarshal([]byte(ModelsJSON("NousResearch/Llama-2-7b-chat-hf", 5)), &v); err != nil {
		t.Fatal(err)
	}
	// The catalog's parameters_raw 6,738,417,664, in billions and unrounded.
	if len(v) == 0 || v[0]["name"] != "NousResearch/Llama-2-7b-chat-hf" || v[0]["paramsB"] != 6.738417664 || v[0]["contextLength"] != 4096.0 {
		t.Fatalf("models = %v", v)
	}
	info := Info()
	if info["catalog"].(map[string]any)["models"] != len(catalog.Models()) {
		t.Fatalf("info = %v", info)
	}
}

// fields() hands the page the table: labels, defaults and ranges as the engine checks them.
func TestFieldsJSON(t *testing.T) {
	var fields []struct {
		Name, Key, Label, Kind string
		Default                any
		Min, Max               float64
		ZeroMeansDerived       bool
		Choices                []string
	}
	if err := json.Unmarshal([]byte(FieldsJSON()), &fields); err != nil {
		t.Fatal(err)
	}
	if len(fields) != len(target.Fields) {
		t.Fatalf("%d fields, the table has %d", len(fields), len(target.Fields))
	}
	byName := map[string]int{}
	for i, f := range fields {
		byName[f.Name] = i
	}
	eff := fields[byName["efficiencyPct"]]
	if eff.Key != "eff" || eff.Label != "Bandwidth efficiency" || eff.Kind != "integer" || eff.Default != 0.0 || eff.Min != 1 || eff.Max != 100 {
		t.Errorf("efficiencyPct: %+v", eff)
	}
	// A given 0 is the model's context, but a refused efficiency (0 there only means absent).
	if ctx := fields[byName["context"]]; !ctx.ZeroMeansDerived || eff.ZeroMeansDerived {
		t.Errorf("zeroMeansDerived: context %v (want true), efficiencyPct %v (want false)", ctx.ZeroMeansDerived, eff.ZeroMeansDerived)
	}
	if d := fields[byName["driver"]]; d.Default != "llmfit" || strings.Join(d.Choices, " ") != "llmfit nvidia amd intel any" {
		t.Errorf("driver: %+v", d)
	}
	if tpl := fields[byName["template"]]; tpl.Kind != "boolean" || tpl.Default != false {
		t.Errorf("template: %+v", tpl)
	}
}

// The page's render reuses one buffer: AppendResultJSON must write exactly ResultJSON's bytes
// after what the buffer holds, and a second, shorter render into the same buffer must leave
// nothing of the first behind.
func TestAppendResultJSONIsResultJSON(t *testing.T) {
	var buf []byte
	for _, model := range []string{"Qwen/Qwen3-30B-A3B-Instruct-2507", "NousResearch/Llama-2-7b-chat-hf"} {
		tg, r := renderLink(t, "m="+url.QueryEscape(model))
		want := ResultJSON(tg, r)
		buf = AppendResultJSON(buf[:0], tg, r)
		if string(buf) != want {
			t.Fatalf("%s: AppendResultJSON differs from ResultJSON (%d vs %d bytes)", model, len(buf), len(want))
		}
		if got := string(AppendResultJSON([]byte("x"), tg, r)); got != "x"+want {
			t.Fatalf("%s: AppendResultJSON did not append after the buffer's text", model)
		}
	}
}
