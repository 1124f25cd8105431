package fit

import "strings"

// quants is llmfit's bytes-per-parameter table (REFERENCE §1), in the order it is shown to users.
var quants = []struct {
	Name string
	BPP  float64
}{
	{"F32", 4.0}, {"F16", 2.0}, {"BF16", 2.0}, {"Q8_0", 1.05}, {"Q6_K", 0.80}, {"Q5_K_M", 0.68},
	{"Q4_K_M", 0.58}, {"Q4_0", 0.58}, {"Q3_K_M", 0.48}, {"Q2_K", 0.37}, {"mlx-4bit", 0.55},
	{"mlx-8bit", 1.0}, {"AWQ-4bit", 0.5}, {"GPTQ-Int4", 0.5}, {"AWQ-8bit", 1.0}, {"GPTQ-Int8", 1.0},
}

// llmfitFallbackBPP is what llmfit silently uses for any other string. fitclaim keeps it only for
// catalog entries whose own quantization is outside the table (AutoRound-4bit), for parity.
const llmfitFallbackBPP = 0.58

// Quants lists the known quantizations in display order: llmfit's table, then the serving
// formats it lacks (FP16, FP8, INT8, MXFP4, NVFP4).
func Quants() []string {
	out := make([]string, 0, len(quants)+len(servingFormats))
	for _, q := range quants {
		out = append(out, q.Name)
	}
	for _, f := range servingFormats {
		if !isLlmfitQuant(f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

// isLlmfitQuant reports whether q is in llmfit's own table (exact spelling).
func isLlmfitQuant(q string) bool {
	for _, e := range quants {
		if e.Name == q {
			return true
		}
	}
	return false
}

// canonicalQuant returns the table's spelling of q (matched ignoring case) and its bytes per
// parameter; ok is false when q is not in the table.
func canonicalQuant(q string) (name string, bpp float64, ok bool) {
	for _, e := range quants {
		if strings.EqualFold(e.Name, q) {
			return e.Name, e.BPP, true
		}
	}
	return "", 0, false
}

// BytesPerParam is llmfit's bytes per parameter for a quantization, with its fallback; a serving
// format llmfit does not know (FP8, INT8, MXFP4, NVFP4, FP16) has its real size (formats.go).
func BytesPerParam(q string) float64 {
	if _, bpp, ok := canonicalQuant(q); ok {
		return bpp
	}
	if _, bpp, ok := servingBPP(q); ok {
		return bpp
	}
	return llmfitFallbackBPP
}

// kvCaches is the size of one KV-cache element per cache type. q8_0 and q4_0 are ggml's blocks of
// 32 values with one fp16 scale (ggml-common.h block_q8_0, block_q4_0): 32 + 2 = 34 B and
// 16 + 2 = 18 B per 32 elements.
var kvCaches = []kvCache{{"fp16", 2}, {"fp8", 1}, {"q8_0", 34.0 / 32}, {"q4_0", 18.0 / 32}}

type kvCache struct {
	Name  string
	Bytes float64
}

func (k *kvCache) name() string { return k.Name }

// KVCaches lists the KV-cache element types.
func KVCaches() []string { return namesOf(kvCaches, (*kvCache).name) }

// kvElementBytes is a KV-cache type's bytes per element, and its name as the table spells it.
func kvElementBytes(name string) (string, float64, bool) {
	if k, ok := rowFold(kvCaches, name, (*kvCache).name); ok {
		return k.Name, k.Bytes, true
	}
	return "", 0, false
}
