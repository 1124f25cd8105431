package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
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
	// No 16-bit entry of the name itself: its pre-trained release's (nvidia/Qwen3-30B-A3B-NVFP4:
	// Qwen/Qwen3-30B-A3B-Base's 30,532,122,624 against the catalog's 15.6 B), with the family's
	// active count, 3,353,032,704 (moeactive.go), within 1 % of the Base's own 3,339,450,907.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "nvidia/Qwen3-30B-A3B-NVFP4", "kv" })
	if b.ParamsB != 30.532122624 || b.ActiveParamsB != 3.353032704 ||
		b.ParamsFrom != "Qwen/Qwen3-30B-A3B-Base's count: the catalog's 15.6B for this repository counts packed tensors" {
		t.Errorf("name's size: %v B, %v B active, from %q", b.ParamsB, b.ActiveParamsB, b.ParamsFrom)
	}
	// Neither a 16-bit entry nor a size in the name: the FP8 entry of the same name
	// (nvidia/MiniMax-M2.5-NVFP4: MiniMaxAI/MiniMax-M2.5's 228,703,644,928 against the catalog's
	// 116,349,510,656; cyankiwi/MiniMax-M2.7-AWQ-4bit: MiniMaxAI/MiniMax-M2.7's, against
	// 36,811,839,984), else the base architectures.csv names (nvidia/DeepSeek-R1-0528-NVFP4-v2, whose
	// "-v2" no entry shares: deepseek-ai/DeepSeek-V3's 684,531,386,000 against 393,632,819,968).
	for _, c := range []struct{ model, from string }{
		{"nvidia/MiniMax-M2.5-NVFP4", "MiniMaxAI/MiniMax-M2.5's count: the catalog's 116.3B for this repository counts packed tensors; "},
		{"cyankiwi/MiniMax-M2.7-AWQ-4bit", "MiniMaxAI/MiniMax-M2.7's count: the catalog's 36.8B for this repository counts packed tensors; "},
	} {
		b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = c.model, "kv" })
		if b.ParamsB != 228.703644928 || !strings.HasPrefix(b.ParamsFrom, c.from) {
			t.Errorf("%s: %v B, from %q", c.model, b.ParamsB, b.ParamsFrom)
		}
	}
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "nvidia/DeepSeek-R1-0528-NVFP4-v2", "kv" })
	if b.ParamsB != 684.531386 || !strings.HasPrefix(b.ParamsFrom, "deepseek-ai/DeepSeek-V3's count (its base in architectures.csv): the catalog's 393.6B for this repository counts packed tensors; ") {
		t.Errorf("base: %v B, from %q", b.ParamsB, b.ParamsFrom)
	}
	// Neither: the size the name states (mlx-community/gemma-3-1b-it-qat-4bit: 1 B against 0.9 B).
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "mlx-community/gemma-3-1b-it-qat-4bit", "kv" })
	if b.ParamsB != 1 || b.ParamsFrom != "the size the name states: the catalog's 0.9B counts packed tensors (no 16-bit entry to count from)" {
		t.Errorf("name's size: %v B, from %q", b.ParamsB, b.ParamsFrom)
	}
	// "Base" names the pre-trained release of the same tensors: deepseek-ai/DeepSeek-V4-Flash,
	// MXFP4 experts + FP8 packed into 158,069,433,298 elements, takes DeepSeek-V4-Flash-Base's
	// 292,021,347,282 (DeepSeek: 284 B, and an MTP layer). DeepSeek-V4-Pro takes its Base's
	// 1,600,790,440,862 now that architectures.csv holds its expert counts (384, 6 per token), by
	// which the MXFP4 experts and the FP8 rest are told apart (without them the packed count stayed).
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "deepseek-ai/DeepSeek-V4-Flash", "kv" })
	if b.ParamsB != 292.021347282 || !strings.HasPrefix(b.ParamsFrom, "deepseek-ai/DeepSeek-V4-Flash-Base's count: the catalog's 158.1B for this repository counts packed tensors; ") {
		t.Errorf("V4-Flash: %v B, from %q", b.ParamsB, b.ParamsFrom)
	}
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "deepseek-ai/DeepSeek-V4-Pro", "kv" })
	if b.ParamsB != 1600.790440862 || !strings.HasPrefix(b.ParamsFrom, "deepseek-ai/DeepSeek-V4-Pro-Base's count: the catalog's 861.6B for this repository counts packed tensors; ") {
		t.Errorf("V4-Pro: %v B, from %q", b.ParamsB, b.ParamsFrom)
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
		// Meta's first repository names ("Meta-Llama-3.1-…") meet its current ones: the 70B AWQ takes
		// meta-llama/Llama-3.1-70B-Instruct's 70.55 B, not the 70 its name states
		{"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "llama-3.1-8b-instruct", 8},
		{"hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "llama-3.1-70b-instruct", 70},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "llama-3.3-70b-instruct", 70},
		// a 16-bit release named for its format is its quantized releases' base; an MLX bf16 copy,
		// which stores a tied LM head once, is not
		{"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "nvidia-nemotron-3-nano-30b-a3b", 30},
		{"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4", "nvidia-nemotron-3-nano-30b-a3b", 30},
		{"lmstudio-community/Qwen3-1.7B-MLX-bf16", "qwen3-1.7b-bf16", 1.7},
		{"RedHatAI/Qwen3-4B-quantized.w4a16", "qwen3-4b", 4},
		{"unsloth/Qwen3-14B-unsloth-bnb-4bit", "qwen3-14b", 14},
		{"nvidia/Qwen3-30B-A3B-NVFP4", "qwen3-30b-a3b", 30}, // A3B is the active size, not the model's
		{"google/gemma-3n-E4B-it", "gemma-3n-e4b-it", 0},    // E4B is an effective size
		{"mistralai/Mixtral-8x7B-v0.1", "mixtral-8x7b-v0.1", 0},
		{"deepseek-ai/DeepSeek-V4-Flash-Base", "deepseek-v4-flash", 0}, // the pre-trained release of the same tensors
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
	if b.ActiveParamsB != 22.19076352 || b.ParamsFrom != "active 22.19B: every weight but the routed experts a token skips, "+
		"counted from Qwen3-235B-A22B's config.json shapes (the catalog says 25.71B)" {
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
	if b.ActiveParamsB != 3.580076352 || !strings.Contains(b.ParamsFrom, "Nemotron-3-Nano-30B-A3B's config.json shapes (the catalog says 2.99B)") {
		t.Errorf("same count: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	// A release of the family takes its active count:
	// QuantTrio/Qwen3-VL-30B-A3B-Instruct-AWQ's language model is Qwen3-30B-A3B's, 3,353,032,704
	// active against the catalog's 3,398,363,717.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "QuantTrio/Qwen3-VL-30B-A3B-Instruct-AWQ", "kv" })
	if b.ActiveParamsB != 3.353032704 || !strings.HasSuffix(b.ParamsFrom, "from Qwen3-30B-A3B's config.json shapes (the catalog says 3.40B)") {
		t.Errorf("VL AWQ: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	// Llama-4-Maverick's FP8 release: 17,184,691,200 (moeactive.go), not the catalog's 43.93 B.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8", "kv" })
	if b.ActiveParamsB != 17.1846912 || !strings.HasSuffix(b.ParamsFrom, "Llama-4-Maverick-17B-128E's config.json shapes (the catalog says 43.93B)") {
		t.Errorf("Maverick FP8: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	// The models whose catalog count is no count of them, each counted from its shapes in
	// moeactive.go (the sums are written out there):
	//   Nemotron-3-Super: routed 4,844,421,120 + shared 1,761,607,680 + latent projections
	//     335,544,320 + Mamba 4,385,602,560 + attention 285,245,440 + routers and norms 84,074,496
	//     + embeddings 1,073,741,824 = 12,770,237,440 (the catalog: 11,226,390,744);
	//   DeepSeek-V4-Flash: 6,492,782,592 routed + 7,306,850,647 the rest = 13,799,633,239 (13.00);
	//   DeepSeek-V4-Pro: 24,178,065,408 routed + 25,601,016,803 the rest = 49,779,082,211 (49.00);
	//   LFM2-8B-A1B: 22 MoE layers × 4 of 32 experts × 3 × 2,048 × 1,792 = 968,884,224 routed +
	//     attention 62,915,328 + convolutions 302,100,480 + 2 dense MLPs 88,080,384 + routers
	//     1,441,792 + norms 100,352 + the tied embedding 134,217,728 = 1,557,740,288 (1.50).
	// A 16-bit entry with no row takes its kin's by the same count (the Super Base's 123,611,012,096),
	// and an MLX copy of V4-Flash its row's base (the catalog: 20.55 B).
	for _, c := range []struct {
		model string
		want  float64
		said  string
	}{
		{"nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8", 12.77023744, "Nemotron-3-Super-120B-A12B's config.json shapes (the catalog says 11.23B)"},
		{"nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-Base-BF16", 12.77023744, "Nemotron-3-Super-120B-A12B's config.json shapes (the catalog says 11.23B)"},
		{"deepseek-ai/DeepSeek-V4-Flash", 13.799633239, "DeepSeek-V4-Flash's config.json shapes (the catalog says 13.00B)"},
		{"mlx-community/DeepSeek-V4-Flash-4bit", 13.799633239, "DeepSeek-V4-Flash's config.json shapes (the catalog says 20.55B)"},
		{"deepseek-ai/DeepSeek-V4-Pro", 49.779082211, "DeepSeek-V4-Pro's config.json shapes (the catalog says 49.00B)"},
		{"LiquidAI/LFM2-8B-A1B", 1.557740288, "LFM2-8B-A1B's config.json shapes (the catalog says 1.50B)"},
	} {
		b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = c.model, "kv" })
		if b.ActiveParamsB != c.want || !strings.HasSuffix(b.ParamsFrom, c.said) {
			t.Errorf("%s: %v B active, from %q", c.model, b.ActiveParamsB, b.ParamsFrom)
		}
	}
	// A dense model has no active count to take.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen2.5-7B-Instruct", "kv" })
	if b.ActiveParamsB != b.ParamsB || b.ParamsFrom != "" {
		t.Errorf("dense: %v of %v B active, from %q", b.ActiveParamsB, b.ParamsB, b.ParamsFrom)
	}
}

// An MLX copy that no architectures.csv row or same-named entry covers is known by its count,
// within a millionth of a family's total from config.json's shapes (moeactive.go): GLM-5's
// 743,911,218,432 (75 × 256 routed experts of 37,748,736 = 724,775,731,200, + the active count's
// 41,784,728,832 less the 75 × 8 of them it holds, 22,649,241,600) is inferencerlabs/GLM-5.1-MLX-
// 4.8bit-INF's count to the parameter, so its active count is GLM-5's 41,784,728,832 (2 × 951,582,720
// embeddings + 78 × 174,394,112 attention + 22,649,241,600 routed + 2,831,155,200 shared +
// 679,477,248 dense + 118,948,608 routers and norms), not the catalog's 59,280,425,217. A count off
// by more is not.
func TestMoEActiveByShapesTotal(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "inferencerlabs/GLM-5.1-MLX-4.8bit-INF", "kv" })
	if b.ActiveParamsB != 41.784728832 || !strings.Contains(b.ParamsFrom, "GLM-5's config.json shapes (the catalog says 59.28B)") {
		t.Errorf("GLM-5.1 MLX: %v B active, from %q", b.ActiveParamsB, b.ParamsFrom)
	}
	m := catalog.Model{Name: "x/y", ParametersRaw: 743_912_200_000} // 981,568 (1.3 millionths) above
	if f, ok := moeActiveOf(&m); ok {
		t.Errorf("743.9122 B matched %s", f.Shapes)
	}
	// NVFP4A16 is a format word: bg-digitalservices/Gemma-4-E2B-it-NVFP4A16 (4,293,811,779) takes
	// google/gemma-4-E2B-it's 5,123,178,051.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "bg-digitalservices/Gemma-4-E2B-it-NVFP4A16", "kv" })
	if b.ParamsB != 5.123178051 || b.ParamsFrom != "google/gemma-4-E2B-it's count: the catalog's 4.3B for this repository counts packed tensors" {
		t.Errorf("Gemma-4-E2B NVFP4A16: %v B, from %q", b.ParamsB, b.ParamsFrom)
	}
}

// hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4 counts packed tensors (60.1 B); its base is
// meta-llama/Llama-3.1-70B-Instruct, 70,553,706,496 parameters, under Meta's newer repository name.
// AWQ int4 at 4.15625 bits with the token embedding and LM head (2 × 128,256 × 8,192 =
// 2,101,346,304) in 16 bits: 68,452,360,192 × 0.51953125 + 2,101,346,304 × 2 = 39,765,832,864 B.
func TestMetaLlamaRepositoryNameFindsItsBase(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing = "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", target.SizingKV
	})
	if !near(b.ParamsB, 70.553706496) || !within(b.WeightsGB, 39.765832864, 1e-6) {
		t.Errorf("params %v B, weights %v GB; want 70.553706496, 39.765832864", b.ParamsB, b.WeightsGB)
	}
}

// microsoft/phi-4: the catalog's 14 B is the card's rounding and its architecture was null. From
// litgpt's copy of config.json (40 layers, 10 KV heads of 128, 16,384 tokens): 14,659,507,200
// parameters (params.go), BF16 29,319,014,400 B; KV 2 × 40 × 10 × 128 × 2 B = 204,800 B a token,
// × 16,384 = 3,355,443,200 B (llmfit's estimate was 0.000008 × 14 GB × 16,384 = 1.835 GB).
func TestPhi4Counted(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Context = "microsoft/phi-4", target.SizingKV, 16384
	})
	if !near(b.ParamsB, 14.6595072) || !near(b.WeightsGB, 29.3190144) || b.KVEstimated || !near(b.KVBytes, 3355443200) || b.MaxContext != 16384 {
		t.Errorf("params %v B, weights %v GB, KV %v B (estimated %v), max context %d", b.ParamsB, b.WeightsGB, b.KVBytes, b.KVEstimated, b.MaxContext)
	}
}

// nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 counts packed tensors (18.2 B); its base is the
// BF16 release of the same name, 31,577,937,344 parameters, not the 30 its name states.
func TestBF16ReleaseIsTheBase(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4", target.SizingKV
	})
	if !near(b.ParamsB, 31.577937344) || !strings.HasPrefix(b.ParamsFrom, "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16's count") {
		t.Errorf("params %v B from %q; want 31.577937344 from the BF16 release", b.ParamsB, b.ParamsFrom)
	}
}

// Qwen/Qwen3-32B-FP8: no 16-bit Qwen3-32B in the catalog, and the FP8 release's count (24.3 B) is
// no count of it; its config's shapes give 32,762,123,264 (params.go). FP8 with the 16-bit
// embedding and LM head (2 × 151,936 × 5,120 = 1,555,824,640): 31,206,298,624 × 1 +
// 1,555,824,640 × 2 = 34,317,947,904 B.
func TestQwen3_32BCounted(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen3-32B-FP8", target.SizingKV })
	if !near(b.ParamsB, 32.762123264) || !within(b.WeightsGB, 34.317947904, 1e-6) {
		t.Errorf("params %v B, weights %v GB; want 32.762123264, 34.317947904", b.ParamsB, b.WeightsGB)
	}
}

// GLM-4.7-Flash's active count from its shapes (moeactive.go): routed 46 × 4 × 9,437,184 =
// 1,736,441,856, shared 46 × 9,437,184 = 434,110,464, the dense layer 3 × 2,048 × 10,240 =
// 62,914,560, attention 47 × 21,759,232 = 1,022,683,904 (q_a 1,572,864 + its norm 768 + q_b
// 3,932,160 + kv_a 1,179,648 + its norm 512 + kv_b 4,587,520 + o 10,485,760), routers and norms
// 6,226,816, embeddings 2 × 154,880 × 2,048 = 634,388,480: 3,896,766,080. The same shapes with all
// 46 × 64 experts, 3,896,766,080 − 1,736,441,856 + 46 × 64 × 9,437,184 (27,783,069,696) =
// 29,943,393,920, are the count of the catalog's MLX copies without the MTP layer
// (lmstudio-community/GLM-4.7-Flash-MLX-6bit and -8bit) to the parameter; 768 more a layer (the
// q_a norm counted twice) made it 3,896,802,176.
func TestGLM47FlashActiveCount(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "zai-org/GLM-4.7-Flash", "kv" })
	if b.ActiveParamsB != 3.89676608 {
		t.Errorf("GLM-4.7-Flash: %v B active, want 3.89676608", b.ActiveParamsB)
	}
}

