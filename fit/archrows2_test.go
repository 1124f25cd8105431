package fit

import "testing"

// Architecture rows added in the fourteenth session's second pass (s14-arch2): entries that had
// no row, so kv mode read llmfit's fields (every layer a full K/V pair per KV head, and the
// catalog's context, often × a RoPE factor). Each case is its KV cache at a context, its real
// maximum context and its floor under llama.cpp's reserve with drv=nvidia; was is the KV llmfit's
// fields gave, 0 where they were right (the max context fails on the old data then).
func TestMoreArchRowsSized(t *testing.T) {
	checkRowsSized(t, []rowSized{
		// DeepSeek-V2 236B family (MLA): 60 × (512 + 64) × 2 B a token, not 2 × 60 × 128 × 40 × 2 B
		{"deepseek-ai/DeepSeek-Coder-V2-Instruct", 32768, 8, AttentionMLA, 2264924160, 40265318400, 163840, 56},
		{"casperhansen/deepseek-coder-v2-instruct-awq", 32768, 8, AttentionMLA, 2264924160, 40265318400, 163840, 16},
		{"RedHatAI/DeepSeek-V2.5-1210-FP8", 32768, 8, AttentionMLA, 2264924160, 40265318400, 163840, 29},
		// Moonlight-16B-A3B (DeepSeek-V3's MLA): 27 × (512 + 64) × 2 B a token, not 2 × 27 × 16 × 128 × 2 B
		{"moonshotai/Moonlight-16B-A3B", 8192, 1, AttentionMLA, 254803968, 1811939328, 8192, 31},
		{"moonshotai/Moonlight-16B-A3B-Instruct", 8192, 1, AttentionMLA, 254803968, 1811939328, 8192, 31},
		// Kimi-VL-A3B (its language model is Moonlight's tensors): 27 × 576 × 2 B a token, not 2 × 27 × 16 × 128 × 2 B
		{"moonshotai/Kimi-VL-A3B-Instruct", 32768, 1, AttentionMLA, 1019215872, 7247757312, 131072, 33},
		{"moonshotai/Kimi-VL-A3B-Thinking", 32768, 1, AttentionMLA, 1019215872, 7247757312, 131072, 33},
		// EXAONE-4.0-32B and 4.5-33B (3 sliding : 1 full, window 4096): 2 × (16 × T + 48 × 4,096) × 8 × 128 × 2 B,
		// not 64 full layers; max context 131,072 / 262,144, not × the RoPE factor 16
		{"LGAI-EXAONE/EXAONE-4.5-33B", 32768, 1, AttentionGQA, 2952790016, 8589934592, 262144, 68},
		{"LGAI-EXAONE/EXAONE-4.5-33B-AWQ", 32768, 1, AttentionGQA, 2952790016, 8589934592, 262144, 22},
		{"LGAI-EXAONE/EXAONE-4.5-33B-FP8", 32768, 1, AttentionGQA, 2952790016, 8589934592, 262144, 37},
		{"LGAI-EXAONE/EXAONE-4.0-32B", 32768, 1, AttentionGQA, 2952790016, 8589934592, 131072, 64},
		{"LGAI-EXAONE/EXAONE-4.0-32B-AWQ", 32768, 1, AttentionGQA, 2952790016, 8589934592, 131072, 21},
		{"LGAI-EXAONE/EXAONE-4.0-32B-FP8", 32768, 1, AttentionGQA, 2952790016, 8589934592, 131072, 35},
		// Olmo-3 / 3.1 32B (3 sliding : 1 full, window 4096), 65,536 tokens, not × the RoPE factor 8;
		// 3.1-32B-Instruct's weights on its shapes' count too (params_test.go): 56 -> 64 Gi
		{"allenai/Olmo-3-1125-32B", 32768, 1, AttentionGQA, 2952790016, 8589934592, 65536, 64},
		{"allenai/Olmo-3.1-32B-Think", 32768, 1, AttentionGQA, 2952790016, 8589934592, 65536, 64},
		{"allenai/Olmo-3.1-32B-Instruct", 32768, 1, AttentionGQA, 2952790016, 8589934592, 65536, 64},
		// Command R7B (Cohere2: 3 sliding at 4,096 : 1 full): 2 × (8 × T + 24 × 4,096) × 8 × 128 × 2 B; before,
		// no architecture in the catalog: llmfit's per-parameter estimate (8.42 GB), a 4,096 placeholder context
		{"CohereLabs/c4ai-command-r7b-12-2024", 131072, 1, AttentionGQA, 4697620480, 0, 132096, 21},
		// granite-4.0-h-tiny (hybrid: 4 attention layers of 40, 36 Mamba-2 layers' state, 58.06 MB in fp32):
		// 4 × 2 × 4 × 128 × 2 B × T + 14,515,200 × 4 B, not 40 full layers
		{"ibm-granite/granite-4.0-h-tiny", 32768, 1, AttentionHybrid, 326496256, 2684354560, 131072, 14},
		// LFM2-2.6B (8 attention layers of 30, 22 short convolutions: 90,112 elements of state): 8 × 2 × 8 × 64 ×
		// 2 B × T + 90,112 × 4 B, not 30 full layers
		{"LiquidAI/LFM2-2.6B", 32768, 1, AttentionHybrid, 537231360, 2013265920, 128000, 6},
		{"LiquidAI/LFM2-2.6B-Exp", 32768, 1, AttentionHybrid, 537231360, 2013265920, 128000, 6},
		{"LiquidAI/LFM2-2.6B-Transcript", 32768, 1, AttentionHybrid, 537231360, 2013265920, 128000, 6},
		// NVIDIA-Nemotron-3-Nano-4B (4 attention layers of 42, 21 Mamba-2 layers' fp32 state, 85.03 MB): 4 × 2 × 8
		// × 128 × 2 B × T + 21,256,704 × 4 B, not 42 full layers; weights on the shapes' 3.97 B, not llmfit's 5.37 B
		{"nvidia/NVIDIA-Nemotron-3-Nano-4B-BF16", 32768, 1, AttentionHybrid, 621897728, 5637144576, 262144, 9},
		{"nvidia/NVIDIA-Nemotron-3-Nano-4B-FP8", 32768, 1, AttentionHybrid, 621897728, 5637144576, 262144, 6},
		{"unsloth/NVIDIA-Nemotron-3-Nano-4B", 32768, 1, AttentionHybrid, 621897728, 5637144576, 262144, 9},
		// Command R v01 (MHA: 40 layers × 64 KV heads × 128): no architecture in the catalog, so llmfit's
		// per-parameter estimate, 9.30 / 9.18 GB at 32,768 tokens, under-sized the cache 4.6×; the 4-bit
		// release's context was a 4,096 placeholder
		{"CohereLabs/c4ai-command-r-v01-4bit", 32768, 1, AttentionMHA, 42949672960, 0, 131072, 62},
		{"CohereForAI/c4ai-command-r-v01", 32768, 1, AttentionMHA, 42949672960, 0, 131072, 107},
		// EXAONE-4.0-1.2B: every layer full (llmfit's KV), only the context was × 16
		{"LGAI-EXAONE/EXAONE-4.0-1.2B", 32768, 1, AttentionGQA, 2013265920, 0, 65536, 5},
	})
}
