package estimate

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// The contract's vLLM fields: Qwen2-7B-Instruct BF16 at 32,768 tokens on a device CUDA counts as
// 18 GiB. Available KV 0.9 × 18 − 14.185191 (weights) − 1.400137 (activation) − 0.112
// (non-torch) = 0.502672 GiB = 588 blocks of 917,504 B = 9408 tokens; a request of 32,768 tokens
// takes 2048 blocks: 588 / 2048 = 0.287×; it needs 1.75 GiB, so vLLM does not start, and 9408
// tokens is the longest that would. The floor (15.697328 + 1.75) / 0.9 = 19.39 GiB (the CUDA
// graphs' 1.12 GiB fit in the 10 % outside the budget); the longest context within it is vLLM's
// own, 9408 tokens (15.697328 + 9408 × 57,344 B = 0.502441 GiB = 16.199769 ≤ 0.9 × 18 = 16.2).
func TestJSONVLLM(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Quant, tg.Context = "Qwen/Qwen2-7B-Instruct", "BF16", 32768
	e, err := fit.EstimateVLLM(tg, fit.Device{MemoryGiB: 18, BandwidthGBs: 300, Family: fit.FamilyNVIDIA})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fits":false,"needGiB":19.39,"usableGiB":18,"maxContextTokens":9408,"maxSequences":0,` +
		`"engine":"vLLM V1 engine v0.11–v0.20","kvCacheGiB":0.5,"kvCacheTokens":9408,"maxConcurrency":0.29,"starts":false,` +
		`"maxModelLen":9408,"reason":"To serve at least one request with the model's max seq len (32768), (1.75 GiB KV cache is needed, ` +
		`which is larger than the available KV cache memory (0.50 GiB). Based on the available memory, the estimated maximum model length ` +
		"is 9408. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\"}"
	if got := JSON(e); got != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
}

// Under vLLM the text's longest context is the memory floor's, and the floor's budget is vLLM's
// (the CUDA graphs fit in the share outside it), so it is the context vLLM's own KV cache holds:
// on an L4 (22.16 GiB as CUDA counts it) Qwen3-8B BF16 has 23104 tokens in both lines, where the
// floor with 1.12 GiB added on top said 15760 beside vLLM's 23104.
func TestTextVLLMLongestContextIsVLLMs(t *testing.T) {
	e, err := RunRaw("m=Qwen/Qwen3-8B&on=nvidia-l4&engine=vllm")
	if err != nil {
		t.Fatal(err)
	}
	text := Text(e)
	if e.VLLM == nil || e.MaxContextTokens != e.VLLM.KVCacheTokens || e.MaxContextTokens != 23104 ||
		!strings.Contains(text, "longest context: 23104 tokens × 1 sequence; most sequences at 8192 tokens: ") {
		t.Errorf("longest context %d, vLLM's cache %+v:\n%s", e.MaxContextTokens, e.VLLM, text)
	}
}