// Kimi-K2's shapes (moeactive.go) with its MLA layer counted once: attention 61 × 101,124,096
// (q_a 7,168 × 1,536 = 11,010,048, its norm 1,536, q_b 1,536 × 64 × 192 = 18,874,368, kv_a
// 7,168 × 576 = 4,128,768, its norm 512, kv_b 512 × 64 × 256 = 8,388,608, o 8,192 × 7,168 =
// 58,720,256) = 6,168,569,856; with routed 21,139,292,160, shared 2,642,411,520, dense
// 396,361,728, routers and norms 166,055,424 and embeddings 2 × 1,174,405,120: active
// 32,861,500,928, and with all 60 × 384 experts of 44,040,192 (1,014,686,023,680) in place of a
// token's 21,139,292,160: 1,026,408,232,448, the count of the MLX copy
// mlx-community/Kimi-K2.6-mlx-DQ3_K_M-q8 to the parameter. The q_a norm counted twice made both
// 93,696 (61 × 1,536) more; DeepSeek-V3's layer (128 heads) had the same 1,536 too many.
func TestKimiK2ShapesAreTheMLXCount(t *testing.T) {
	if kimiK2.TotalB != 1026.408232448 || kimiK2.ActiveB != 32.861500928 {
		t.Errorf("Kimi-K2's shapes: %v B, %v B active; want 1026.408232448, 32.861500928", kimiK2.TotalB, kimiK2.ActiveB)
	}
	m := catalog.Named("mlx-community/Kimi-K2.6-mlx-DQ3_K_M-q8")
	if m == nil {
		t.Fatal("mlx-community/Kimi-K2.6-mlx-DQ3_K_M-q8 is not in the catalog")
	}
	if got := float64(m.ParametersRaw) / 1e9; got != kimiK2.TotalB {
		t.Errorf("the MLX copy counts %v B; Kimi-K2's shapes %v B", got, kimiK2.TotalB)
	}
	d := moeActiveFacts["deepseek-ai/DeepSeek-V3 (also R1, R1-0528, V3-0324: same architecture)"]
	if d.ActiveB != 37.552297472 { // 37,552,391,168 − 61 × 1,536
		t.Errorf("DeepSeek-V3 active %v B; want 37.552297472", d.ActiveB)
	}
}

