package fit

import "github.com/fitclaim/fitclaim/target"

// The dtypes vLLM keeps a hybrid model's recurrent state in, by default. Each linear-attention /
// Mamba layer keeps two parts (vllm/model_executor/layers/mamba/mamba_utils.py,
// MambaStateDtypeCalculator._mamba_state_dtype, which gated_delta_net_state_dtype and
// mamba2_state_dtype call): the convolution's last inputs in --mamba-cache-dtype, "auto" = the
// model's dtype (bf16 for these models), and the SSM / delta-rule state in --mamba-ssm-cache-dtype,
// "auto" = the convolution's dtype. Before that, vllm/model_executor/models/config.py sets
// mamba_ssm_cache_dtype, when it is "auto", from the model's config:
//
//   - Qwen3.5/3.6 (Qwen3_5[Moe]ForConditionalGeneration: Qwen3_5ForConditionalGenerationConfig):
//     config.json's mamba_ssm_dtype, "float32";
//   - Nemotron-H (NemotronHForCausalLM: NemotronHForCausalLMConfig): config.json's
//     mamba_ssm_cache_dtype, else float32 ("Only float32 is known to have no accuracy issues");
//     that default is vllm-project/vllm#39032's (merged 2026-04-05; the pinned v0.20.0 has it);
//     releases without it kept a checkpoint that names none (Nemotron-Nano-9B/12B-v2, whose cards
//     ask for --mamba-ssm-cache-dtype float32) in 16 bits (#29978's float16, before it bf16): half
//     the SSM state counted here, so under those releases the floor errs high. vllm#24280's
//     672-token block for Nemotron-Nano-9B-v2 is that 16-bit state (vllm_hybrid_test.go), where
//     the fp32 one gives 1,312;
//   - Qwen3-Next and Qwen3-Coder-Next (Qwen3NextForCausalLM) have no such hook: both parts bf16.
//
// architectures.csv carries, per row, the convolution's share of recurrent_state
// (recurrent_conv_state) and the SSM state's dtype under vLLM (ssm_state_dtype: "float32", or
// empty for the model's). llama.cpp keeps both parts in F32 (RecurrentStateBytes).

// VLLMRecurrentStateBytes is one request's recurrent state as vLLM keeps it by default: the
// convolutions' inputs in bf16 and the rest in SSMStateDtype (fp32, else bf16). Qwen3.5-122B-A10B:
// 1,327,104 × 2 + (39,075,840 − 1,327,104) × 4 = 2,654,208 + 150,994,944 = 153,649,152 B, where
// fp32 throughout is 156,303,360; Qwen3-Next-80B-A3B: 19,759,104 × 2 = 39,518,208 B, half its
// 79,036,416. A row without the split (an override) is counted in fp32, as llama.cpp keeps it.
func (a *Architecture) VLLMRecurrentStateBytes() float64 {
	if a.Attention != AttentionHybrid {
		return 0
	}
	if a.RecurrentConvState <= 0 || a.RecurrentConvState > a.RecurrentState {
		return a.RecurrentStateBytes()
	}
	ssm := float64(bf16Bytes)
	if a.SSMStateDtype == "float32" {
		ssm = recurrentStateElementBytes
	}
	conv := float64(a.RecurrentConvState)
	return conv*bf16Bytes + (float64(a.RecurrentState)-conv)*ssm
}

// SequenceStateBytes is one sequence's recurrent state as the sized engine keeps it: vLLM's
// dtypes under vLLM (VLLMRecurrentStateBytes), fp32 under llama.cpp (RecurrentStateBytes).
func (b *Bounds) SequenceStateBytes() float64 {
	if b.Engine == target.EngineVLLM {
		return b.Arch.VLLMRecurrentStateBytes()
	}
	return b.Arch.RecurrentStateBytes()
}

// RecurrentStateDtypeWords names the dtypes SequenceStateBytes counts the state in, for the kv
// line: "fp32", "bf16" (Qwen3-Next under vLLM) or "bf16 convolution + fp32 SSM".
func (b *Bounds) RecurrentStateDtypeWords() string {
	a := &b.Arch
	if b.Engine != target.EngineVLLM || a.RecurrentConvState <= 0 || a.RecurrentConvState > a.RecurrentState {
		return "fp32"
	}
	if a.SSMStateDtype == "float32" {
		return "bf16 convolution + fp32 SSM"
	}
	return "bf16"
}
