package estimate

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// Fitting answers "which popular catalog models run on this device?" for a query of the device
// keys, the count (n) and limit (1..100, 20 by default); any other key is refused.
func Fitting(raw string) ([]fit.ModelFit, error) {
	dev := claim.Values{}
	count, limit := 1, fit.DefaultFittingLimit
	for _, pair := range strings.Split(strings.TrimPrefix(raw, "#"), "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err1 := unescape(k)
		value, err2 := unescape(val)
		if err1 != nil || err2 != nil {
			return nil, &fit.FieldError{Field: "query", Msg: "invalid percent-encoding in " + strconv.Quote(pair)}
		}
		switch {
		case isDeviceKey(key):
			dev[key] = append(dev[key], value)
		case key == fit.Keys["count"] || key == "limit":
			n, err := strconv.Atoi(strings.TrimSpace(value))
			field := "count"
			if key == "limit" {
				field = "limit"
			}
			if err != nil {
				return nil, fit.NewFieldError(field, "must be a whole number (got "+strconv.Quote(value)+")")
			}
			if key == "limit" {
				limit = n
			} else {
				count = n
			}
		default:
			return nil, &fit.FieldError{Field: "query", Msg: "unknown key " + strconv.Quote(key) + "; known keys: " +
				strings.Join(DeviceKeys, ", ") + ", " + fit.Keys["count"] + ", limit"}
		}
	}
	_, d, err := ParseQuery(dev)
	if err != nil {
		return nil, err
	}
	return fit.FittingModels(d, count, limit)
}

// FittingJSON is the list as [{name, paramsB, quant, moe, needGiB, tokensPerSecond,
// maxContextTokens}], most downloaded first.
func FittingJSON(list []fit.ModelFit) string {
	var w jsontext.Writer
	w.BeginArray()
	for _, m := range list {
		w.BeginObject()
		w.Key("name")
		w.Str(m.Name)
		w.Key("paramsB")
		w.Num(round(m.ParamsB, 3))
		w.Key("quant")
		w.Str(m.Quant)
		w.Key("moe")
		w.Bool(m.MoE)
		w.Key("needGiB")
		w.Num(round(m.NeedGiB, 2))
		w.Key("tokensPerSecond")
		w.Num(round(m.TokensPerSecond, 1))
		w.Key("maxContextTokens")
		w.Int(m.MaxContextTokens)
		w.EndObject()
	}
	w.EndArray()
	return w.String()
}