// Qwen/Qwen2-0.5B: llmfit counts 422,395,904 parameters, which its shapes do not give. A layer of
// width 896 with 14 query and 2 KV heads of 64 (q, k, v with biases) and an MLP of 4,864: q 896 ×
// 896 + 896 = 803,712, k and v 2 × (896 × 128 + 128) = 229,632, o 802,816, MLP 3 × 896 × 4,864 =
// 13,074,432, two norms 1,792: 14,912,384; × 24 = 357,897,216, + the tied embedding 151,936 × 896 =
// 136,134,656 + the final norm 896 = 494,032,768, Qwen/Qwen2-0.5B-Instruct's count (and Qwen2.5-
// 0.5B's). Its Q4_K_M file is then counted as theirs, 391,859,712 B (gguf_twins_test.go), where
// the bound on 422,395,904 parameters was 371,037,184 B, under the file it was to bound.
func TestQwen2_05BCounted(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Quant = "Qwen/Qwen2-0.5B", target.SizingKV, "Q4_K_M" })
	if !near(b.ParamsB, 0.494032768) || !strings.HasPrefix(b.ParamsFrom, "counted from config.json's shapes") {
		t.Errorf("params %v B from %q; want 0.494032768 from its shapes", b.ParamsB, b.ParamsFrom)
	}
	if got := b.ParamsB * 1e9 * b.BytesPerParam; math.Abs(got-391859712) > 1 || !strings.HasPrefix(b.WeightsRule, "GGUF Q4_K_M counted") {
		t.Errorf("weights %.0f B by %q; want 391,859,712 counted", got, b.WeightsRule)
	}
}

