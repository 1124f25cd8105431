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
// Q8_0: the experts in MXFP4 and everything else in Q8_0 but the F32 router, biases and norms,
// which is llama.cpp's MXFP4_MOE file type: ggml-org's gpt-oss-20b-mxfp4.gguf and
// gpt-oss-120b-mxfp4, "gpt-oss 20B MXFP4 MoE 11.27 GiB 20.91 B" (llama-bench, many public runs)
// and "gpt-oss 120B MXFP4 MoE 59.02 GiB 116.83 B" (ggml-org/llama.cpp#19922):
//
//	20b: 10,152,345,600 + (637,009,920 attention + 1,158,266,880 embedding and output) × 1.0625
//	  = 1,907,481,600 + 36,731,136 F32 = 12,096,558,336 B = 11.266 GiB
//	120b: 60,914,073,600 + (955,514,880 + 1,158,266,880) × 1.0625 = 2,245,893,120 + 214,357,248
//	  = 63,374,323,968 B = 59.022 GiB
//
// ggufFormats' Q8_0 figure, the Llama-3-8B file's 8.51 bits everywhere, put them at 22.26 and
// 124.35 GB, 84 % and 96 % over.
//
// The bound they replace: 16,520,230,050 B and 91,502,015,130 B, 42 % and 46 % over.
func TestGGUFMXFP4ExpertsAgainstPublished(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		model, quant string
		want         float64 // bytes, hand-computed above
		published    float64 // GiB, llama-bench
		rule         string
	}{
		{"openai/gpt-oss-20b", "Q4_K_M", 11611750656, 10.81, "Q4_K → Q5_0, Q6_K → Q8_0;"},
		{"unsloth/gpt-oss-20b-GGUF", "Q4_K_M", 11611750656, 10.81, "Q4_K → Q5_0, Q6_K → Q8_0;"},
		{"openai/gpt-oss-120b", "Q4_K_M", 62755699968, 58.45, "Q4_K → Q5_0, Q6_K → Q8_0;"},
		{"unsloth/gpt-oss-120b-GGUF", "Q4_K_M", 62755699968, 58.45, "Q4_K → Q5_0, Q6_K → Q8_0;"},
		{"openai/gpt-oss-20b", "Q8_0", 12096558336, 11.27, "the rest in Q8_0, as in llama.cpp's MXFP4_MOE files;"},
		{"openai/gpt-oss-120b", "Q8_0", 63374323968, 59.02, "the rest in Q8_0, as in llama.cpp's MXFP4_MOE files;"},
	} {
		b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing, tg.Quant = c.model, target.SizingKV, c.quant })
		got := b.ParamsB * 1e9 * b.BytesPerParam
		if math.Abs(got-c.want) > 1 {
			t.Errorf("%s %s: %.0f B, want %.0f", c.model, c.quant, got, c.want)
		}
		if math.Abs(c.want/gib-c.published) > 0.005 {
			t.Errorf("%s %s: %.3f GiB, published %.2f", c.model, c.quant, c.want/gib, c.published)
		}
		if !strings.HasPrefix(b.WeightsRule, "GGUF "+c.quant+" counted tensor by tensor: the routed experts in MXFP4") ||
			!strings.Contains(b.WeightsRule, c.rule) {
			t.Errorf("%s %s: rule %q", c.model, c.quant, b.WeightsRule)
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
