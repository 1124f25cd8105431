package claim

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// ModelSummary is a catalog entry as a type-ahead picker and the models API show it.
type ModelSummary struct {
	Name          string  `json:"name"`
	ParamsB       float64 `json:"paramsB"`
	Quant         string  `json:"quant"`
	ContextLength int     `json:"contextLength"`
	MoE           bool    `json:"moe"`
}

// SearchModels is catalog.Search, summarised. The context is the model's real maximum
// (fit.ArchitectureOf: architectures.csv's, else the catalog's): llmfit's catalog multiplies it
// by the RoPE factor or holds a 4,096 placeholder for gated repositories.
func SearchModels(query string, limit int) []ModelSummary {
	all := catalog.Models()
	found := catalog.SearchIndexes(query, limit) // read in place, not copied out (SearchIndexes)
	out := make([]ModelSummary, len(found))
	for k, i := range found {
		m := &all[i]
		out[k] = ModelSummary{Name: m.Name, ParamsB: fit.ParamsB(m), Quant: m.Quantization, ContextLength: fit.ArchitectureOf(m).MaxContext, MoE: m.MoE}
	}
	return out
}

// MaxModelsQuery bounds the search text as the engine bounds a model name (the page's model
// input, whose text is the page's search, takes no more).
const MaxModelsQuery = target.MaxModelQuery

// ModelsQueryError is the error about a search text over MaxModelsQuery characters (nil when
// it is not), spelled "must be at most 300 characters (got N)": the API's q and the command
// line's QUERY say it.
func ModelsQueryError(query string) string {
	if len(query) <= MaxModelsQuery {
		return ""
	}
	if n := utf8.RuneCountInString(query); n > MaxModelsQuery {
		return "must be at most " + strconv.Itoa(MaxModelsQuery) + " characters (got " + strconv.Itoa(n) + ")"
	}
	return ""
}

// ModelsLimit checks the search's limit given as a number (the bridge's).
func ModelsLimit(x float64) (int, error) {
	if x != math.Trunc(x) || x < 1 || x > target.MaxListLimit {
		return 0, target.ListLimitError(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return int(x), nil
}

// ParseModelsLimit checks the search's limit given as text (the API's and the command line's).
func ParseModelsLimit(s string) (int, error) {
	n, ok := target.ParseWhole(s) // as a link's whole numbers: "1e2" is the page's 100
	if !ok || n < 1 || n > target.MaxListLimit {
		return 0, target.ListLimitError(target.QuoteShort(s))
	}
	return n, nil
}
