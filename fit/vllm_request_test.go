package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// vLLM's pool holds each request's recurrent state (a hybrid) and DeepSeek-V4's windows and
// compressor state beside the pages that grow with the context.
func TestVLLMRequestStateAndWindows(t *testing.T) {
	// Qwen3-Next-80B-A3B: 12 full-attention layers of 2 KV heads × 256 in bf16, 2,048 B a layer and
	// token; a request's recurrent state 19,759,104 × 2 B = 39,518,208 B (vLLM keeps Qwen3-Next's
	// convolution and delta-rule state in the model's bf16: vllm_state.go), 1,097,728 B in each of
	// its 36 Gated DeltaNet layers. vLLM pages that state (vllm_hybrid.go): the attention block is
	// 16 × ⌈1,097,728 / (16 × 2,048)⌉ = 16 × ⌈33.5⌉ = 544 tokens, a page 544 × 2,048 = 1,114,112 B
	// (the state padded by 16,384 B), groups of 12 layers (1 attention, 3 state).
	next := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Context = "Qwen/Qwen3-Next-80B-A3B-Instruct", "kv", target.EngineVLLM, 16384
	})
	in := VLLMInput{TP: 1, MaxTokens: 8192, Cache: vllmCacheOf(&next, 2)}
	g := newVLLMGroups(in)
	// 16,384 tokens: 12 layers × ⌈16,384 / 544⌉ = 31 pages + 36 state pages = 408 pages × 1,114,112 B
	// = 454,557,696 B (with 16-token pages and the state beside them it was 442,171,392)
	if got := g.needed(16384); got != 454557696 {
		t.Errorf("Qwen3-Next needs %v B for one request, want 454,557,696", got)
	}
	// blocks of 12 pages: 31 in the attention group + 1 in each of the 3 state groups = 34
	if got := g.requestBlocks(16384); got != 34 {
		t.Errorf("Qwen3-Next request blocks %d, want 34", got)
	}
	// on 4 devices each rank holds a quarter of the state (its heads), 274,432 B a layer, and its own
	// KV heads (2 heads over 4 ranks: one each, 1,024 B a layer and token): block 16 × ⌈274,432 /
	// 16,384 = 16.75⌉ = 272 tokens, page 278,528 B; (12 × ⌈16,384 / 272⌉ = 12 × 61 + 36) × 278,528 =
	// 768 × 278,528 = 213,909,504 B
	in.TP = 4
	if got := newVLLMGroups(in).needed(16384); got != 213909504 {
		t.Errorf("Qwen3-Next on 4 ranks needs %v B, want 213,909,504", got)
	}

	// DeepSeek-V4-Flash at 131,072 tokens, bf16, in the 256-token blocks V4 runs with
	// (VLLMDeepSeekV4BlockSize): the compressed entries 3,440 elements × 2 B = 6,880 B a token, pages
	// of 256 × 6,880 = 1,761,280 B, 512 of them = 901,775,360 B; each of the 43 layers' windows paged
	// as a sliding window with 8,192 batched tokens in flight, ⌈min(127 + 8,192, 131,072) / 256⌉ + 1 =
	// 33 + 1 = 34 pages of 256 tokens × 1,024 B = 8,912,896 B, × 43 = 383,254,528 B (in 16-token
	// pages 521 × 16 × 1,024 × 43 = 367,050,752); the compressors' state 12,206,080 B:
	// 1,297,235,968 B (1,281,032,192 in 16-token pages).
	flash := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Context = "deepseek-ai/DeepSeek-V4-Flash", "kv", target.EngineVLLM, 131072
	})
	in = VLLMInput{TP: 1, MaxTokens: 8192, Cache: vllmCacheOf(&flash, 2)}
	if got := newVLLMGroups(in).needed(131072); got != 1297235968 {
		t.Errorf("V4-Flash needs %v B for one request, want 1,297,235,968", got)
	}
	// every rank keeps all of it
	in.TP = 8
	if got := newVLLMGroups(in).needed(131072); got != 1297235968 {
		t.Errorf("V4-Flash on 8 ranks needs %v B, want 1,297,235,968 each", got)
	}
	// a request of 1,000 tokens takes ⌈1,000 / 256⌉ = 4 blocks of compressed entries (63 of 16)
	if got := newVLLMGroups(in).fullPages(1000); got != 4 {
		t.Errorf("V4-Flash: %d pages for 1,000 tokens, want 4", got)
	}
	// a request holds (KVDeviceShare) its windows of 128 tokens: 43 × 128 × 1,024 = 5,636,096 B
	if got := vllmCacheOf(&flash, 2).requestFixedBytes(1, 128); got != 5636096+12206080 {
		t.Errorf("V4-Flash held windows and state %v B", got)
	}
}
