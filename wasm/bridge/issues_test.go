package bridge

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// Issue 3's bridge, in its words: `fitclaim.catalog` (date, number of models, number of
// accelerators); `fitclaim.models(query, limit)` → `[{name, paramsB, quant, contextLength, moe}]`;
// `fitclaim.render(target)` → `{yaml, json, bounds, matches, warnings}` (yaml and json exactly
// the command line's texts), the target's keys the JSON's camelCase names, absent keys llmfit's
// defaults; `fitclaim.permalink(target)` → the fragment (issue 3's example). Issue 12 § 4: a model
// named without its org "says which" among the warnings.
func TestIssue3Bridge(t *testing.T) {
	info := Info()
	cat, _ := info["catalog"].(map[string]any)
	if info["version"] != claim.Version || cat["date"] != catalog.Date || cat["models"] != catalog.ModelCount() || cat["accelerators"] != catalog.AcceleratorCount() {
		t.Errorf("info = %v", info)
	}
	var models []map[string]any
	if err := json.Unmarshal([]byte(ModelsJSON("qwen3", 3)), &models); err != nil || len(models) != 3 {
		t.Fatalf("models: %v %v", err, models)
	}
	for _, m := range models {
		keys := slices.Sorted(maps.Keys(m))
		if !slices.Equal(keys, []string{"contextLength", "moe", "name", "paramsB", "quant"}) {
			t.Errorf("a model's keys: %v", keys)
		}
	}
	obj := map[string]Value{
		"model":         {Type: "string", Str: "NousResearch/Llama-2-7b-chat-hf"},
		"minTps":        {Type: "number", Num: 30},
		"efficiencyPct": {Type: "number", Num: 60},
	}
	tg, err := TargetFromObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Quant != "" || tg.Template || tg.Name != "" || tg.DeviceClass != "" || tg.ParamsB != 0 {
		t.Errorf("absent keys are not llmfit's defaults: %+v", tg)
	}
	if p := target.Permalink(tg); p != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" {
		t.Errorf("permalink %q, issue 3's example is #m=NousResearch%%2FLlama-2-7b-chat-hf&tps=30&eff=60", p)
	}
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal([]byte(ResultJSON(tg, r)), &res); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"yaml", "json", "bounds", "matches", "warnings"} {
		if _, ok := res[k]; !ok {
			t.Errorf("render's result lacks %s", k)
		}
	}
	var yaml, js string
	if json.Unmarshal(res["yaml"], &yaml) != nil || json.Unmarshal(res["json"], &js) != nil || yaml != r.YAML || js != r.JSON {
		t.Errorf("yaml and json are not the command line's texts")
	}
	for _, k := range []string{"model", "paramsB", "quant", "minTps", "efficiencyPct", "template", "name", "deviceClass"} {
		if _, ok := target.ByName(k); !ok {
			t.Errorf("the target key %s is gone", k)
		}
	}
	// a typed field given the wrong type names the field (issue 3: "a JS Error whose message names
	// the field and what is allowed"; issue 9: "efficiencyPct: \"55\"" and "template: \"yes\"")
	for k, v := range map[string]Value{"efficiencyPct": {Type: "string", Str: "55"}, "template": {Type: "string", Str: "yes"}, "minTps": {Type: "number", Num: -1}} {
		tg, err := TargetFromObject(map[string]Value{"model": {Type: "string", Str: "x"}, k: v})
		if err == nil {
			err = tg.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), "("+k+", ") {
			t.Errorf("%s = %+v: %v", k, v, err)
		}
	}
	tg, _ = TargetFromObject(map[string]Value{"model": {Type: "string", Str: "qwen3-8b"}})
	r, err = claim.Render(tg)
	if err != nil || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "took Qwen/Qwen3-8B") {
		t.Errorf("qwen3-8b: %v %q", err, r.Warnings)
	}
}
