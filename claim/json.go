package claim

import (
	"bytes"
	"strconv"
	"strings"
	"unsafe"

	"github.com/fitclaim/fitclaim/target"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/internal/smallsort"
)

// jsonField is one key of the JSON summary and its value, kept unwritten (a number, a string
// to quote, a list of strings) until the summary writes it into its one buffer: written as
// strings first, a claim's values were a dozen to forty strings allocated and copied again.
// The summary writes them sorted by key, as llmfit (serde_json with a BTreeMap-ordered struct)
// does.
type jsonField struct {
	key  string
	kind jsonKind
	s    string   // jsonRaw: written as it is; jsonStr: quoted
	n    int64    // jsonInt
	x    float64  // jsonNum: as serde_json writes an f64 (appendJSONFloat)
	list []string // jsonList: an array of strings, one a line
}

type jsonKind uint8

const (
	jsonRaw jsonKind = iota
	jsonStr
	jsonInt
	jsonNum
	jsonList
)

func rawField(k, v string) jsonField         { return jsonField{key: k, kind: jsonRaw, s: v} }
func strField(k, v string) jsonField         { return jsonField{key: k, kind: jsonStr, s: v} }
func intField(k string, n int64) jsonField   { return jsonField{key: k, kind: jsonInt, n: n} }
func numField(k string, x float64) jsonField { return jsonField{key: k, kind: jsonNum, x: x} }
func boolField(k string, v bool) jsonField   { return rawField(k, strconv.FormatBool(v)) }

// renderJSON writes the fit as llmfit's ten keys, plus the keys of what llmfit does not do
// (kv sizing, drivers, several devices) only when they are used. warnings are the claim's
// (Result.Warnings): the KV-aware mode's JSON, fitclaim's own, carries them as "warnings" when
// there are any; llmfit mode's JSON is llmfit's keys, which a consumer of llmfit's reads, and
// says them nowhere but where every mode does (stderr, the page, the API's Warning headers).
func renderJSON(b *fit.Bounds, name, version string, warnings []string) string {
	t := &b.Target
	f := make([]jsonField, 0, 32)
	f = append(f,
		strField("claimName", name),
		strField("deviceClass", b.DeviceClass),
		intField("efficiencyPct", int64(t.EfficiencyPct)),
		intField("memoryGi", b.MemoryGi),
		intField("minBandwidthGBs", b.MinBandwidthGBs),
		numField("minTps", t.MinTps),
		strField("model", b.Model.Name),
		strField("quant", b.Quant),
		strField("resolverVersion", version),
		numField("weightsGb", jsontext.Round(b.WeightsGB, 1)))
	if t.Sizing == target.SizingKV {
		f = append(f,
			numField("activeParamsB", jsontext.Round(b.ActiveParamsB, 3)),
			intField("contextTokens", int64(b.ContextTokens)),
			// efficiencyPct is the target's field (llmfit's 55 when absent); the KV-aware floor
			// uses it only when given, else speedEfficiency, the calibrated one: efficiencyGiven
			// says which, without renaming or dropping llmfit's key (docs/CONTRACT.md).
			boolField("efficiencyGiven", b.EfficiencyGiven),
			// engine and overheadGi: whose reserve memoryGi holds, and how much of it per device,
			// so a controller can tell a vLLM-sized floor from a llama.cpp-sized one.
			strField("engine", b.Engine),
			strField("kvCache", b.KVCache),
			numField("kvCacheGi", jsontext.Round(b.KVBytes/(1<<30), 3)),
			boolField("kvEstimated", b.KVEstimated),
			numField("overheadGi", jsontext.Round(b.OverheadGiB, 3)),
			intField("sequences", int64(t.Sequences)),
			numField("speedEfficiency", jsontext.Round(b.SpeedEfficiency, 4)),
			strField("speedFamily", b.SpeedFamily),
			numField("speedOverheadMs", jsontext.Round(b.SpeedOverheadSeconds*1e3, 3)),
			strField("sizing", t.Sizing))
		if on := fit.ReserveMeasuredOn(b); on != "" { // an AMD or Intel claim's reserve is CUDA's figures
			f = append(f, strField("reserveMeasuredOn", on))
		}
		if len(warnings) > 0 { // absent when there are none: a claim without warnings keeps its bytes
			f = append(f, jsonField{key: "warnings", kind: jsonList, list: warnings})
		}
		if t.Driver == fit.DriverAny { // the NVIDIA alternative's floor, behind productNames
			f = append(f,
				intField("nvidiaMinBandwidthGBs", b.NVIDIAMinBandwidthGBs),
				numField("nvidiaSpeedEfficiency", jsontext.Round(b.NVIDIASpeedEfficiency, 4)),
				strField("nvidiaSpeedFamily", b.NVIDIASpeedFamily))
		}
	}
	if t.Driver != fit.DriverLlmfit || t.Count > 1 {
		f = append(f, intField("count", int64(t.Count)), strField("driver", t.Driver))
		if len(b.Products) > 0 {
			f = append(f, jsonField{key: "productNames", kind: jsonList, list: b.Products})
		}
	}
	if t.CapacityRequest { // memoryGi is then also each device's capacity request
		f = append(f, rawField("capacityRequest", "true"))
		if t.CapacityName == target.CapacityQualified { // only then: the request names "<domain>/memory"
			f = append(f, strField("capacityName", t.CapacityName))
		}
	}
	// memoryMi, the floor the CEL asks, in MiB (memoryGi is it rounded up to whole Gi): in every
	// JSON but llmfit's own (sizing llmfit, driver llmfit, one device, no request), which stays
	// llmfit's ten keys byte for byte; there it would be memoryGi × 1024.
	if t.Sizing == target.SizingKV || t.Driver != fit.DriverLlmfit || t.Count > 1 || t.CapacityRequest {
		f = append(f, intField("memoryMi", b.MemoryMi))
	}
	smallsort.Func(f, func(a, b jsonField) int { return strings.Compare(a.key, b.key) }) // the keys are distinct
	out := make([]byte, 0, 1024)                                                         // the JSON is 1–3 KB: start at the smallest, not at 8 bytes doubling up
	out = append(out, "{\n"...)
	for i, kv := range f {
		out = append(out, `  "`...) // the keys are ASCII letters: each quotes as itself
		out = append(out, kv.key...)
		out = append(out, `": `...)
		switch kv.kind {
		case jsonStr:
			out = jsontext.AppendQuote(out, kv.s)
		case jsonInt:
			out = strconv.AppendInt(out, kv.n, 10)
		case jsonNum:
			out = appendJSONFloat(out, kv.x)
		case jsonList:
			out = append(out, "[\n    "...)
			for j, p := range kv.list {
				if j > 0 {
					out = append(out, ",\n    "...)
				}
				out = jsontext.AppendQuote(out, p)
			}
			out = append(out, "\n  ]"...)
		default:
			out = append(out, kv.s...)
		}
		if i < len(f)-1 {
			out = append(out, ',')
		}
		out = append(out, '\n')
	}
	out = append(out, '}')
	return unsafe.String(unsafe.SliceData(out), len(out)) // out is not written again
}

