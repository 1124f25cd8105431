package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// gpt-oss's Q4_K_M files, counted with the experts in MXFP4 (gguf_mxfp4_experts.go), against
// llama-bench's size column for unsloth's gpt-oss-20b-Q4_K_M.gguf and gpt-oss-120b-Q4_K_M (a
// public llama-bench report of unsloth/gpt-oss-20b-GGUF and -120b-GGUF, llama.cpp b7541,
// Vulkan, ROCm and CPU alike): "gpt-oss 20B Q4_K - Medium 10.81 GiB 20.91 B" and "gpt-oss 120B
// Q4_K - Medium 58.45 GiB 116.83 B".
//
// gpt-oss-20b: width 2,880, 24 layers, 64 query and 8 KV heads of 64 (q rows 4,096, k and v 512),
// 32 experts of width 2,880, vocabulary 201,088, untied; 20,914,757,184 parameters (params.go).
//
//	experts 24 × 32 × 3 × 2,880 × 2,880 = 19,110,297,600 × 17/32 B (MXFP4) = 10,152,345,600 B
//	q 24 × 11,796,480 = 283,115,520 in Q5_0 (Q4_K's fallback at rows 2,880 wide): × 0.6875 = 194,641,920
//	k 24 × 1,474,560 = 35,389,440 × 0.6875 = 24,330,240
//	v: use_more_bits(i, 24) for 12 layers (0-2, 5, 8, 11, 14, 17, 20-23): Q6_K → Q8_0 (1.0625 B),
//	  12 in Q5_0: 12 × 1,474,560 × 1.75 = 30,965,760
//	o (rows 4,096 wide: Q4_K, 0.5625 B) 283,115,520 × 0.5625 = 159,252,480
//	token_embd 201,088 × 2,880 = 579,133,440 × 0.6875 (Q5_0) = 398,154,240; output × 1.0625 (Q8_0) = 615,329,280
//	router 24 × 2,880 × 32 = 2,211,840 and the rest 20,914,757,184 − 20,907,786,240 = 6,970,944, F32:
//	  9,182,784 × 4 = 36,731,136
//	= 11,611,750,656 B = 10.814 GiB; published 10.81 GiB.
//
// gpt-oss-120b: 36 layers, 128 experts, 116,829,156,672 parameters:
//
//	experts 36 × 128 × 3 × 8,294,400 = 114,661,785,600 × 17/32 = 60,914,073,600 B
//	q 424,673,280 × 0.6875 = 291,962,880; k 53,084,160 × 0.6875 = 36,495,360
//	v: use_more_bits(i, 36) for 18 layers (0-3, 6, 9, …, 30, 31-35): 18 × 1,474,560 × 1.75 = 46,448,640
//	o 424,673,280 × 0.5625 = 238,878,720; token_embd 398,154,240; output 615,329,280
//	router 36 × 2,880 × 128 = 13,271,040 and the rest 40,318,272, F32: 53,589,312 × 4 = 214,357,248
//	= 62,755,699,968 B = 58.446 GiB; published 58.45 GiB.
//
// The bound they replace: 16,520,230,050 B and 91,502,015,130 B, 42 % and 46 % over.
func TestGGUFMXFP4ExpertsAgainstPublished(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		model     string
		want      float64 // bytes, hand-computed above
		published float64 // GiB, llama-bench
	}{
		{"openai/gpt-oss-20b", 11611750656, 10.81},
		{"unsloth/gpt-oss-20b-GGUF", 11611750656, 10.81},
		{"openai/gpt-oss-120b", 62755699968, 58.45},
		{"unsloth/gpt-oss-120b-GGUF", 62755699968, 58.45},
	} {
		b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing, tg.Quant = c.model, target.SizingKV, "Q4_K_M" })
		got := b.ParamsB * 1e9 * b.BytesPerParam
		if math.Abs(got-c.want) > 1 {
			t.Errorf("%s: %.0f B, want %.0f", c.model, got, c.want)
		}
		if math.Abs(c.want/gib-c.published) > 0.005 {
			t.Errorf("%s: %.3f GiB, published %.2f", c.model, c.want/gib, c.published)
		}
		if !strings.HasPrefix(b.WeightsRule, "GGUF Q4_K_M counted tensor by tensor: the routed experts in MXFP4") ||
			!strings.Contains(b.WeightsRule, "Q4_K → Q5_0, Q6_K → Q8_0;") {
			t.Errorf("%s: rule %q", c.model, b.WeightsRule)
		}
	}
}

// A shape whose matrices do not account for the parameters (an override of the layers) is not
// counted: it falls back to the bound.
func TestGGUFMXFP4ExpertsShapeMismatch(t *testing.T) {
	s := ggufShape{hidden: 2880, layers: 23, heads: 64, kvHeads: 8, headDim: 64, vocab: 201088, experts: 32}
	if b, ok := ggufMXFP4ExpertCount(ggufRecipes["Q4_K_M"], s, 2880, 20914757184); ok {
		t.Errorf("23 layers counted: %.0f B", b)
	}
}
