package fit

import (
	"math"
	"strconv"
	"strings"
)

// Target is everything a user can ask for. DefaultTarget gives llmfit's defaults; a zero string
// means "derive it" (Quant: the entry's own; Name: from the model; DeviceClass: the driver's).
type Target struct {
	Model         string  // catalog name (exact, case-insensitive or unique substring)
	ParamsB       float64 // a model that is not in the catalog: billions of parameters
	Quant         string
	MinTps        float64
	EfficiencyPct int
	Template      bool
	Name          string
	DeviceClass   string

	Sizing    string // "llmfit" (parity) or "kv"
	Context   int    // kv: tokens; 0 = the entry's context length capped at DefaultContextCap
	Sequences int    // kv: concurrent sequences
	KVCache   string // kv: element type
	Driver    string // llmfit, nvidia, amd, intel, any
	Count     int    // devices the model is split across

	// Architecture of a custom model (ParamsB); zero = unknown.
	Layers        int
	KVHeads       int
	HeadDim       int
	ActiveParamsB float64
}

// Defaults, as llmfit has them where llmfit has them.
const (
	DefaultMinTps        = 20
	DefaultEfficiencyPct = 55
	DefaultContextCap    = 8192 // llmfit's fit code caps the default context here
	DefaultQuantCustom   = "Q4_K_M"
	SizingLlmfit         = "llmfit"
	SizingKV             = "kv"
)

// Limits of the inputs; they keep every product of them far inside float64 and int64.
const (
	MaxMinTps     = 100000
	MaxParamsB    = 100000 // 100 T parameters
	MaxContext    = 1 << 24
	MaxSequences  = 4096
	MaxCount      = 8
	MaxLayers     = 1000
	MaxKVHeads    = 1024
	MaxHeadDim    = 4096
	MaxModelQuery = 300
)

// DefaultTarget is llmfit's default target with no model chosen.
func DefaultTarget() Target {
	return Target{
		MinTps: DefaultMinTps, EfficiencyPct: DefaultEfficiencyPct,
		Sizing: SizingLlmfit, Sequences: 1, KVCache: "fp16", Driver: DriverLlmfit, Count: 1,
	}
}

// validate checks every field that does not need the catalog, in the order of the form.
func (t *Target) validate() error {
	if math.IsNaN(t.MinTps) || math.IsInf(t.MinTps, 0) || t.MinTps <= 0 || t.MinTps > MaxMinTps {
		return fieldErr("minTps", "must be a number greater than 0 and at most "+itoa(MaxMinTps)+" tokens/s (got "+ftoa(t.MinTps)+")")
	}
	if t.EfficiencyPct < 1 || t.EfficiencyPct > 100 {
		return fieldErr("efficiencyPct", "must be a whole number from 1 to 100 (got "+itoa(t.EfficiencyPct)+")")
	}
	switch t.Sizing {
	case SizingLlmfit, SizingKV:
	default:
		return fieldErr("sizing", "must be llmfit or kv (got "+strconv.Quote(t.Sizing)+")")
	}
	if t.Context != 0 && (t.Context < 1 || t.Context > MaxContext) {
		return fieldErr("context", "must be a whole number of tokens from 1 to "+itoa(MaxContext)+" (got "+itoa(t.Context)+")")
	}
	if t.Sequences < 1 || t.Sequences > MaxSequences {
		return fieldErr("sequences", "must be a whole number from 1 to "+itoa(MaxSequences)+" (got "+itoa(t.Sequences)+")")
	}
	if _, _, ok := kvElementBytes(t.KVCache); !ok {
		return fieldErr("kvCache", "must be one of "+strings.Join(KVCaches(), ", ")+" (got "+strconv.Quote(t.KVCache)+")")
	}
	if _, ok := driverByName(t.Driver); !ok {
		return fieldErr("driver", "must be one of "+strings.Join(DriverNames(), ", ")+" (got "+strconv.Quote(t.Driver)+")")
	}
	if t.Count < 1 || t.Count > MaxCount {
		return fieldErr("count", "must be a whole number of devices from 1 to "+itoa(MaxCount)+" (got "+itoa(t.Count)+")")
	}
	if t.Model != "" && t.ParamsB != 0 {
		return fieldErr("paramsB", "give either a catalog model or paramsB for a custom model, not both")
	}
	if len(t.Model) > MaxModelQuery {
		return fieldErr("model", "must be at most "+itoa(MaxModelQuery)+" characters (got "+itoa(len(t.Model))+")")
	}
	if t.Model == "" {
		if math.IsNaN(t.ParamsB) || math.IsInf(t.ParamsB, 0) || t.ParamsB <= 0 || t.ParamsB > MaxParamsB {
			if t.ParamsB == 0 {
				return fieldErr("model", "choose a catalog model, or give paramsB (billions of parameters) for a custom one")
			}
			return fieldErr("paramsB", "must be a number of billions of parameters greater than 0 and at most "+itoa(MaxParamsB)+" (got "+ftoa(t.ParamsB)+")")
		}
	}
	return t.validateArchitecture()
}

func (t *Target) validateArchitecture() error {
	custom := t.Model == ""
	arch := []struct {
		field  string
		v, max int
	}{{"layers", t.Layers, MaxLayers}, {"kvHeads", t.KVHeads, MaxKVHeads}, {"headDim", t.HeadDim, MaxHeadDim}}
	set := 0
	for _, a := range arch {
		if a.v == 0 {
			continue
		}
		if !custom {
			return fieldErr(a.field, "describes a custom model (paramsB); a catalog model brings its own")
		}
		if a.v < 1 || a.v > a.max {
			return fieldErr(a.field, "must be a whole number from 1 to "+itoa(a.max)+" (got "+itoa(a.v)+")")
		}
		set++
	}
	if set != 0 && set != len(arch) {
		missing := ""
		for _, a := range arch {
			if a.v == 0 {
				missing = a.field
				break
			}
		}
		return fieldErr(missing, "layers, kvHeads and headDim go together: give all three or none")
	}
	if t.ActiveParamsB != 0 {
		if !custom {
			return fieldErr("activeParamsB", "describes a custom model (paramsB); a catalog model brings its own")
		}
		if math.IsNaN(t.ActiveParamsB) || t.ActiveParamsB <= 0 || t.ActiveParamsB > t.ParamsB {
			return fieldErr("activeParamsB", "must be greater than 0 and at most paramsB ("+ftoa(t.ParamsB)+") billions (got "+ftoa(t.ActiveParamsB)+")")
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// ftoa prints a number the way a person typed it (shortest, no exponent for ordinary sizes).
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
