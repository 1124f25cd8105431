package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// vLLM pages a hybrid's recurrent state with the attention layers' block raised to hold it
// (vllm_hybrid.go). Hand figures:
//
//	Qwen3.6-35B-A3B, fp8 KV, one device: attention 2 KV heads × 256 × 2 × 1 B = 1,024 B a layer and
//	token; state 64,389,120 B / 30 layers = 2,146,304 B (3 × 8,192 × 2 + 32 × 128 × 128 × 4);
//	block 16 × ⌈2,146,304 / 16,384⌉ = 16 × 131 = 2,096 tokens, page 2,096 × 1,024 = 2,146,304 B;
//	groups of 10: 1 attention + 3 state = 4; a pool block 10 pages = 21,463,040 B.
//	At 5.98 GiB (data/vllm-train.tsv gh-17, prefix caching on): ⌊6,420,968,407 / 21,463,040⌋ =
//	299 blocks; a request of 131,072 tokens ⌈131,072 / 2,096⌉ = 63 + 3 × 2 = 69 blocks;
//	concurrency 299 / 69 = 4.3333 (logged 4.33), tokens ⌊4.3333 × 131,072⌋ = 567,978 (logged).
//	Without prefix caching (the Deployment's), 63 + 3 × 1 = 66 blocks: 299 / 66 = 4.5303, tokens
//	⌊39,190,528 / 66⌋ = 593,795.
//	Qwen3.5-4B, bf16: 4 KV heads × 256 × 2 × 2 B = 4,096 B a token; 13,172,736 elements of state in
//	24 layers, 589,824 of them bf16 convolution inputs: (589,824 × 2 + 12,582,912 × 4) / 24 =
//	2,146,304 B a layer; block 16 × ⌈2,146,304 / 65,536⌉ = 16 × 33 = 528 tokens, the block vLLM
//	0.19.1 logs for it (vllm-project/vllm#40696), page 528 × 4,096 = 2,162,688 B; groups of 8:
//	1 attention + 3 state.
//	Nemotron-3-Nano, bf16: 6 attention layers of 2 KV heads × 128: 2 × 2 × 128 × 2 B = 1,024 B a token; state (423,936 × 2 + 12,058,624 × 4 = 49,082,368 B) over
//	its 23 Mamba-2 layers = 2,134,016 B; block 16 × ⌈2,134,016 / 16,384⌉ = 16 × 131 = 2,096 tokens,
//	page 2,146,304 B (the state padded by 12,288 B); groups of 6: 1 attention + ⌈23 / 6⌉ = 4 state.
//	Qwen3.5-0.8B, bf16: 6 attention layers of 2 KV heads × 256: 2 × 2 × 256 × 2 B = 2,048 B a token;
//	18 Gated DeltaNet layers of 16 key / 16 value heads of 128: (331,776 × 2 + 4,718,592 × 4) / 18
//	= 19,537,920 / 18 = 1,085,440 B a layer; block 16 × ⌈1,085,440 / 32,768⌉ = 16 × 34 = 544
//	tokens, page 544 × 2,048 = 1,114,112 B; groups of 6: 1 attention + 3 state. Qwen3.5-2B: the same
//	attention and Gated DeltaNet layers (hidden 2,048, not 1,024): the same block and page (it kept
//	16-token pages and no state before its dims were sourced).
//	LFM2.5-1.2B, bf16: 6 attention layers of 8 KV heads × 64: 2 × 8 × 64 × 2 B = 2,048 B a token;
//	10 short-convolution layers of (3 − 1) × 2,048 bf16 inputs: 8,192 B a layer; block 16 ×
//	⌈8,192 / 32,768⌉ = 16 tokens, page 32,768 B (the state padded); groups of 6: 1 attention +
//	⌈10 / 6⌉ = 2 state.
//	Nemotron-Nano-9B-v2, bf16: 4 attention layers of 8 KV heads × 128: 2 × 8 × 128 × 2 B = 4,096 B
//	a token; 27 Mamba-2 layers (995,328 × 2 + 35,389,440 × 4 = 143,548,416 B) / 27 = 5,316,608 B a
//	layer; block 16 × ⌈5,316,608 / 65,536⌉ = 16 × 82 = 1,312 tokens, page 1,312 × 4,096 = 5,373,952
//	B; groups of 4: 1 attention + ⌈27 / 4⌉ = 7 state. Nemotron-Nano-12B-v2 (the VL's LM): 6 of the
//	same attention layers, 28 of the same Mamba-2 layers (1,032,192 × 2 + 36,700,160 × 4 =
//	148,865,024 B / 28 = 5,316,608): the same block and page; groups of 6: 1 + ⌈28 / 6⌉ = 5 state.
//	Nemotron-H-8B, bf16: 4 attention layers of 8 KV heads × 128 (4,096 B a token); 24 Mamba-2
//	layers of 128 heads × 64, state 128 (737,280 × 2 + 25,165,824 × 4 = 102,137,856 B) / 24 =
//	4,255,744 B a layer; block 16 × ⌈4,255,744 / 65,536⌉ = 16 × 65 = 1,040 tokens, page 1,040 ×
//	4,096 = 4,259,840 B; groups of 4: 1 attention + 6 state (before its row: 52 full layers, 16-token
//	pages, no state). Nemotron-H-56B: 10 such attention layers, 54 Mamba-2 layers of 256 × 64, state
//	256 ((3,317,760 × 2 + 226,492,416 × 4) / 54 = 16,900,096 B); block 16 × 258 = 4,128, page
//	16,908,288 B; groups of 10: 1 + ⌈54 / 10⌉ = 6 state.
//	Kimi-Linear-48B-A3B, bf16 (s16-arch): 7 MLA layers of one 512 + 64 latent, 1,152 B a token
//	(HybridAttentionMambaModelConfig sizes the attention page from MLAAttentionSpec when the model
//	uses MLA); 20 Kimi Delta Attention layers of 3 × 4,096 × 3 bf16 convolution inputs and 32 × 128 ×
//	128 fp32 state: 73,728 + 2,097,152 = 2,170,880 B a layer; block 16 × ⌈2,170,880 / 18,432⌉ = 16 ×
//	118 = 1,888 tokens, page 1,888 × 1,152 = 2,174,976 B; groups of 7: 1 attention + ⌈20 / 7⌉ = 3
//	state. (Before the MLA hybrid rule it kept 16-token pages of 27 layers' K and V.)
//	Zamba2-7B, bf16 (s16-arch): 13 applications of the shared attention, 32 KV heads × 224: 2 × 32 ×
//	224 × 2 B = 28,672 B a token; 81 Mamba-2 layers of 112 heads × 64, state 64, 2 groups, all in
//	bf16 (no hook): 481,024 × 2 = 962,048 B a layer; block 16 × ⌈962,048 / 458,752⌉ = 16 × 3 = 48
//	tokens, page 48 × 28,672 = 1,376,256 B; groups of 13: 1 attention + ⌈81 / 13⌉ = 7 state.
func TestVLLMPagesHybridState(t *testing.T) {
	for _, c := range []struct {
		model, kv     string
		block, count  int
		page          float64
		avail         float64 // GiB
		pages, blocks int
		conc          float64
		tokens        int64
	}{
		{"Qwen/Qwen3.6-35B-A3B", "fp8", 2096, 4, 2146304, 5.98, 2, 299, 299.0 / 69, 567978},
		{"Qwen/Qwen3.6-35B-A3B", "fp8", 2096, 4, 2146304, 5.98, 1, 299, 299.0 / 66, 593795},
		{"Qwen/Qwen3.5-4B", "fp16", 528, 4, 2162688, 0, 1, 0, 0, 0},
		{"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "fp16", 2096, 5, 2146304, 0, 1, 0, 0, 0},
		{"Qwen/Qwen3.5-0.8B", "fp16", 544, 4, 1114112, 0, 1, 0, 0, 0},
		{"Qwen/Qwen3.5-2B", "fp16", 544, 4, 1114112, 0, 1, 0, 0, 0},
		{"LiquidAI/LFM2.5-1.2B-Instruct", "fp16", 16, 3, 32768, 0, 1, 0, 0, 0},
		{"nvidia/NVIDIA-Nemotron-Nano-9B-v2", "fp16", 1312, 8, 5373952, 0, 1, 0, 0, 0},
		{"nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL-BF16", "fp16", 1312, 6, 5373952, 0, 1, 0, 0, 0},
		{"nvidia/Nemotron-H-8B-Base-8K", "fp16", 1040, 7, 4259840, 0, 1, 0, 0, 0},
		{"nvidia/Nemotron-H-56B-Base-8K", "fp16", 4128, 7, 16908288, 0, 1, 0, 0, 0},
		{"moonshotai/Kimi-Linear-48B-A3B-Instruct", "fp16", 1888, 4, 2174976, 0, 1, 0, 0, 0},
		{"Zyphra/Zamba2-7B-Instruct", "fp16", 48, 8, 1376256, 0, 1, 0, 0, 0},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Engine, t.KVCache = c.model, "kv", target.EngineVLLM, c.kv
		})
		_, elem, _ := kvElementBytes(b.KVCache)
		cache := vllmCacheOf(&b, elem)
		cache.StatePages = c.pages
		in := VLLMInput{TP: 1, MaxTokens: 8192, MaxModelLen: 131072, Cache: cache}
		g := newVLLMGroups(in)
		if g.fullBlock != c.block || (c.count > 0 && (g.count != c.count || g.page != c.page)) {
			t.Errorf("%s: block %d, %d groups, page %v B; want %d, %d, %v", c.model, g.fullBlock, g.count, g.page, c.block, c.count, c.page)
		}
		if c.avail == 0 {
			continue
		}
		r := VLLMLayout(in, c.avail)
		if r.KVBlocks != int64(c.blocks) || !near(r.MaxConcurrency, c.conc) || r.KVCacheTokens != c.tokens {
			t.Errorf("%s at %v GiB, %d state pages: %d blocks, %v×, %d tokens; want %d, %v, %d",
				c.model, c.avail, c.pages, r.KVBlocks, r.MaxConcurrency, r.KVCacheTokens, c.blocks, c.conc, c.tokens)
		}
	}
}