// jsonFloat prints a float as serde_json does (ryu): shortest digits, always with a fraction or
// an exponent, plain notation for decimal exponents from -5 to 16.
func jsonFloat(x float64) string { return string(appendJSONFloat(nil, x)) }

// appendJSONFloat appends jsonFloat(x) to out, with no string of its own on the way (the
// digits are cut from strconv's shortest 'e' form in a buffer on the stack).
func appendJSONFloat(out []byte, x float64) []byte {
	if x == 0 {
		return append(out, "0.0"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], x, 'e', -1, 64) // d.ddde±XX
	if e[0] == '-' {
		out, e = append(out, '-'), e[1:]
	}
	at := bytes.IndexByte(e, 'e')
	mant, expText := e[:at], e[at+1:]
	exp := 0
	for _, c := range expText[1:] {
		exp = exp*10 + int(c-'0')
	}
	if expText[0] == '-' {
		exp = -exp
	}
	var digitsBuf [24]byte
	digits := append(digitsBuf[:0], mant[0])
	if len(mant) > 2 {
		digits = append(digits, mant[2:]...)
	}
	kk := exp + 1 // position of the decimal point after the first kk digits
	n := len(digits)
	switch {
	case n <= kk && kk <= 16:
		out = append(out, digits...)
		for range kk - n {
			out = append(out, '0')
		}
		return append(out, ".0"...)
	case 0 < kk && kk <= 16:
		out = append(out, digits[:kk]...)
		out = append(out, '.')
		return append(out, digits[kk:]...)
	case -5 < kk && kk <= 0:
		out = append(out, "0."...)
		for range -kk {
			out = append(out, '0')
		}
		return append(out, digits...)
	case n == 1:
		out = append(out, digits...)
		out = append(out, 'e')
		return strconv.AppendInt(out, int64(kk-1), 10)
	default:
		out = append(out, digits[0], '.')
		out = append(out, digits[1:]...)
		out = append(out, 'e')
		return strconv.AppendInt(out, int64(kk-1), 10)
	}
}