// microsoft/Phi-3-mini-128k-instruct: llmfit counts 2,917,072,895, an odd number no shapes of this
// model give. Its shapes (litgpt's Phi-3-mini-128k-instruct: 32 layers of width 3,072, 32 heads of
// 96, a fused q/k/v, a gated MLP of 8,192 with gate and up fused, vocabulary 32,064, its own LM
// head) are the 4k model's: a layer qkv 3,072 × 9,216 = 28,311,552 + o 9,437,184 + gate_up 3,072 ×
// 16,384 = 50,331,648 + down 25,165,824 + two norms 6,144 = 113,252,352; × 32 = 3,624,075,264, +
// the embedding and the head 2 × 32,064 × 3,072 = 197,001,216 + the final norm 3,072 =
// 3,821,079,552, microsoft/Phi-3-mini-4k-instruct's count. BF16: 7,642,159,104 B.
func TestPhi3Mini128kCounted(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "microsoft/Phi-3-mini-128k-instruct", target.SizingKV, "BF16"
	})
	if !near(b.ParamsB, 3.821079552) || !within(b.WeightsGB, 7.642159104, 1e-6) || !strings.HasPrefix(b.ParamsFrom, "counted from config.json's shapes") {
		t.Errorf("params %v B, weights %v GB from %q; want 3.821079552 and 7.642159104", b.ParamsB, b.WeightsGB, b.ParamsFrom)
	}
}

