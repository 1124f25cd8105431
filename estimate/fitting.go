package estimate

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/target"
)

// Fitting answers "which popular catalog models run on this device?" for a query of the device
// keys, the count (n) and limit (1..100, 20 by default); any other key is refused.
func Fitting(raw string) ([]fit.ModelFit, error) {
	limit := target.DefaultListLimit
	// The pairs other than limit and the empty ones, joined by '&' as they came (a slice of
	// every pair was 16,385 strings for 16 KiB of '&').
	rest := make([]byte, 0, len(raw))
	first := true
	for pair := range strings.SplitSeq(strings.TrimPrefix(raw, "#"), "&") {
		if pair == "" {
			continue // the permalink codec skips it too
		}
		k, v, _ := strings.Cut(pair, "=")
		if k != "limit" {
			if !first {
				rest = append(rest, '&')
			}
			rest, first = append(rest, pair...), false
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return nil, target.ListLimitError(target.QuoteShort(v))
		}
		limit = n
	}
	t, err := target.ParsePermalink(string(rest))
	if err != nil {
		return nil, err
	}
	def := target.Default()
	for i := range target.Fields {
		f := &target.Fields[i]
		if !f.Same(&t, &def) && f.Name != "count" && !f.Device {
			return nil, &target.FieldError{Field: "query", Msg: "unknown key " + strconv.Quote(f.Key) + "; known keys: " +
				strings.Join(DeviceKeys, ", ") + ", n, limit"}
		}
	}
	return fit.FittingModels(fit.DeviceOf(&t), t.Count, limit)
}

// FittingJSON is the list as [{name, paramsB, quant, moe, needGiB, tokensPerSecond,
// maxContextTokens}], most downloaded first.
func FittingJSON(list []fit.ModelFit) string {
	var w jsontext.Writer
	w.Grow(2 + 160*len(list)) // an entry is 120-150 bytes: grown once, not doubled up from 8 as it is written
	w.BeginArray()
	for _, m := range list {
		w.BeginObject()
		w.Key("name")
		w.Str(m.Name)
		w.Key("paramsB")
		w.Num(jsontext.Round(m.ParamsB, 3))
		w.Key("quant")
		w.Str(m.Quant)
		w.Key("moe")
		w.Bool(m.MoE)
		w.Key("needGiB")
		w.Num(jsontext.Round(m.NeedGiB, 2))
		w.Key("tokensPerSecond")
		w.Num(jsontext.Round(m.TokensPerSecond, 1))
		w.Key("maxContextTokens")
		w.Int(m.MaxContextTokens)
		w.EndObject()
	}
	w.EndArray()
	return w.Finish() // the text itself, not a copy: w is not written again
}
