package estimate

import (
	"errors"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/target"
)

// Fitting answers "which popular catalog models run on this device?" for a query of the device
// keys, the count (n) and limit (1..100, 20 by default); any other key is refused.
func Fitting(raw string) ([]fit.ModelFit, error) {
	limit, limits := target.DefaultListLimit, 0
	// The pairs other than limit and the empty ones, joined by '&' as they came (a slice of
	// every pair was 16,385 strings for 16 KiB of '&').
	rest := make([]byte, 0, len(raw))
	first := true
	unknown, hasUnknown := "", false
	for pair := range strings.SplitSeq(strings.TrimPrefix(raw, "#"), "&") {
		if pair == "" {
			continue // the permalink codec skips it too
		}
		k, v, _ := strings.Cut(pair, "=")
		// The key and the value decoded as the permalink codec decodes them: limit=%32 was
		// refused as "%32", and a key the codec cannot decode is its to refuse.
		key, err := target.QueryUnescape(k)
		if err == nil && key != "limit" && key != target.FormatKey {
			if _, known := target.ByKey(key); !known && (!hasUnknown || key < unknown) {
				unknown, hasUnknown = key, true
			}
		}
		if err != nil || key != "limit" {
			if !first {
				rest = append(rest, '&')
			}
			rest, first = append(rest, pair...), false
			continue
		}
		if limits++; limits > 1 { // the last one silently, as no other key is read
			continue
		}
		value, err := target.QueryUnescape(v)
		if err != nil {
			return nil, target.BadEscapeError(pair)
		}
		n, ok := target.ParseWhole(value)
		if !ok || n < 1 || n > target.MaxListLimit {
			return nil, target.ListLimitError(target.QuoteShort(value))
		}
		limit = n
	}
	if limits > 1 {
		return nil, &target.FieldError{Field: "limit", Msg: "given " + strconv.Itoa(limits) + " times; give it once"}
	}
	t, err := target.ParsePermalink(string(rest))
	if fe, ok := errors.AsType[*target.FieldError](err); ok && hasUnknown && fe.Field == "query" && strings.HasPrefix(fe.Msg, "unknown key ") {
		return nil, fittingKeyError(unknown) // named with this route's keys, not every key of a link
	}
	if err != nil {
		return nil, err
	}
	def := target.Default()
	for i := range target.Fields {
		f := &target.Fields[i]
		if !f.Same(&t, &def) && f.Name != "count" && !f.Device {
			return nil, fittingKeyError(f.Key)
		}
	}
	return fit.FittingModels(fit.DeviceOf(&t), t.Count, limit)
}

// fittingKeyError refuses a key the fitting list does not read.
func fittingKeyError(key string) error {
	fields := append(DeviceKeys[:len(DeviceKeys):len(DeviceKeys)], "n")
	keys := append(fields[:len(fields):len(fields)], "limit")
	return &target.FieldError{Field: "query", Msg: "unknown key " + target.QuoteShort(key) + target.MeantKey(key, keys, fields) + "; known keys: " +
		strings.Join(keys, ", ")}
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
		w.Num(fit.RoundSpeed(m.TokensPerSecond, 0)) // no target: the models at their defaults
		w.Key("maxContextTokens")
		w.Int(m.MaxContextTokens)
		w.EndObject()
	}
	w.EndArray()
	return w.Finish() // the text itself, not a copy: w is not written again
}
