package claim

import (
	"github.com/fitclaim/fitclaim/target"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/internal/smallsort"
)

// jsonField is one key of the JSON summary; the summary writes them sorted by key, as llmfit
// (serde_json with a BTreeMap-ordered struct) does.
type jsonField struct {
	key, value string
}

// renderJSON writes the fit as llmfit's ten keys, plus the keys of what llmfit does not do
// (kv sizing, drivers, several devices) only when they are used.
func renderJSON(b *fit.Bounds, name, version string) string {
	t := &b.Target
	f := []jsonField{
		{"claimName", jsonString(name)},
		{"deviceClass", jsonString(b.DeviceClass)},
		{"efficiencyPct", strconv.Itoa(t.EfficiencyPct)},
		{"memoryGi", strconv.FormatInt(b.MemoryGi, 10)},
		{"minBandwidthGBs", strconv.FormatInt(b.MinBandwidthGBs, 10)},
		{"minTps", jsonFloat(t.MinTps)},
		{"model", jsonString(b.Model.Name)},
		{"quant", jsonString(b.Quant)},
		{"resolverVersion", jsonString(version)},
		{"weightsGb", jsonFloat(jsontext.Round(b.WeightsGB, 1))},
	}
	if t.Sizing == target.SizingKV {
		f = append(f,
			jsonField{"activeParamsB", jsonFloat(jsontext.Round(b.ActiveParamsB, 3))},
			jsonField{"contextTokens", strconv.Itoa(b.ContextTokens)},
			// efficiencyPct is the target's field (llmfit's 55 when absent); the KV-aware floor
			// uses it only when given, else speedEfficiency, the calibrated one: efficiencyGiven
			// says which, without renaming or dropping llmfit's key (docs/CONTRACT.md).
			jsonField{"efficiencyGiven", strconv.FormatBool(b.EfficiencyGiven)},
			jsonField{"kvCache", jsonString(b.KVCache)},
			jsonField{"kvCacheGi", jsonFloat(jsontext.Round(b.KVBytes/(1<<30), 3))},
			jsonField{"kvEstimated", strconv.FormatBool(b.KVEstimated)},
			jsonField{"sequences", strconv.Itoa(t.Sequences)},
			jsonField{"speedEfficiency", jsonFloat(jsontext.Round(b.SpeedEfficiency, 4))},
			jsonField{"speedFamily", jsonString(b.SpeedFamily)},
			jsonField{"speedOverheadMs", jsonFloat(jsontext.Round(b.SpeedOverheadSeconds*1e3, 3))},
			jsonField{"sizing", jsonString(t.Sizing)})
		if t.Driver == fit.DriverAny { // the NVIDIA alternative's floor, behind productNames
			f = append(f,
				jsonField{"nvidiaMinBandwidthGBs", strconv.FormatInt(b.NVIDIAMinBandwidthGBs, 10)},
				jsonField{"nvidiaSpeedEfficiency", jsonFloat(jsontext.Round(b.NVIDIASpeedEfficiency, 4))},
				jsonField{"nvidiaSpeedFamily", jsonString(b.NVIDIASpeedFamily)})
		}
	}
	if t.Driver != fit.DriverLlmfit || t.Count > 1 {
		f = append(f, jsonField{"count", strconv.Itoa(t.Count)}, jsonField{"driver", jsonString(t.Driver)})
		if len(b.Products) > 0 {
			list := make([]string, len(b.Products))
			for i, p := range b.Products {
				list[i] = jsonString(p)
			}
			f = append(f, jsonField{"productNames", "[\n    " + strings.Join(list, ",\n    ") + "\n  ]"})
		}
	}
	if t.CapacityRequest { // memoryGi is then also each device's capacity request
		f = append(f, jsonField{"capacityRequest", "true"})
	}
	smallsort.Func(f, func(a, b jsonField) int { return strings.Compare(a.key, b.key) }) // the keys are distinct
	var s strings.Builder
	s.Grow(1024) // the JSON is 1–3 KB: start at the smallest, not at 8 bytes doubling up
	s.WriteString("{\n")
	for i, kv := range f {
		s.WriteString(`  "`) // the keys are ASCII letters: each quotes as itself
		s.WriteString(kv.key)
		s.WriteString(`": `)
		s.WriteString(kv.value)
		if i < len(f)-1 {
			s.WriteByte(',')
		}
		s.WriteByte('\n')
	}
	s.WriteString("}")
	return s.String()
}

// jsonFloat prints a float as serde_json does (ryu): shortest digits, always with a fraction or
// an exponent, plain notation for decimal exponents from -5 to 16.
func jsonFloat(x float64) string {
	if x == 0 {
		return "0.0"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	kk := exp + 1 // position of the decimal point after the first kk digits
	n := len(digits)
	switch {
	case n <= kk && kk <= 16:
		return sign + digits + strings.Repeat("0", kk-n) + ".0"
	case 0 < kk && kk <= 16:
		return sign + digits[:kk] + "." + digits[kk:]
	case -5 < kk && kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		return sign + digits + "e" + strconv.Itoa(kk-1)
	default:
		return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
}

// jsonString quotes s as serde_json does.
func jsonString(s string) string { return jsontext.Quote(s) }
