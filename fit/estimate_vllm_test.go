package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

func qwen2Target(ctx int) target.Target {
	tg := target.Default()
	tg.Model, tg.Quant, tg.Context = "Qwen/Qwen2-7B-Instruct", "BF16", ctx
	return tg
}

// Qwen2-7B-Instruct in BF16 on one A100 80GB (catalog device: CUDA total 79.15 GiB).
func TestEstimateVLLMStarts(t *testing.T) {
	e, err := EstimateVLLM(qwen2Target(16384), Device{On: "nvidia-a100-sxm-80"})
	if err != nil {
		t.Fatal(err)
	}
	r := e.VLLM
	// weights 7,615,616,512 × 2 / 2^30 = 14.185191; A100 limits 256 / 2048: activation
	// 9.52 × 256 × 152,064 × 4 / 2^30 + 1.43 × 2048 × 3584 × 2 / 2^30 = 1.400137;
	// available 0.9 × 79.15 − 14.185191 − 1.400137 − 0.112 = 55.537672 GiB
	if e.Engine != VLLMEngine || r == nil || r.MaxNumSeqs != 256 || r.MaxTokens != 2048 {
		t.Fatalf("%+v", e)
	}
	nearly(t, "kvCacheGiB", r.KVCacheGiB, 55.537672, 1e-5)
	// a block: 16 × 28 × 2 × 4 × 128 × 2 B = 917,504 B: 64,994.9 → 64,994 blocks; ÷ 1024 a request
	if r.KVCacheTokens != 64994*16 || !r.Starts {
		t.Errorf("tokens %d, starts %v", r.KVCacheTokens, r.Starts)
	}
	nearly(t, "maxConcurrency", r.MaxConcurrency, 64994.0/1024, 1e-12)
	// floor: (14.185191 + 1.400137 + 0.112 + 16,384 × 57,344 B = 0.875) / 0.9 = 18.413698 (the
	// CUDA graphs' 1.12 GiB fit in the 10 % outside: 1.12 / 0.1 = 11.2 < 18.41)
	nearly(t, "needGiB", e.NeedGiB, 18.413698, 1e-5)
	nearly(t, "usableGiB", e.UsableGiB, 79.15, 1e-12)
	if !e.Fits || e.TokensPerSecond <= 0 || e.Reason != "" {
		t.Errorf("fits %v, %v tok/s, %q", e.Fits, e.TokensPerSecond, e.Reason)
	}
}

// By numbers, --memory is CUDA's total: 18 GiB leaves 0.9 × 18 − 14.185191 − 1.400137 − 0.112
// = 0.502672 GiB, 588 blocks, and 32,768 tokens need 1.75 GiB: vLLM does not start, and the
// longest context that would is 588 × 16 = 9408 tokens.
func TestEstimateVLLMDoesNotStart(t *testing.T) {
	e, err := EstimateVLLM(qwen2Target(32768), Device{MemoryGiB: 18, BandwidthGBs: 300, Family: FamilyNVIDIA})
	if err != nil {
		t.Fatal(err)
	}
	r := e.VLLM
	nearly(t, "kvCacheGiB", r.KVCacheGiB, 0.502672, 1e-5)
	if r.Starts || r.MaxModelLen != 9408 || !strings.Contains(r.Reason, "(1.75 GiB KV cache is needed") {
		t.Errorf("%+v", r)
	}
	// floor (14.185191 + 1.400137 + 0.112 + 1.75) / 0.9 = 19.385920 > 18
	nearly(t, "needGiB", e.NeedGiB, 19.385920, 1e-5)
	if e.Fits || e.TokensPerSecond != 0 || !strings.HasPrefix(e.Reason, "vLLM needs 19.39 GiB per device") {
		t.Errorf("fits %v %v %q", e.Fits, e.TokensPerSecond, e.Reason)
	}
}

// vLLM's arguments are checked by the table, and belong to engine vllm.
func TestEstimateVLLMOptionErrors(t *testing.T) {
	for _, c := range []struct {
		mut   func(*target.Target)
		field string
	}{
		{func(t *target.Target) { t.Engine, t.GPUMemoryUtilization = target.EngineVLLM, 1.5 }, "gpuMemoryUtilization"},
		{func(t *target.Target) { t.Engine, t.GPUMemoryUtilization = target.EngineVLLM, -0.1 }, "gpuMemoryUtilization"},
		{func(t *target.Target) { t.Engine, t.MaxNumSeqs = target.EngineVLLM, -1 }, "maxNumSeqs"},
		{func(t *target.Target) { t.Engine, t.MaxNumBatchedTokens = target.EngineVLLM, target.MaxContext+1 }, "maxNumBatchedTokens"},
		{func(t *target.Target) { t.Engine = "sglang" }, "engine"},
		{func(t *target.Target) { t.Engine, t.MaxNumSeqs = target.EngineLlamaCpp, 8 }, "maxNumSeqs"}, // not llama.cpp's
	} {
		tg := qwen2Target(1024)
		c.mut(&tg)
		_, err := EstimateOn(tg, Device{On: "nvidia-l4"})
		fe, ok := err.(*target.FieldError)
		if !ok || fe.Field != c.field {
			t.Errorf("%+v: %v", tg, err)
		}
	}
	// a claim under vLLM with llmfit sizing keeps llmfit's floor (parity); kv sizing has vLLM's
	tg := qwen2Target(1024)
	tg.Engine = target.EngineVLLM
	b, err := Resolve(tg)
	if err != nil || b.Engine != "" {
		t.Errorf("engine vllm with llmfit sizing: %v, %q", err, b.Engine)
	}
}
