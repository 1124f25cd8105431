package target

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// oldCheckTogether is checkTogether and checkEngine as they were, looking every row up by name
// on each call, which checkTogether must agree with.
func oldCheckTogether(t *Target) error {
	params := field("paramsB")
	if t.Model != "" && t.ParamsB != 0 {
		return params.Err("give either a catalog model or a custom model's " + params.Label + ", not both")
	}
	if strings.TrimSpace(t.Model) == "" && t.ParamsB == 0 {
		return field("model").Err("choose a catalog model, or give " + params.Ref() + ", in billions, for a custom one") // since the fourteenth session: with its key
	}
	custom := t.Model == ""
	arch := []*Field{field("layers"), field("kvHeads"), field("headDim")}
	var missing []*Field
	for _, f := range arch {
		if *f.integer(t) == 0 {
			missing = append(missing, f)
		}
	}
	if custom && t.Attention != "mla" && len(missing) != 0 && len(missing) != len(arch) {
		return missing[0].Err(arch[0].Ref() + ", " + arch[1].Ref() + " and " + arch[2].Ref() + " go together: give all three or none")
	}
	for _, pair := range [][2]string{{"slidingLayers", "layers"}, {"fullAttentionLayers", "layers"}, {"csaLayers", "layers"}, {"hcaLayers", "layers"}, {"expertsPerToken", "experts"}} {
		part, whole := field(pair[0]), field(pair[1])
		if p, w := *part.integer(t), *whole.integer(t); w != 0 && p > w {
			return part.Err("must be at most " + whole.Label + " (" + strconv.Itoa(w) + ") (got " + strconv.Itoa(p) + ")")
		}
	}
	if active := field("activeParamsB"); t.ActiveParamsB != 0 {
		if !custom {
			return active.Err("describes a custom model, given by " + params.Ref() + "; a catalog model brings its own")
		}
		if t.ActiveParamsB > t.ParamsB {
			return active.Err("must be at most the model's " + params.Label + " (" + Num(t.ParamsB) + " billion) (got " + strconv.FormatFloat(t.ActiveParamsB, 'g', -1, 64) + ")")
		}
	}
	if t.CapacityName == CapacityQualified && !t.CapacityRequest {
		return field("capacityName").Err("names the capacity a capacity request asks for: set " + field("capacityRequest").Label + " (capacityRequest, cap=1) too, or leave it out")
	}
	if t.Engine != EngineLlamaCpp {
		return nil
	}
	for _, name := range []string{"gpuMemoryUtilization", "maxNumSeqs", "maxNumBatchedTokens"} {
		f := field(name)
		if f.Get(t) != "0" {
			return f.Err("is vLLM's argument: set " + field("engine").Ref() + " to " + EngineVLLM + ", or leave it out")
		}
	}
	return nil
}

// TestCheckTogetherIsByName: every rule of checkTogether, each met and broken, over targets
// set through the field table; the same error (or none) as the old lookups by name.
func TestCheckTogetherIsByName(t *testing.T) {
	edits := [][]string{
		nil,
		{"model", ""},
		{"model", "   "},
		{"model", "", "paramsB", "7"},
		{"paramsB", "7"},
		{"model", "", "paramsB", "70", "layers", "80"},
		{"model", "", "paramsB", "70", "layers", "80", "kvHeads", "8"},
		{"model", "", "paramsB", "70", "layers", "80", "kvHeads", "8", "headDim", "128"},
		{"model", "", "paramsB", "70", "kvHeads", "8", "attention", "mla"},
		{"layers", "32"},
		{"layers", "32", "slidingLayers", "40"},
		{"layers", "32", "slidingLayers", "16"},
		{"layers", "32", "fullAttentionLayers", "33"},
		{"layers", "32", "csaLayers", "33"},
		{"layers", "32", "hcaLayers", "33"},
		{"slidingLayers", "40"},
		{"experts", "8", "expertsPerToken", "9"},
		{"experts", "8", "expertsPerToken", "2"},
		{"activeParamsB", "3"},
		{"model", "", "paramsB", "30", "activeParamsB", "3"},
		{"model", "", "paramsB", "30", "activeParamsB", "31"},
		{"capacityName", CapacityQualified},
		{"capacityName", CapacityQualified, "capacityRequest", "1"},
		{"engine", EngineLlamaCpp},
		{"engine", EngineLlamaCpp, "gpuMemoryUtilization", "0.8"},
		{"engine", EngineLlamaCpp, "maxNumSeqs", "8"},
		{"engine", EngineLlamaCpp, "maxNumBatchedTokens", "4096"},
		{"engine", EngineVLLM, "maxNumSeqs", "8"},
	}
	broken := 0
	for _, edit := range edits {
		tg := Default()
		tg.Model = "Qwen/Qwen2.5-7B-Instruct"
		for i := 0; i+1 < len(edit); i += 2 {
			if err := field(edit[i]).Set(&tg, edit[i+1]); err != nil {
				t.Fatalf("%v: setting %s: %v", edit, edit[i], err)
			}
		}
		got, want := tg.checkTogether(), oldCheckTogether(&tg)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: %v, want %v", edit, got, want)
		}
		if want != nil {
			broken++
		}
	}
	if broken < 15 {
		t.Errorf("only %d of the %d targets broke a rule: the rules are not all compared", broken, len(edits))
	}
}
