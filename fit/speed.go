package fit

//go:generate go run ./calibrate -data ../data/truth-train.tsv -out speed_constants.go

import "strings"

// The calibrated decode-speed model. Generating one token reads every weight the token touches
// and the whole KV cache once, so a token takes
//
//	seconds = bytes read / (bandwidth × efficiency[family]) + t0 (+ layers × tMoE for a mixture of experts)
//
// bytes read = weights read per token (all parameters of a dense model; the active parameters of
// a mixture of experts; the effective size of a Gemma "E" model) × bytes per parameter, plus the
// KV cache at the context. The efficiency of each device family, the per-token overhead t0
// (kernel launches, sampling, the engine's loop: time that does not scale with bytes) and the
// extra per-token time of each decoder layer of a mixture of experts (routing, top-k selection,
// the expert-dispatch kernels: again time, not bytes) are fitted to measured runs by
// fit/calibrate (see speed_constants.go); nothing here is tuned by hand.

// Device families: one calibrated efficiency each.
const (
	FamilyNVIDIA        = "nvidia"         // NVIDIA Turing and later, discrete
	FamilyNVIDIAPascal  = "nvidia-pascal"  // NVIDIA Pascal (GTX 10xx, P100, P40)
	FamilyNVIDIAUnified = "nvidia-unified" // NVIDIA unified memory (GB10 / DGX Spark)
	FamilyAMD           = "amd"
	FamilyApple         = "apple"
	FamilyIntel         = "intel"
	FamilyOther         = "other"
)

// Families lists the device families in display order.
func Families() []string {
	return namesOf(speedFamilies, func(f *FamilySpeed) string { return f.Family })
}

// FamilySpeed is one family's calibrated efficiency and how many measured runs informed it.
type FamilySpeed struct {
	Family     string
	Efficiency float64 // share of the memory bandwidth decode reaches
	Runs       int     // in-scope runs of the training data for this family (0: the pooled value)
}

// familyAliases are the device classes of data/truth-train.tsv (data/README.md), accepted for
// the families they were calibrated as, so a script can pass the data's own column.
var familyAliases = map[string]string{
	"nvidia_discrete": FamilyNVIDIA, "nvidia_pascal": FamilyNVIDIAPascal, "nvidia_unified": FamilyNVIDIAUnified,
	"amd_discrete": FamilyAMD, "apple_unified": FamilyApple, "integrated": FamilyIntel,
}

// LookupFamily returns a family's calibrated speed constants; the name is matched ignoring case
// (and the training data's class names are accepted for their families).
func LookupFamily(name string) (FamilySpeed, bool) {
	for _, f := range speedFamilies {
		if strings.EqualFold(f.Family, name) {
			return f, true
		}
	}
	if alias, ok := familyAliases[strings.ToLower(name)]; ok {
		return LookupFamily(alias)
	}
	return FamilySpeed{}, false
}

// DecodeOverheadSeconds is the calibrated per-token time that does not scale with bytes read (t0).
func DecodeOverheadSeconds() float64 { return decodeOverheadSeconds }

// MoELayerSeconds is the calibrated per-token time each decoder layer of a mixture of experts
// adds (routing and expert dispatch).
func MoELayerSeconds() float64 { return moeLayerSeconds }

// TokenOverheadSeconds is the per-token time that does not scale with bytes read: t0, plus
// layers × the MoE layer time for a mixture of experts of paramsB (layers ≤ 0: unknown, MoEDepth).
func TokenOverheadSeconds(moe bool, layers int, paramsB float64) float64 {
	return TokenOverheadSecondsAt(moe, layers, paramsB, decodeOverheadSeconds, moeLayerSeconds)
}

// TokenOverheadSecondsAt is TokenOverheadSeconds with given constants (the fitter varies them).
func TokenOverheadSecondsAt(moe bool, layers int, paramsB, t0, moeLayer float64) float64 {
	if !moe {
		return t0
	}
	return t0 + float64(MoELayers(layers, paramsB))*moeLayer
}

// WeightsReadB is the parameters (billions) one decoded token reads: the effective size of an
// "E" model when known, the active parameters of a mixture of experts (never more than all of
// them), else all. Fitted with a free multiple of the active parameters beside the MoE layer
// time, the training data put that multiple at 0.92: the active weights are read once, and what
// makes a mixture of experts slower than its bytes is time per layer (docs/SPEED.md).
func WeightsReadB(paramsB, activeParamsB, effectiveB float64, moe bool) float64 {
	switch {
	case effectiveB > 0:
		return effectiveB
	case moe && activeParamsB > 0:
		return min(activeParamsB, paramsB)
	default:
		return paramsB
	}
}

// DecodeSeconds is the time of one decoded token reading readBytes at bandwidthGBs (10^9 B/s)
// and the given efficiency, plus the overhead.
func DecodeSeconds(readBytes, bandwidthGBs, efficiency, overheadSeconds float64) float64 {
	return readBytes/(bandwidthGBs*1e9*efficiency) + overheadSeconds
}

// DecodeTps is 1 / DecodeSeconds: one sequence's decode tokens per second.
func DecodeTps(readBytes, bandwidthGBs, efficiency, overheadSeconds float64) float64 {
	return 1 / DecodeSeconds(readBytes, bandwidthGBs, efficiency, overheadSeconds)
}