// Nemotron-Nano-9B-v2's state against a block vLLM logged: before vllm-project/vllm#39032 (merged
// 2026-04-05) a Nemotron-H whose config.json names no mamba_ssm_cache_dtype (#39032's description:
// the checkpoints either set it or their cards ask for --mamba-ssm-cache-dtype float32, as
// Nemotron-Nano-v2's do) kept the SSM state in 16 bits (float16 by #29978's default, before it the
// model's bf16), and vllm-project/vllm#24280 quotes the attention block that gave this model:
// 672 tokens. With the row's state in 16 bits throughout:
// 36,384,768 × 2 B / 27 Mamba-2 layers = 2,695,168 B a layer; block 16 × ⌈2,695,168 / (16 ×
// 4,096)⌉ = 16 × 42 = 672 tokens, as logged. (The fp32 state of the pinned v0.20.0 gives 1,312,
// TestVLLMPagesHybridState.)
func TestVLLMNemotronNano9BSixteenBitStateBlock(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine = "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "kv", target.EngineVLLM
	})
	b.Arch.SSMStateDtype = "" // the SSM state in the model's 16 bits
	_, elem, _ := kvElementBytes(b.KVCache)
	in := VLLMInput{TP: 1, MaxTokens: 8192, MaxModelLen: 131072, Cache: vllmCacheOf(&b, elem)}
	if g := newVLLMGroups(in); g.fullBlock != 672 {
		t.Errorf("block %d tokens, vLLM logged 672", g.fullBlock)
	}
}
