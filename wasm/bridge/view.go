// Package bridge is the JavaScript face of the engine: it type-checks what the page passes in,
// calls package claim, and shapes the answers as plain values. This file is pure Go, so the
// shapes are tested natively; js.go holds the few lines that touch syscall/js.
package bridge

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/internal/smallsort"
	"github.com/fitclaim/fitclaim/target"
)

// Value is one property of a JavaScript target object, as its type and value.
type Value struct {
	Type string // "string", "number", "boolean"; anything else is rejected
	Str  string
	Num  float64
	Bool bool
}

// TargetFromObject reads a target object (keys are the JSON's camelCase names). Absent keys
// keep llmfit's defaults. It is strict: each value must be of its field's JS type (a number for
// minTps, true or false for template), and numbers cross as they are, unrounded; the ranges are
// checked by the same rules as links and the API.
func TargetFromObject(obj map[string]Value) (target.Target, error) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	smallsort.Strings(keys)
	for _, k := range keys {
		if _, ok := target.ByName(k); !ok {
			return target.Target{}, &target.FieldError{Field: "target", Msg: "unknown key " + target.QuoteShort(k) + "; known keys: " + knownNames()}
		}
	}
	t := target.Default()
	for i := range target.Fields {
		f := &target.Fields[i]
		if v, ok := obj[f.Name]; ok {
			if err := setTyped(f, &t, v); err != nil {
				return target.Target{}, err
			}
		}
	}
	return t, nil
}

// maxStringLen bounds a string the page passes; the table's own limits are checked later.
const maxStringLen = 4096

// setTyped sets one field from a JS value of the field's type, and refuses any other type,
// naming the type it wants.
func setTyped(f *target.Field, t *target.Target, v Value) error {
	switch k := f.Kind(); {
	case k == target.KindString && v.Type == "string":
		if len(v.Str) > maxStringLen {
			// The field's own limit is the range to name, as a link's too-long value names it (a
			// 10 KB paste into the model field was told "at most 4096 characters", its limit being 300).
			return f.TooLong(v.Str)
		}
		return f.Set(t, v.Str)
	case (k == target.KindNumber || k == target.KindInteger) && v.Type == "number":
		return f.SetNumber(t, v.Num)
	case k == target.KindBool && v.Type == "boolean":
		f.SetBool(t, v.Bool)
		return nil
	}
	want := map[target.Kind]string{target.KindString: "string", target.KindNumber: "number", target.KindInteger: "number (a whole one)", target.KindBool: "boolean"}[f.Kind()]
	got := ""
	switch v.Type {
	case "string":
		got = " (got " + target.QuoteShort(v.Str) + ")"
	case "number":
		got = " (got " + strconv.FormatFloat(v.Num, 'g', -1, 64) + ")"
	case "boolean":
		got = " (got " + strconv.FormatBool(v.Bool) + ")"
	}
	return f.Err("must be of type " + want + ", not " + v.Type + got)
}

func knownNames() string {
	names := make([]string, len(target.Fields))
	for i := range target.Fields {
		names[i] = target.Fields[i].Name
	}
	return strings.Join(names, ", ")
}

// TargetView is a target as a plain object holding only its non-default fields, so the page
// fills exactly what a link set.
func TargetView(t target.Target) map[string]any {
	out := map[string]any{}
	eachSetField(&t, func(f *target.Field) { out[f.Name] = f.Value(&t) })
	return out
}

// eachSetField calls fn with each field of t that is not at its default, in the table's order:
// the fields a target object holds (TargetView, writeTargetObject, targetValues).
func eachSetField(t *target.Target, fn func(f *target.Field)) {
	def := target.Default()
	for i := range target.Fields {
		if f := &target.Fields[i]; f.Get(t) != f.Get(&def) {
			fn(f)
		}
	}
}

// ResultJSON is a render result as the page consumes it (docs/CONTRACT.md), as JSON text: the
// page gets it through one JSON.parse, several times faster than building the objects through
// syscall/js a property at a time. The permalink spells the target as asked, not as resolved,
// so a link keeps "the model's own quantization".
func ResultJSON(asked target.Target, r claim.Result) string {
	var w jsontext.Writer
	writeResult(&w, asked, &r, false)
	return w.Finish()
}

// AppendResultJSON appends ResultJSON's text to dst: the page's render reuses one buffer from
// render to render instead of allocating some 70 KB each time for the garbage collector to chase.
func AppendResultJSON(dst []byte, asked target.Target, r claim.Result) []byte {
	w := jsontext.NewWriter(dst)
	writeResult(&w, asked, &r, false)
	return w.Bytes()
}

// appendResultASCIIJSON is AppendResultJSON's document in ASCII only (\u escapes), as the page's
// exports answer it (call.go): the same values once parsed, and a string of one byte a character
// in JavaScript. In Chromium traces of the page bench, the text with its "≈" and "×" decoded
// into a string of two bytes a character took longer to decode and parse, and left more for V8's
// collections to free.
func appendResultASCIIJSON(dst []byte, asked target.Target, r claim.Result) []byte {
	w := jsontext.NewASCIIWriter(dst)
	writeResult(&w, asked, &r, false)
	return w.Bytes()
}

