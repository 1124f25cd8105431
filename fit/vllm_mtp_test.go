package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// DeepSeek-R1 under vLLM is sized without its multi-token-prediction layer, which vLLM loads only
// for speculative decoding (vllm_mtp.go); llama.cpp keeps the GGUF's count:
//
//	params   684,531,386,000 (the catalog) − 13,463,429,888 (the MTP layer) = 671,067,956,112
//	weights  FP8 with the embedding and the head in BF16 (2 × 129,280 × 7,168 = 1,853,358,080):
//	         671,067,956,112 × 1 B + 1,853,358,080 × 1 B more = 672,921,314,192 B = 672.92 GB
//	llama.cpp-style (the default engine): 684,531,386,000 + 1,853,358,080 = 686,384,744,080 B
//
// The main model from its shapes is 671,026,512,896; the 41,443,216 left are the FP8 block scales.
func TestVLLMLeavesOutDeepSeekMTP(t *testing.T) {
	v := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Count = "deepseek-ai/DeepSeek-R1", "kv", target.EngineVLLM, 8
	})
	if !near(v.ParamsB, 671.067956112) || !near(v.WeightsGB, 672.921314192) ||
		!strings.HasSuffix(v.ParamsFrom, "vLLM loads 671.07B: the 684.53B less the 13.46B multi-token-prediction layer, which it loads only for speculative decoding") {
		t.Errorf("vLLM: %v B, %v GB, %q", v.ParamsB, v.WeightsGB, v.ParamsFrom)
	}
	l := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Count = "deepseek-ai/DeepSeek-R1", "kv", 8 })
	if !near(l.ParamsB, 684.531386) || !near(l.WeightsGB, 686.38474408) || strings.Contains(l.ParamsFrom, "multi-token") {
		t.Errorf("llama.cpp: %v B, %v GB, %q", l.ParamsB, l.WeightsGB, l.ParamsFrom)
	}
	// The active count is the same for both (the MTP layer never counted in it): 37,552,391,168.
	if !near(v.ActiveParamsB, 37.552391168) || !near(l.ActiveParamsB, 37.552391168) {
		t.Errorf("active: vLLM %v, llama.cpp %v", v.ActiveParamsB, l.ActiveParamsB)
	}
	// DeepSeek-V3.2's MTP layer holds an indexer too: 685,396,921,376 − 13,477,390,136 = 671,919,531,240.
	d := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Count = "deepseek-ai/DeepSeek-V3.2", "kv", target.EngineVLLM, 8
	})
	if !near(d.ParamsB, 671.91953124) {
		t.Errorf("V3.2 under vLLM: %v B", d.ParamsB)
	}
	// llmfit mode never moves.
	m := resolve(t, func(t *target.Target) { t.Model, t.Engine = "deepseek-ai/DeepSeek-R1", target.EngineVLLM })
	if !near(m.ParamsB, 684.531386) {
		t.Errorf("llmfit mode: %v B", m.ParamsB)
	}
}
