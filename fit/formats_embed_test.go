package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// vLLM's logged weights of an FP8 release (data/vllm-train.tsv, llmd-03:
// RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic, tensor-parallel 2, 33.88 GiB per device). The
// embedding and the LM head stay 16-bit: 2 × 128,256 × 8,192 = 2,101,346,304 parameters;
// (70,560,423,936 − 2,101,346,304) × 1 B + 2,101,346,304 × 2 B = 72,661,770,240 B
// = 67.6716 GiB, 33.8358 per device (1 B for all gave 70,560,423,936 B = 32.8572).
func TestFP8WeightsAsVLLMLoadsThem(t *testing.T) {
	fp8 := func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Engine, tg.Count = "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", target.SizingKV, target.EngineVLLM, 2
	}
	b := resolve(t, fp8)
	if !within(b.WeightsGB, 72.66177024, 1e-8) {
		t.Errorf("weights %v GB, want 72.66177024", b.WeightsGB)
	}
	if in := VLLMInputFor(&b, 79.18, "NVIDIA H100 SXM 80GB"); !within(in.WeightsGiB, 33.8358, 1e-4) {
		t.Errorf("weights per device %.4f GiB, want 33.8358 (vLLM logged 33.88)", in.WeightsGiB)
	}
	// A GGUF type is a whole-file average already (formats.go): Q4_K_M is 4.58 GiB / 8,030,261,248
	// = 0.6124007 B for every parameter, no 16-bit embedding added.
	if b = resolve(t, func(tg *target.Target) { fp8(tg); tg.Quant = "Q4_K_M" }); b.BytesPerParam != 4.58*(1<<30)/8030261248.0 {
		t.Errorf("Q4_K_M: %v B per parameter", b.BytesPerParam)
	}
}
