package fit

import (
	"strconv"

	"github.com/fitclaim/fitclaim/target"
)

// fieldErr is an error about a Target field, named as the table names it.
func fieldErr(field, msg string) *target.FieldError { return target.NewFieldError(field, msg) }

// DefaultEfficiencyPct is llmfit's efficiency, 55 %: what an absent efficiencyPct means in
// llmfit mode (in the KV-aware mode absent means the calibrated efficiency of the device family).
const DefaultEfficiencyPct = 55

// Physics defaults that are not a field's default.
const (
	DefaultContextCap  = 8192 // llmfit's fit code caps the default context here
	DefaultQuantCustom = "Q4_K_M"
)

// The values of the fields whose choices are physics (bytes per parameter, element sizes,
// attribute domains) are fit's; the table shows and checks them.
func init() {
	target.Provide("quant", Quants)
	target.Provide("kvCache", KVCaches)
	target.Provide("driver", DriverNames)
	target.Provide("family", Families)
	target.Provide("attention", func() []string {
		return []string{AttentionGQA, AttentionMHA, AttentionMQA, AttentionMLA, AttentionHybrid, AttentionCSA}
	})
}

// archOverride is the target's architecture fields as an override of the model's facts.
func archOverride(t *target.Target) ArchOverride {
	return ArchOverride{
		Layers: t.Layers, KVHeads: t.KVHeads, HeadDim: t.HeadDim, Attention: t.Attention,
		SlidingWindow: t.SlidingWindow, SlidingLayers: t.SlidingLayers, FullAttentionLayers: t.FullAttentionLayers,
		KVLoraRank: t.KVLoraRank, QKRopeHeadDim: t.QKRopeHeadDim, Experts: t.Experts, ExpertsPerToken: t.ExpertsPerToken,
		CSALayers: t.CSALayers, HCALayers: t.HCALayers,
	}
}

// ftoa prints a number the way a person typed it (shortest, no exponent for ordinary sizes).
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func itoa(n int) string { return strconv.Itoa(n) }
