// Package bridge is the JavaScript face of the engine: it type-checks what the page passes in,
// calls package claim, and shapes the answers as plain values. This file is pure Go, so the
// shapes are tested natively; js.go holds the few lines that touch syscall/js.
package bridge

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
)

// Value is one property of a JavaScript target object, as its type and value.
type Value struct {
	Type string // "string", "number", "boolean"; anything else is rejected
	Str  string
	Num  float64
	Bool bool
}

// TargetFromObject reads a target object (keys are the JSON's camelCase names). Absent keys
// keep llmfit's defaults; every value goes through the same parser as a permalink, so the page,
// the links and the API share one set of rules and messages.
func TargetFromObject(obj map[string]Value) (fit.Target, error) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := claim.FieldByName(k); !ok {
			return fit.Target{}, &fit.FieldError{Field: "target", Msg: "unknown key " + strconv.Quote(k) + "; known keys: " + knownNames()}
		}
	}
	t := fit.DefaultTarget()
	for _, f := range claim.Fields {
		v, ok := obj[f.Name]
		if !ok {
			continue
		}
		text, err := spell(f, v)
		if err != nil {
			return fit.Target{}, err
		}
		if err := f.Set(&t, text); err != nil {
			return fit.Target{}, err
		}
	}
	return t, nil
}

// spell turns a typed JS value into the field's text form, refusing the wrong type.
func spell(f claim.Field, v Value) (string, error) {
	want := map[claim.Kind]string{claim.KindString: "a string", claim.KindNumber: "a number", claim.KindInteger: "a whole number", claim.KindBool: "true or false"}[f.Kind]
	switch {
	case v.Type == "string" && len(v.Str) > 4096:
		return "", fit.NewFieldError(f.Name, "must be at most 4096 characters (got "+strconv.Itoa(len(v.Str))+")")
	case v.Type == "string":
		return v.Str, nil // numbers typed into a form arrive as text and parse like link values
	case v.Type == "number" && f.Kind != claim.KindString && f.Kind != claim.KindBool:
		if math.IsNaN(v.Num) || math.IsInf(v.Num, 0) {
			return "", fit.NewFieldError(f.Name, "must be a finite number (got "+strconv.FormatFloat(v.Num, 'g', -1, 64)+")")
		}
		return strconv.FormatFloat(v.Num, 'f', -1, 64), nil
	case v.Type == "boolean" && f.Kind == claim.KindBool:
		if v.Bool {
			return "1", nil
		}
		return "0", nil
	}
	return "", fit.NewFieldError(f.Name, "must be "+want+" (got a "+v.Type+")")
}

func knownNames() string {
	names := make([]string, len(claim.Fields))
	for i, f := range claim.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// TargetView is a target as a plain object holding only its non-default fields, so the page
// fills exactly what a link set.
func TargetView(t fit.Target) map[string]any {
	out := map[string]any{}
	q := claim.Query(t)
	for _, f := range claim.Fields {
		vals := q[f.Key]
		if len(vals) == 0 {
			continue
		}
		s := vals[0]
		switch f.Kind {
		case claim.KindNumber, claim.KindInteger:
			x, _ := strconv.ParseFloat(s, 64)
			out[f.Name] = x
		case claim.KindBool:
			out[f.Name] = s == "1"
		default:
			out[f.Name] = s
		}
	}
	return out
}

// ResultView is a render result as the page consumes it (docs/CONTRACT.md). The permalink spells
// the target as asked, not as resolved, so a link keeps "the model's own quantization".
func ResultView(asked fit.Target, r claim.Result) map[string]any {
	b := &r.Bounds
	t := &b.Target
	warnings := make([]any, len(r.Warnings))
	for i, w := range r.Warnings {
		warnings[i] = w
	}
	products := make([]any, len(b.Products))
	for i, p := range b.Products {
		products[i] = p
	}
	matches := make([]any, len(r.Matches))
	for i, m := range r.Matches {
		a := m.Accelerator
		matches[i] = map[string]any{
			"id": a.ID, "name": a.Name, "vendor": a.Vendor, "driver": a.Driver, "productName": a.ProductName,
			"memoryGiB": round(float64(a.MemoryMiB)/1024, 1), "memoryExact": a.MemoryExact, "bandwidthGBs": a.BandwidthGBs,
			"fitsMemory": m.FitsMemory, "fitsBandwidth": m.FitsBandwidth, "fits": m.Fits(), "selected": m.Selected,
			"estTps": round(m.EstTps, 1), "headroomPct": round(m.HeadroomPct, 0), "devicesNeeded": m.DevicesNeeded, "verdict": m.Verdict,
		}
	}
	permalink := claim.Permalink(asked)
	return map[string]any{
		"yaml": r.YAML, "json": r.JSON, "warnings": warnings, "matches": matches,
		"permalink": permalink, "apiQuery": permalink,
		"bounds": map[string]any{
			"model": b.Model.Name, "custom": b.Custom, "paramsB": round(b.ParamsB, 3), "activeParamsB": round(b.ActiveParamsB, 3),
			"quant": b.Quant, "quantOverride": b.QuantOverride, "bytesPerParam": b.BytesPerParam,
			"weightsGb": round(b.WeightsGB, 2), "memoryGb": round(b.MemoryGB, 2), "memoryGi": b.MemoryGi,
			"minBandwidthGBs": b.MinBandwidthGBs, "minTps": t.MinTps, "efficiencyPct": t.EfficiencyPct,
			"claimName": r.Name, "deviceClass": b.DeviceClass, "driver": t.Driver, "count": t.Count,
			"sizing": t.Sizing, "contextTokens": b.ContextTokens, "modelContext": b.Model.ContextLength, "sequences": t.Sequences,
			"kvCache": b.KVCache, "kvCacheGi": round(b.KVBytes/(1<<30), 3), "overheadGi": b.OverheadGiB,
			"kvEstimated": b.KVEstimated, "kvTokensRoom": b.KVTokensRoom, "readGbPerToken": round(b.ReadGBPerToken, 3),
			"productNames": products, "template": t.Template,
		},
	}
}

// ModelsView is the type-ahead list.
func ModelsView(query string, limit int) []any {
	found := claim.SearchModels(query, limit)
	out := make([]any, len(found))
	for i, m := range found {
		out[i] = map[string]any{"name": m.Name, "paramsB": round(m.ParamsB, 3), "quant": m.Quant, "contextLength": m.ContextLength, "moe": m.MoE}
	}
	return out
}

// Info is what the page shows before any render: versions, catalog size, option lists.
func Info() map[string]any {
	return map[string]any{
		"version": claim.Version,
		"catalog": map[string]any{"date": catalog.Date, "models": len(catalog.Models()), "accelerators": len(catalog.Accelerators())},
		"options": map[string]any{"quants": strs(fit.Quants()), "kvCaches": strs(fit.KVCaches()), "drivers": strs(fit.DriverNames())},
	}
}

func strs(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func round(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(x*p) / p
}