// Qwen3-0.6B, 1.7B: tied LM heads (tie_word_embeddings), counted once.
//
//	Qwen3-0.6B (width 1,024, 28 layers, 16 heads and 8 KV heads of 128, MLP 3,072): a layer q 1,024 ×
//	  2,048 = 2,097,152 + k, v 2 × 1,048,576 + o 2,097,152 + q/k norms 256 + MLP 3 × 1,024 × 3,072 =
//	  9,437,184 + two norms 2,048 = 15,730,944; × 28 = 440,466,432, + the embedding 151,936 × 1,024 =
//	  155,582,464 + 1,024 = 596,049,920; llmfit's 751,632,384 is that + 155,582,464, the stored copy.
//	Qwen3-1.7B (width 2,048, MLP 6,144): 4,194,304 + 2 × 2,097,152 + 4,194,304 + 256 + 37,748,736 +
//	  4,096 = 50,336,000; × 28 = 1,409,408,000 + 311,164,928 + 2,048 = 1,720,574,976 (Qwen3-1.7B-Base's
//	  count); llmfit's 2,031,739,904 is that + 311,164,928.
//	Qwen2.5-Coder-1.5B (width 1,536, 12 heads and 2 KV heads of 128 with q/k/v biases, MLP 8,960):
//	  q 2,360,832 + k, v 2 × 393,472 + o 2,359,296 + MLP 41,287,680 + norms 3,072 = 46,797,824; × 28 =
//	  1,310,339,072 + 233,373,696 + 1,536 = 1,543,714,304.
//
// BF16 weights: 1,192,099,840, 3,441,149,952 and 3,087,428,608 B (were 1,503,264,768, 4,063,479,808
// and 2,536,636,416).
func TestQwenTiedAndMiscountedCounted(t *testing.T) {
	for _, c := range []struct {
		model          string
		params, weight float64
	}{
		{"Qwen/Qwen3-0.6B", 0.59604992, 1.19209984},
		{"Qwen/Qwen3Guard-Gen-0.6B", 0.59604992, 1.19209984},
		{"Qwen/Qwen3-1.7B", 1.720574976, 3.441149952},
		{"Qwen/Qwen2.5-Coder-1.5B", 1.543714304, 3.087428608},
	} {
		b := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Quant = c.model, target.SizingKV, "BF16" })
		if !near(b.ParamsB, c.params) || !within(b.WeightsGB, c.weight, 1e-6) || !strings.HasPrefix(b.ParamsFrom, "counted from config.json's shapes") {
			t.Errorf("%s: params %v B, weights %v GB from %q; want %v and %v", c.model, b.ParamsB, b.WeightsGB, b.ParamsFrom, c.params, c.weight)
		}
	}
}

// mistralai/Mistral-7B-Instruct-v0.1: llmfit counts 6,036,652,032, which its shapes do not give.
// Width 4,096, 32 layers, 32 heads and 8 KV heads of 128, MLP 14,336, vocabulary 32,000, its own LM
// head: a layer q 16,777,216 + k, v 2 × 4,194,304 + o 16,777,216 + MLP 3 × 4,096 × 14,336 =
// 176,160,768 + two norms 8,192 = 218,112,000; × 32 = 6,979,584,000, + 2 × 32,000 × 4,096 =
// 262,144,000 + 4,096 = 7,241,732,096, mistralai/Mistral-7B-v0.1's count. BF16: 14,483,464,192 B.
func TestMistral7BInstructV01Counted(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "mistralai/Mistral-7B-Instruct-v0.1", target.SizingKV, "BF16"
	})
	if !near(b.ParamsB, 7.241732096) || !within(b.WeightsGB, 14.483464192, 1e-6) {
		t.Errorf("params %v B, weights %v GB; want 7.241732096 and 14.483464192", b.ParamsB, b.WeightsGB)
	}
}

