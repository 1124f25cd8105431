package fit

import "testing"

// vLLM keeps a hybrid's convolution inputs in bf16 and its SSM / delta-rule state in fp32 for
// Qwen3.5 and Nemotron-H (their config hooks), in bf16 for Qwen3-Next; llama.cpp keeps both in F32.
func TestVLLMRecurrentStateDtypes(t *testing.T) {
	for _, c := range []struct {
		model          string
		vllm, llamaCpp float64
	}{
		// 36 Gated DeltaNet layers × 3 × (2 × 16 × 128 + 64 × 128) = 1,327,104 conv elements:
		// 1,327,104 × 2 + (39,075,840 − 1,327,104) × 4 = 2,654,208 + 150,994,944; fp32: 39,075,840 × 4
		{"Qwen/Qwen3.5-122B-A10B", 153649152, 156303360},
		// 36 layers × 3 × (2 × 16 × 128 + 32 × 128) = 884,736 conv; all bf16: 19,759,104 × 2
		{"Qwen/Qwen3-Next-80B-A3B-Instruct", 39518208, 79036416},
		// 40 Mamba-2 layers × (128 × 64 + 2 × 8 × 128) × 3 = 1,228,800 conv:
		// 1,228,800 × 2 + (43,171,840 − 1,228,800) × 4 = 2,457,600 + 167,772,160; fp32: 43,171,840 × 4
		{"nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16", 170229760, 172687360},
		// 23 Mamba-2 layers × (64 × 64 + 2 × 8 × 128) × 3 = 423,936 conv:
		// 423,936 × 2 + (12,482,560 − 423,936) × 4 = 847,872 + 48,234,496; fp32: 12,482,560 × 4
		{"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 49082368, 49930240},
	} {
		a := archOf(t, c.model)
		if got := a.VLLMRecurrentStateBytes(); got != c.vllm {
			t.Errorf("%s: vLLM keeps %v B, want %v", c.model, got, c.vllm)
		}
		if got := a.RecurrentStateBytes(); got != c.llamaCpp {
			t.Errorf("%s: llama.cpp keeps %v B, want %v", c.model, got, c.llamaCpp)
		}
	}
	// without the split (an override of the state alone) vLLM's is counted as llama.cpp's
	a := archOf(t, "Qwen/Qwen3.5-122B-A10B")
	a.RecurrentConvState = 0
	if got := a.VLLMRecurrentStateBytes(); got != 156303360 {
		t.Errorf("no split: %v B, want fp32's 156,303,360", got)
	}
}