// AppendResultColumnsJSON is AppendResultJSON with the matches as the columns of "table"
// (table_view.go) in place of "matches": what the page asks for (fitclaim.render(target,
// {columns: true})), the rest of the result the same.
func AppendResultColumnsJSON(dst []byte, asked target.Target, r claim.Result) []byte {
	w := jsontext.NewASCIIWriter(dst) // one byte a character in JavaScript too
	writeResult(&w, asked, &r, true)
	return w.Bytes()
}

func writeResult(w *jsontext.Writer, asked target.Target, r *claim.Result, columns bool) {
	b := &r.Bounds
	t := &b.Target
	perMatch := 512
	if columns {
		perMatch = 96
	}
	w.Grow(len(r.YAML) + len(r.JSON) + perMatch*len(r.Matches) + 4096) // one allocation for the whole text
	// The link, written here and quoted into the text: no string of its own.
	var linkBuf [256]byte
	permalink := target.AppendPermalink(linkBuf[:0], &asked)
	w.BeginObject()
	str(w, "yaml", r.YAML)
	str(w, "json", r.JSON)
	w.Key("warnings")
	w.Strs(r.Warnings)
	w.Key("permalink")
	w.StrBytes(permalink) // also the API's query string: /api/v1/claim.yaml?<permalink>

	w.Key("bounds")
	w.BeginObject()
	str(w, "model", b.Model.Name)
	boolean(w, "custom", b.Custom)
	num(w, "paramsB", b.ParamsB)
	num(w, "activeParamsB", b.ActiveParamsB)
	str(w, "quant", b.Quant)
	boolean(w, "quantOverride", b.QuantOverride)
	num(w, "bytesPerParam", b.BytesPerParam)
	num(w, "weightsGb", b.WeightsGB)
	num(w, "memoryGb", b.MemoryGB)
	integer(w, "memoryGi", b.MemoryGi)
	integer(w, "memoryMi", b.MemoryMi) // the floor the CEL asks (fit/memfloor.go); memoryGi is it rounded up
	integer(w, "minBandwidthGBs", b.MinBandwidthGBs)
	num(w, "minTps", t.MinTps)
	integer(w, "efficiencyPct", int64(t.EfficiencyPct))
	str(w, "claimName", r.Name)
	str(w, "deviceClass", b.DeviceClass)
	str(w, "driver", t.Driver)
	integer(w, "count", int64(t.Count))
	str(w, "sizing", t.Sizing)
	integer(w, "contextTokens", int64(b.ContextTokens))
	integer(w, "modelContext", int64(b.Model.ContextLength))
	integer(w, "sequences", int64(t.Sequences))
	str(w, "kvCache", b.KVCache)
	num(w, "kvCacheGi", b.KVBytes/(1<<30))
	num(w, "overheadGi", b.OverheadGiB)
	boolean(w, "kvEstimated", b.KVEstimated)
	integer(w, "kvTokensRoom", b.KVTokensRoom)
	num(w, "readGbPerToken", b.ReadGBPerToken)
	w.Key("productNames")
	w.Strs(b.Products)
	boolean(w, "template", t.Template)
	w.EndObject()
	writeDriverNote(w, b)
	writeMemory(w, b)

	explain(w, claim.Explain(r))
	if columns {
		writeTable(w, b, r)
		w.EndObject()
		return
	}
	used := b.Parts().Total()
	var why []byte
	w.Key("matches")
	w.BeginArray()
	for _, m := range r.Matches {
		w.BeginObject()
		writeAcceleratorFields(w, m.Accelerator)
		boolean(w, "fitsMemory", m.FitsMemory)
		boolean(w, "fitsBandwidth", m.FitsBandwidth)
		boolean(w, "fits", m.Fits())
		boolean(w, "selected", m.Selected)
		num(w, "estTps", fit.RoundSpeed(m.EstTps, t.MinTps))
		num(w, "headroomPct", fit.RoundHeadroom(m.EstTps, t.MinTps))
		integer(w, "devicesNeeded", int64(m.DevicesNeeded))
		str(w, "verdict", m.Verdict)
		writeMatchExtras(w, b, &m, used, &why)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
}

// ModelsJSON is the type-ahead list, as JSON text.
func ModelsJSON(query string, limit int) string {
	var w jsontext.Writer
	w.BeginArray()
	for _, m := range claim.SearchModels(query, limit) {
		w.BeginObject()
		str(&w, "name", m.Name)
		num(&w, "paramsB", m.ParamsB)
		str(&w, "quant", m.Quant)
		integer(&w, "contextLength", int64(m.ContextLength))
		boolean(&w, "moe", m.MoE)
		w.EndObject()
	}
	w.EndArray()
	return w.String()
}

func str(w *jsontext.Writer, k, v string)           { w.Key(k); w.Str(v) }
func num(w *jsontext.Writer, k string, v float64)   { w.Key(k); w.Num(v) }
func integer(w *jsontext.Writer, k string, v int64) { w.Key(k); w.Int(v) }
func boolean(w *jsontext.Writer, k string, v bool)  { w.Key(k); w.Bool(v) }

// Info is what the page shows before any render: versions, catalog size, option lists. It
// decodes nothing: Register runs it while the page waits for its first claim.
func Info() map[string]any {
	return map[string]any{
		"version": claim.Version,
		"catalog": map[string]any{"date": catalog.Date, "models": catalog.ModelCount(), "accelerators": catalog.AcceleratorCount()},
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

// FieldsJSON is the field table as the page's form reads it (fitclaim.fields()): for each
// field, in the table's order, its names, label, type, default, allowed values and help, so the
// form's labels, ranges and defaults come from the one table.
func FieldsJSON() string {
	kinds := map[target.Kind]string{target.KindString: "string", target.KindNumber: "number", target.KindInteger: "integer", target.KindBool: "boolean"}
	def := target.Default()
	var w jsontext.Writer
	w.BeginArray()
	for i := range target.Fields {
		f := &target.Fields[i]
		w.BeginObject()
		str(&w, "name", f.Name)
		str(&w, "key", f.Key)
		str(&w, "flag", f.Flag)
		str(&w, "label", f.Label)
		str(&w, "kind", kinds[f.Kind()])
		str(&w, "unit", f.Unit)
		w.Key("default")
		fieldValue(&w, f.Value(&def))
		str(&w, "derived", f.Derived)
		str(&w, "help", f.Help)
		str(&w, "allowed", f.Allowed())
		str(&w, "range", f.Range())
		if k := f.Kind(); k == target.KindNumber || k == target.KindInteger {
			num(&w, "min", f.Min)
			num(&w, "max", f.Max)
			boolean(&w, "zeroMeansDerived", f.ZeroMeansDerived())
		} else if k == target.KindString {
			integer(&w, "maxLength", int64(f.MaxLen))
		}
		if f.Choices != nil {
			w.Key("choices")
			w.Strs(f.Choices())
			boolean(&w, "openChoices", f.Open)
		}
		w.EndObject()
	}
	w.EndArray()
	return w.String()
}

// explain writes the render in words (claim.Explain): the page shows them as they are.
func explain(w *jsontext.Writer, e claim.Explanation) {
	w.Key("explain")
	w.BeginObject()
	str(w, "summary", e.Summary)
	str(w, "verdict", e.Verdict)
	w.Key("split")
	if e.Split == nil {
		w.Null()
	} else {
		w.BeginObject()
		integer(w, "count", int64(e.Split.Count))
		str(w, "accelerator", e.Split.Accelerator)
		str(w, "text", e.Split.Text)
		w.EndObject()
	}
	w.Key("lines")
	w.BeginArray()
	for _, l := range e.Lines {
		w.BeginObject()
		str(w, "label", l.Label)
		str(w, "text", l.Text)
		w.EndObject()
	}
	w.EndArray()
	str(w, "matches", e.Matches)
	w.EndObject()
}

// RepairJSON is what can be kept of a link (target.RepairLink), as JSON text: the target of its
// good pairs (non-default properties only), its permalink, each dropped pair with the field it
// concerns and why, and the whole of it in words ("" when the link is sound).
func RepairJSON(fragment string) string {
	r := target.RepairLink(fragment)
	var w jsontext.Writer
	w.BeginObject()
	w.Key("target")
	writeTargetObject(&w, &r.Target)
	str(&w, "permalink", target.Permalink(r.Target))
	w.Key("dropped")
	w.BeginArray()
	for _, d := range r.Dropped {
		w.BeginObject()
		str(&w, "pair", d.Pair)
		str(&w, "field", d.Err.Field)
		str(&w, "key", d.Err.Key)
		str(&w, "label", d.Err.Label)
		str(&w, "message", d.Err.Error())
		w.EndObject()
	}
	w.EndArray()
	str(&w, "message", r.Message())
	w.EndObject()
	return w.String()
}

// writeTargetObject writes a target's non-default fields as an object (TargetView's).
func writeTargetObject(w *jsontext.Writer, t *target.Target) {
	w.BeginObject()
	eachSetField(t, func(f *target.Field) {
		w.Key(f.Name)
		fieldValue(w, f.Value(t))
	})
	w.EndObject()
}

// fieldValue writes a field's value (target.Field.Value: a string, float64, int or bool).
func fieldValue(w *jsontext.Writer, v any) {
	switch v := v.(type) {
	case string:
		w.Str(v)
	case float64:
		w.Num(v)
	case int:
		w.Int(int64(v))
	case bool:
		w.Bool(v)
	}
}