// allenai/Olmo-3.1-32B-Instruct: llmfit counts 25,343,703,040, which its shapes do not give. Width
// 5,120, 64 layers, 40 heads and 8 KV heads of 128, MLP 27,648, vocabulary 100,278, its own LM head,
// q/k norms over the whole projections (5,120 + 1,024), two norms a layer: a layer 2 × 5,120² + 2 ×
// 5,120 × 1,024 + 6,144 + 3 × 5,120 × 27,648 + 10,240 = 487,604,224; × 64 = 31,206,670,336, + 2 ×
// 100,278 × 5,120 = 1,026,846,720 + 5,120 = 32,233,522,176, the catalog's count of Olmo-3-1125-32B
// and Olmo-3.1-32B-Think. BF16: 64,467,044,352 B.
func TestOlmo31Instruct32BCounted(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "allenai/Olmo-3.1-32B-Instruct", target.SizingKV, "BF16"
	})
	if !near(b.ParamsB, 32.233522176) || !within(b.WeightsGB, 64.467044352, 1e-6) || !strings.HasPrefix(b.ParamsFrom, "counted from config.json's shapes") {
		t.Errorf("params %v B, weights %v GB from %q; want 32.233522176 and 64.467044352", b.ParamsB, b.WeightsGB, b.ParamsFrom)
	}
}

// google/translategemma-4b-it (a Gemma-3-4B fine-tune): llmfit's 4,971,331,952 is gemma-3-4b-it's
// 4,300,079,472 + 262,208 × 2,560 = 671,252,480, a stored copy of the tied LM head, which vLLM's
// Gemma 3 loader skips. BF16: 8,600,158,944 B; gemma-3-4b-it itself keeps its count and says
// nothing of it.
func TestTranslateGemmaTiedHead(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "google/translategemma-4b-it", target.SizingKV, "BF16"
	})
	if !near(b.ParamsB, 4.300079472) || !within(b.WeightsGB, 8.600158944, 1e-6) || !strings.Contains(b.ParamsFrom, "is not the model's") {
		t.Errorf("params %v B, weights %v GB from %q; want 4.300079472 and 8.600158944", b.ParamsB, b.WeightsGB, b.ParamsFrom)
	}
	g := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Quant = "google/gemma-3-4b-it", target.SizingKV, "BF16" })
	if !near(g.ParamsB, 4.300079472) || g.ParamsFrom != "" {
		t.Errorf("gemma-3-4b-it: params %v B from %q; want 4.300079472 from its own count", g.ParamsB, g.ParamsFrom)
	}
}

// Re-uploads of the small Qwen3s without a row of their own that store the tied head's copy too
// take the counted model (params.go storesTiedHeadCopy): PrimeIntellect/Qwen3-0.6B's 751,632,384 =
// 596,049,920 + 151,936 × 1,024 (155,582,464); Qwen/Qwen3-1.7B-FP8's 2,031,825,920 = 1,720,574,976
// + 151,936 × 2,048 (311,164,928) + 86,016 FP8 scales; lmstudio-community/Qwen3-1.7B-MLX-8bit's
// 2,031,616,000 = 1,720,574,976 + 311,164,928 − 123,904. unsloth/gemma-3-4b-it-bnb-4bit's
// 4,413,663,232 is no such sum (4,300,079,472 + 671,252,480 = 4,971,331,952) and stays its own.
func TestTiedHeadCopyReuploads(t *testing.T) {
	for _, c := range []struct {
		model  string
		params float64
		copied bool
	}{
		{"PrimeIntellect/Qwen3-0.6B", 0.59604992, true},
		{"Qwen/Qwen3-1.7B-FP8", 1.720574976, true},
		{"lmstudio-community/Qwen3-1.7B-MLX-8bit", 1.720574976, true},
		{"unsloth/gemma-3-4b-it-bnb-4bit", 4.413663232, false},
	} {
		b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = c.model, target.SizingKV })
		if !near(b.ParamsB, c.params) || strings.Contains(b.ParamsFrom, "a copy of the tied LM head") != c.copied {
			t.Errorf("%s: params %v B from %q; want %v (copy %v)", c.model, b.ParamsB, b.ParamsFrom, c.params, c.copied)
		}
	}
}
