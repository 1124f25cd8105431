package claim

import (
	"math"
	"strconv"
	"strings"

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
	found := catalog.Search(query, limit)
	out := make([]ModelSummary, len(found))
	for i := range found {
		m := &found[i]
		out[i] = ModelSummary{Name: m.Name, ParamsB: fit.ParamsB(m), Quant: m.Quantization, ContextLength: fit.ArchitectureOf(m).MaxContext, MoE: m.MoE}
	}
	return out
}

// The catalog search's limit, read alike by the API (text), the bridge (a JS number) and the
// command line.
const (
	DefaultModelsLimit = 20
	MaxModelsLimit     = 100 // catalog.Search's own cap
)

// ModelsLimit checks a limit given as a number.
func ModelsLimit(x float64) (int, error) {
	if x != math.Trunc(x) || x < 1 || x > MaxModelsLimit {
		return 0, limitError(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return int(x), nil
}

// ParseModelsLimit checks a limit given as text.
func ParseModelsLimit(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > MaxModelsLimit {
		return 0, limitError(target.QuoteShort(s))
	}
	return n, nil
}

func limitError(got string) *target.FieldError {
	return &target.FieldError{Field: "limit", Msg: "must be a whole number from 1 to " + strconv.Itoa(MaxModelsLimit) + " (got " + got + ")"}
}
