package fit

import (
	"strings"
	"testing"
)

// "Try increasing gpu_memory_utilization" is vLLM's advice when the budget is short; it is wrong
// when no utilization can help, and vLLM never gets that far when the weights alone exceed the
// device: it fails loading them (CUDA out of memory).
func TestVLLMReasonWhenNoUtilizationHelps(t *testing.T) {
	cache := VLLMCache{FullLayers: 32, KVHeads: 8, HeadDim: 128, ElemBytes: 2}
	// DeepSeek-R1's FP8 weights on one H100: 637.52 GiB of weights > 79.18 GiB.
	r := VLLM(VLLMInput{TotalGiB: 79.18, Device: "NVIDIA H100 SXM 80GB", WeightsGiB: 637.52, Vocab: 129280, Hidden: 7168,
		MaxModelLen: 8192, Cache: cache})
	if r.Starts || !strings.HasPrefix(r.Reason, "CUDA out of memory while loading the weights: 637.52 GiB per device, more than the device's 79.18 GiB") ||
		strings.Contains(r.Reason, "gpu_memory_utilization") {
		t.Errorf("weights beyond the device: %q", r.Reason)
	}
	// 76 GiB of weights on 79.18: activation (H100 defaults: 1024 sequences, 8192 tokens)
	// 9.52 × 1024 × 152,064 × 4 B + 1.43 × 8192 × 5120 × 2 B = 9.52 × 0.580078 + 1.43 × 0.078125
	// = 5.522344 + 0.111719 = 5.634063 GiB; with 0.112 non-torch 81.746 GiB > 79.18 at any
	// utilization, even 1.
	r = VLLM(VLLMInput{TotalGiB: 79.18, Device: "NVIDIA H100 SXM 80GB", WeightsGiB: 76, Vocab: 152064, Hidden: 5120,
		MaxModelLen: 8192, Cache: cache})
	if r.Starts || !strings.HasPrefix(r.Reason, "No available memory for the cache blocks.") ||
		!strings.Contains(r.Reason, "weights 76.00 + activation 5.63 + non-torch 0.11 GiB exceed the device's 79.18 GiB at any gpu_memory_utilization") ||
		strings.Contains(r.Reason, "Try increasing") {
		t.Errorf("short at any utilization: %q", r.Reason)
	}
}
