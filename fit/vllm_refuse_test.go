package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Qwen3-8B's config.json: max_position_embeddings 40,960, 32 attention heads (architectures.csv).
// vLLM refuses 65,536 tokens before any memory is counted; the longest it starts is 40,960, which
// an H100's budget holds (one request of 40,960 × 147,456 B = 6.04 GB of KV beside 16.4 GB of
// weights). 32 heads divide by 1, 2, 4 and 8, not by 3, 5, 6 or 7.
func TestVLLMRefusal(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Quant, tg.Sizing, tg.Engine, tg.Context = "Qwen/Qwen3-8B", "BF16", target.SizingKV, target.EngineVLLM, 65536
	e, err := EstimateOn(tg, Device{On: "nvidia-h100-sxm"})
	if err != nil {
		t.Fatal(err)
	}
	if r := e.VLLM; r.Starts || r.MaxModelLen != 40960 || !strings.HasPrefix(r.Reason, "vLLM refuses --max-model-len 65536, above the model's 40960 tokens") {
		t.Errorf("65,536 tokens: starts %v, longest %d, %q", r.Starts, r.MaxModelLen, r.Reason)
	}
	tg.Context = 40960
	if e, err = EstimateOn(tg, Device{On: "nvidia-h100-sxm"}); err != nil || !e.VLLM.Starts {
		t.Errorf("40,960 tokens: %+v, %v", e.VLLM, err)
	}
	tg.Count = 3
	if e, err = EstimateOn(tg, Device{On: "nvidia-h100-sxm"}); err != nil || e.VLLM.Starts || e.VLLM.MaxModelLen != 0 ||
		!strings.Contains(e.VLLM.Reason, "32 attention heads do not divide by it; set count to one of 1, 2, 4 or 8") {
		t.Errorf("3 devices: %+v, %v", e.VLLM, err)
	}
	for tp, ok := range map[int]bool{1: true, 2: true, 3: false, 4: true, 5: false, 6: false, 7: false, 8: true} {
		if VLLMTensorParallelOK(32, tp) != ok {
			t.Errorf("32 heads, %d devices: ok %v", tp, !ok)
		}
	}
	if !VLLMTensorParallelOK(0, 3) { // heads unknown: not refused
		t.Error("unknown heads refused")
	}
}

// vLLM has no q8_0 or q4_0 KV cache (llama.cpp's types): `fitclaim deploy` said so, but the
// estimate under vLLM said "vLLM starts: GPU KV cache size 689264 tokens" for Qwen3-8B with a
// q8_0 cache on an H100, and a kv claim with engine vllm sized it without a word.
func TestVLLMRefusesLlamaCppKVCache(t *testing.T) {
	for _, kv := range []string{"q8_0", "q4_0"} {
		tg := target.Default()
		tg.Model, tg.KVCache, tg.Engine, tg.On = "Qwen/Qwen3-8B", kv, target.EngineVLLM, "nvidia-h100-sxm"
		e, err := EstimateOn(tg, DeviceOf(&tg))
		if err != nil {
			t.Fatal(err)
		}
		want := "vLLM has no " + kv + " KV cache (it is llama.cpp's): set kvCache fp8, or engine llama.cpp"
		if e.VLLM == nil || e.VLLM.Starts || e.VLLM.MaxModelLen != 0 || e.VLLM.Reason != want {
			t.Errorf("%s: %+v", kv, e.VLLM)
		}
	}
	for _, kv := range []string{"fp16", "fp8"} {
		tg := target.Default()
		tg.Model, tg.KVCache, tg.Engine, tg.On = "Qwen/Qwen3-8B", kv, target.EngineVLLM, "nvidia-h100-sxm"
		if e, err := EstimateOn(tg, DeviceOf(&tg)); err != nil || !e.VLLM.Starts {
			t.Errorf("%s: %v %+v", kv, err, e.VLLM)
		}
	}
}

// The estimate under vLLM of weights vLLM would not load said "vLLM starts" on the weights it
// was sized for (Qwen3-8B at Q4_K_M, a GGUF type: 4.67 GiB, GPU KV cache 443248 tokens), where
// `fitclaim deploy` said vLLM would load the 16-bit checkpoint; now it does not start, with
// deploy's words. What vLLM loads as sized (BF16, FP8, Q8_0 as fp8, a quantized checkpoint as it
// is) still starts.
func TestVLLMRefusesWeightsItWouldNotLoad(t *testing.T) {
	for _, c := range []struct {
		model, quant string
		starts       bool
	}{
		{"Qwen/Qwen3-8B", "Q4_K_M", false}, {"Qwen/Qwen3-8B", "MXFP4", false}, {"Qwen/Qwen3-8B", "mlx-4bit", false},
		{"Qwen/Qwen3-8B", "", true}, {"Qwen/Qwen3-8B", "BF16", true}, {"Qwen/Qwen3-8B", "FP8", true}, {"Qwen/Qwen3-8B", "Q8_0", true},
		{"Qwen/Qwen3-8B-AWQ", "", true}, {"openai/gpt-oss-120b", "", true},
	} {
		tg := target.Default()
		tg.Model, tg.Quant, tg.Engine, tg.On = c.model, c.quant, target.EngineVLLM, "nvidia-h100-sxm"
		e, err := EstimateOn(tg, DeviceOf(&tg))
		if err != nil {
			t.Fatal(err)
		}
		_, _, why := VLLMWeights(&e.Bounds)
		if e.VLLM.Starts != c.starts || !c.starts && (e.VLLM.Reason != why || why == "" || e.VLLM.MaxModelLen != 0) {
			t.Errorf("%s %s: starts %v (want %v), reason %q", c.model, c.quant, e.VLLM.Starts, c.starts, e.VLLM.Reason)
		}
	}
}
