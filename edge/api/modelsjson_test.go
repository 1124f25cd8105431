package api

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
)

// TestModelsJSONIsMarshal: the hand-written models JSON is json.Marshal's, byte for byte, for
// every catalog model (each one's summary as the search gives it), a list of all of them, the
// empty list, and numbers at the edges of encoding/json's formats; text it does not cover
// (escapes, HTML characters, non-finite numbers) is left to json.Marshal.
func TestModelsJSONIsMarshal(t *testing.T) {
	var all []claim.ModelSummary
	for _, name := range catalog.Names() {
		i := slices.IndexFunc(claim.SearchModels(name, 100), func(m claim.ModelSummary) bool { return m.Name == name })
		if i < 0 {
			t.Fatalf("searching %q does not find it", name)
		}
		all = append(all, claim.SearchModels(name, 100)[i])
	}
	odd := []claim.ModelSummary{{Name: "a", ParamsB: 1e-7}, {ParamsB: 1e21}, {ParamsB: 123456789e13}, {ParamsB: -0.5e-6}, {ParamsB: 0.000001}, {ParamsB: 1e20}, {ParamsB: 5e-324}, {ParamsB: math.MaxFloat64}}
	lists := [][]claim.ModelSummary{{}, all, odd}
	for _, m := range all {
		lists = append(lists, []claim.ModelSummary{m})
	}
	for _, list := range lists {
		want, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := modelsJSON(list)
		if !ok || got != string(want)+"\n" {
			t.Fatalf("modelsJSON(%d models) = %q, %v; json.Marshal gives %q", len(list), got, ok, want)
		}
	}
	if _, ok := modelsJSON(nil); ok {
		t.Error("modelsJSON(nil) is not left to json.Marshal (null)")
	}
	for _, m := range []claim.ModelSummary{{Name: "a<b"}, {Name: `a"b`}, {Quant: "é"}, {Name: "a\nb"}, {ParamsB: math.NaN()}, {ParamsB: math.Inf(1)}} {
		if _, ok := modelsJSON([]claim.ModelSummary{m}); ok {
			t.Errorf("modelsJSON(%+v) is not left to json.Marshal", m)
		}
	}
}
