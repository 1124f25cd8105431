package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A packed release is sized on its base's count in kv mode and on the catalog's in llmfit mode.
func TestPackedReleaseParams(t *testing.T) {
	// nvidia/Qwen3-8B-NVFP4: the catalog's 4,717,851,648 "parameters" count the packed uint8 tensors
	// (two 4-bit weights a byte) and the FP8 scales; Qwen/Qwen3-8B, the catalog's 16-bit entry of
	// the same name without "NVFP4", has 8,190,735,360. Weights: the embedding and the LM head
	// 2 × 151,936 × 4,096 = 1,244,659,712 at 2 B, the rest at NVFP4's 0.5625 B:
	// (8,190,735,360 − 1,244,659,712) × 0.5625 + 1,244,659,712 × 2 = 3,907,167,552 + 2,489,319,424
	// = 6,396,486,976 B = 6.40 GB (the packed count gave (4,717,851,648 − 1,244,659,712) × 0.5625
	// + 2,489,319,424 = 4,442,990,388 B, 4.44 GB).
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "nvidia/Qwen3-8B-NVFP4", "kv" })
	if b.ParamsB != 8.19073536 || b.Quant != "NVFP4" || !within(b.WeightsGB, 6.396486976, 1e-6) ||
		b.ParamsFrom != "Qwen/Qwen3-8B's count: the catalog's 4.7B for this repository counts packed tensors" {
		t.Errorf("kv: %v B params, %s, %v GB, from %q", b.ParamsB, b.Quant, b.WeightsGB, b.ParamsFrom)
	}
	b = resolve(t, func(t *target.Target) { t.Model = "nvidia/Qwen3-8B-NVFP4" })
	if !within(b.ParamsB, 4.72, 0.01) || b.ParamsFrom != "" {
		t.Errorf("llmfit mode moved: %v B params, from %q", b.ParamsB, b.ParamsFrom)
	}
	// No 16-bit entry to count from: the name's size, said as such (nvidia/Qwen3-30B-A3B-NVFP4:
	// 30 B, 3 B active, against the catalog's 15.6 B).
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "nvidia/Qwen3-30B-A3B-NVFP4", "kv" })
	if b.ParamsB != 30 || b.ActiveParamsB != 3 || b.ParamsFrom == "" {
		t.Errorf("name's size: %v B, %v B active, from %q", b.ParamsB, b.ActiveParamsB, b.ParamsFrom)
	}
	// A release whose count is its own keeps it: Qwen/Qwen2.5-14B-Instruct-AWQ's 14.77 B is its base's.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen2.5-14B-Instruct-AWQ", "kv" })
	if b.ParamsFrom != "" || b.Quant != "AWQ-4bit" {
		t.Errorf("own count: from %q, %s", b.ParamsFrom, b.Quant)
	}
}

func TestStemAndNamedSize(t *testing.T) {
	for _, c := range []struct {
		name, stem string
		size       float64
	}{
		{"nvidia/Qwen3-32B-NVFP4", "qwen3-32b", 32},
		{"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "meta-llama-3.1-8b-instruct", 8},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "llama-3.3-70b-instruct", 70},
		{"RedHatAI/Qwen3-4B-quantized.w4a16", "qwen3-4b", 4},
		{"unsloth/Qwen3-14B-unsloth-bnb-4bit", "qwen3-14b", 14},
		{"nvidia/Qwen3-30B-A3B-NVFP4", "qwen3-30b-a3b", 30}, // A3B is the active size, not the model's
		{"google/gemma-3n-E4B-it", "gemma-3n-e4b-it", 0},    // E4B is an effective size
		{"mistralai/Mixtral-8x7B-v0.1", "mixtral-8x7b-v0.1", 0},
	} {
		if got := stem(c.name); got != c.stem {
			t.Errorf("stem(%q) = %q, want %q", c.name, got, c.stem)
		}
		if got := sizeFromName(c.name); got != c.size {
			t.Errorf("sizeFromName(%q) = %v, want %v", c.name, got, c.size)
		}
	}
}

// A mixture of experts' active count in kv mode is its architecture's, from config.json's shapes
// (moeactive.go), where the catalog's is no count of the model; llmfit mode keeps the catalog's.
func TestMoEActiveFromShapes(t *testing.T) {
	// Qwen3-235B-A22B: routed 94 × 8 × 3 × 4,096 × 1,536 = 14,193,524,736; attention 6,702,521,856;
	// routers and norms 50,057,216; embeddings 2 × 151,936 × 4,096 = 1,244,659,712
	// → 22,190,763,520 (the catalog: 25,713,278,969).
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen3-235B-A22B-Instruct-2507", "kv" })
	if b.ActiveParamsB != 22.19076352 || b.ParamsFrom != "active 22.19B: all weights but the routed experts a token skips, "+
		"from Qwen3-235B-A22B's config.json shapes (the catalog's 25.71B is not the model's)" {
		t.Errorf("kv: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	b = resolve(t, func(t *target.Target) { t.Model = "Qwen/Qwen3-235B-A22B-Instruct-2507" })
	if b.ActiveParamsB != 25.713278969 || b.ParamsFrom != "" {
		t.Errorf("llmfit mode moved: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	// nvidia/Nemotron-Cascade-2-30B-A3B has no architectures.csv row, but its 31,577,937,344
	// parameters are, to the parameter, those of nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16:
	// Nemotron-3-Nano's 3,227,754,816 read + the input embedding 131,072 × 2,688 = 352,321,536
	// → 3,580,076,352 (the catalog: 2,985,101,885).
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "nvidia/Nemotron-Cascade-2-30B-A3B", "kv" })
	if b.ActiveParamsB != 3.580076352 || !strings.Contains(b.ParamsFrom, "Nemotron-3-Nano-30B-A3B's config.json shapes (the catalog's 2.99B") {
		t.Errorf("same count: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	// A release of the family takes its active count:
	// QuantTrio/Qwen3-VL-30B-A3B-Instruct-AWQ's language model is Qwen3-30B-A3B's, 3,353,032,704
	// active against the catalog's 3,398,363,717.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "QuantTrio/Qwen3-VL-30B-A3B-Instruct-AWQ", "kv" })
	if b.ActiveParamsB != 3.353032704 || !strings.HasSuffix(b.ParamsFrom, "from Qwen3-30B-A3B's config.json shapes (the catalog's 3.40B is not the model's)") {
		t.Errorf("VL AWQ: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	// A dense model has no active count to take.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen2.5-7B-Instruct", "kv" })
	if b.ActiveParamsB != b.ParamsB || b.ParamsFrom != "" {
		t.Errorf("dense: %v of %v B active, from %q", b.ActiveParamsB, b.ParamsB, b.ParamsFrom)
	}
}
