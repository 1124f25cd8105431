package bridge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

func TestTargetFromObjectTypes(t *testing.T) {
	got, err := TargetFromObject(map[string]Value{
		"model":         {Type: "string", Str: "NousResearch/Llama-2-7b-chat-hf"},
		"minTps":        {Type: "number", Num: 30},
		"efficiencyPct": {Type: "string", Str: "60"}, // as typed into a form
		"template":      {Type: "boolean", Bool: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != "NousResearch/Llama-2-7b-chat-hf" || got.MinTps != 30 || got.EfficiencyPct != 60 || !got.Template {
		t.Fatalf("target = %+v", got)
	}
	if claim.Permalink(got) != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60&tpl=1" {
		t.Fatalf("permalink = %s", claim.Permalink(got))
	}
}

func TestTargetFromObjectErrors(t *testing.T) {
	cases := []struct {
		obj  map[string]Value
		want string
	}{
		{map[string]Value{"minTps": {Type: "boolean", Bool: true}}, "Target decode speed (minTps, tps): must be a number (got a boolean)"},
		{map[string]Value{"model": {Type: "number", Num: 3}}, "Model (model, m): must be a string (got a number)"},
		{map[string]Value{"template": {Type: "string", Str: "maybe"}}, "Template (template, tpl): must be 1 or 0"},
		{map[string]Value{"efficiencyPct": {Type: "number", Num: 55.5}}, "Bandwidth efficiency (efficiencyPct, eff): must be a whole number"},
		{map[string]Value{"minTps": {Type: "string", Str: "fast"}}, "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s"},
		{map[string]Value{"color": {Type: "string", Str: "red"}}, `target: unknown key "color"`},
		{map[string]Value{"paramsB": {Type: "object"}}, "Parameters (paramsB, p): must be a number (got a object)"},
	}
	for _, c := range cases {
		_, err := TargetFromObject(c.obj)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.obj, err, c.want)
		}
	}
}

func TestResultViewMatchesEngine(t *testing.T) {
	target := fit.DefaultTarget()
	target.Model = "meta-llama/Llama-3.1-8B-Instruct"
	r, err := claim.Render(target)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(ResultJSON(target, r)), &v); err != nil {
		t.Fatal(err)
	}
	if v["yaml"] != r.YAML || v["json"] != r.JSON {
		t.Fatal("view must carry the engine's exact texts")
	}
	b := v["bounds"].(map[string]any)
	if b["memoryGi"] != float64(r.Bounds.MemoryGi) || b["minBandwidthGBs"] != float64(r.Bounds.MinBandwidthGBs) || b["claimName"] != "meta-llama-llama-3-1-8b-instruct-fit" {
		t.Fatalf("bounds = %v", b)
	}
	if n := len(v["matches"].([]any)); n != 36 {
		t.Fatalf("%d matches, want every accelerator (36)", n)
	}
}

func TestTargetViewOnlyNonDefaults(t *testing.T) {
	target := fit.DefaultTarget()
	target.Model, target.MinTps = "x", 30
	v := TargetView(target)
	if len(v) != 2 || v["model"] != "x" || v["minTps"] != 30.0 {
		t.Fatalf("view = %v", v)
	}
}

func TestModelsView(t *testing.T) {
	var v []map[string]any
	if err := json.Unmarshal([]byte(ModelsJSON("Llama-2-7b-chat-hf", 5)), &v); err != nil {
		t.Fatal(err)
	}
	if len(v) == 0 || v[0]["name"] == "" || v[0]["paramsB"] == nil {
		t.Fatalf("models = %v", v)
	}
	info := Info()
	if info["catalog"].(map[string]any)["models"] != 1852 {
		t.Fatalf("info = %v", info)
	}
}

// fields() hands the page the table: labels, defaults and ranges as the engine checks them.
func TestFieldsJSON(t *testing.T) {
	var fields []struct {
		Name, Key, Label, Kind string
		Default                any
		Min, Max               float64
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
	if eff.Key != "eff" || eff.Label != "Bandwidth efficiency" || eff.Kind != "integer" || eff.Default != 55.0 || eff.Min != 1 || eff.Max != 100 {
		t.Errorf("efficiencyPct: %+v", eff)
	}
	if d := fields[byName["driver"]]; d.Default != "llmfit" || strings.Join(d.Choices, " ") != "llmfit nvidia amd intel any" {
		t.Errorf("driver: %+v", d)
	}
	if tpl := fields[byName["template"]]; tpl.Kind != "boolean" || tpl.Default != false {
		t.Errorf("template: %+v", tpl)
	}
}
