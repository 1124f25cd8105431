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
// tokens is the longest that would. The floor (15.697328 + 1.75) / 0.9 + 1.12 = 20.51 GiB;
// with the weights, activation and non-torch over 0.9 (17.44 GiB) plus 1.12 above 18, no context fits.
func TestJSONVLLM(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Quant, tg.Context = "Qwen/Qwen2-7B-Instruct", "BF16", 32768
	e, err := fit.EstimateVLLM(tg, fit.Device{MemoryGiB: 18, BandwidthGBs: 300, Family: fit.FamilyNVIDIA})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fits":false,"needGiB":20.51,"usableGiB":18,"maxContextTokens":0,"maxSequences":0,` +
		`"engine":"vLLM V1 engine v0.11–v0.20","kvCacheGiB":0.5,"kvCacheTokens":9408,"maxConcurrency":0.29,"starts":false,` +
		`"maxModelLen":9408,"reason":"To serve at least one request with the model's max seq len (32768), (1.75 GiB KV cache is needed, ` +
		`which is larger than the available KV cache memory (0.50 GiB). Based on the available memory, the estimated maximum model length ` +
		"is 9408. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\"}"
	if got := JSON(e); got != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
}

// The text's longest-context line under vLLM says it is the memory floor's, which keeps the CUDA
// graphs' 1.12 GiB: on an L4 (22.16 GiB as CUDA counts it) Qwen3-8B BF16 at 8192 tokens has a
// floor-bound longest context of about (22.16 − 1.12) × 0.9 − 15.26 − 1.40 − 0.11 = 2.17 GiB of
// KV, while vLLM's own cache fills 0.9 × 22.16 − 16.77 = 3.17 GiB; without the words the two
// lines read as a contradiction. Under llama.cpp the line has no such words.
func TestTextVLLMLongestContextSaysFloor(t *testing.T) {
	words := " (within the memory floor, which keeps 1.12 GiB for CUDA graphs beside vLLM's budget; " +
		"the KV cache vLLM allocates at start-up, above, may hold more)\n"
	for _, engine := range []string{"vllm", "llama.cpp"} {
		e, err := RunRaw("m=Qwen/Qwen3-8B&on=nvidia-l4&engine=" + engine)
		if err != nil {
			t.Fatal(err)
		}
		text := Text(e)
		line := text[strings.LastIndex(text, "longest context: "):]
		if got := strings.HasSuffix(line, words); got != (engine == "vllm") {
			t.Errorf("%s: the floor's words said: %v; line %q", engine, got, line)
		}
	}
}
