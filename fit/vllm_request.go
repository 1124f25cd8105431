package fit

// What vLLM allocates for each request beside the pages that grow with its context.
//
//   - A hybrid model's linear-attention / Mamba layers (Qwen3-Next/3.5, Nemotron-H) keep one
//     recurrent state per request: vLLM gives each such layer a MambaSpec whose page is the
//     layer's state (vllm/v1/kv_cache_interface.py: MambaSpec.page_size_bytes, and
//     max_memory_usage_bytes = one page per request with the mamba cache mode "none"), padded to
//     the attention page, whose block size vLLM raises until that page holds the state
//     (vllm/model_executor/models/config.py, HybridAttentionMambaModelConfig). Its heads are
//     split over tensor parallelism, so each rank holds 1/tp of the state. Where the state layers
//     are known (VLLMCache.StateLayers) the state is paged so, padding and groups included
//     (vllm_hybrid.go), and is no longer fixed bytes beside the pages; the state is counted in the dtypes
//     vLLM keeps it in by default (vllm_state.go: the convolutions' inputs bf16, the SSM state
//     fp32 for Qwen3.5/3.6 and Nemotron-H, bf16 for Qwen3-Next), not in the kv line's fp32.
//   - DeepSeek-V4 keeps, in every layer, a 128-token window of uncompressed entries, which vLLM
//     pages as a sliding window (vllm/model_executor/layers/deepseek_v4_attention.py,
//     DeepseekV4SWACache): SlidingWindowSpec.max_memory_usage_bytes, ⌈min(window − 1 +
//     max_num_batched_tokens, L) / block⌉ + 1 pages a layer (blocks of 256 tokens, as V4 runs:
//     VLLMDeepSeekV4BlockSize), the prefill chunk in flight beside the window; and each compressing layer's compressor state (DeepseekCompressor), whole on every
//     rank as the single KV head is.
//
// These bytes join the start-up check (one request of --max-model-len) and each request's blocks
// (the pool is counted in whole blocks of page × group size).

// requestFixedBytes is one request's fixed state and windows on one of tp devices, for a request
// whose window holds held tokens beside the in-flight chunk: the caller passes min(n, window)
// for the bytes a request keeps (deviceBytes), windowPages for vLLM's reservation.
func (c VLLMCache) requestFixedBytes(tp, held int) float64 {
	state := c.StateBytes
	if c.StateSplit {
		state /= float64(max(1, tp))
	}
	return state + float64(max(0, c.WindowLayers))*c.WindowTokenBytes*float64(max(0, held))
}

// vllmRequestBytes is requestFixedBytes as vLLM reserves it for a request of n tokens with
// batched tokens in flight: each window layer's pages as SlidingWindowSpec counts them.
func (c VLLMCache) vllmRequestBytes(tp, n, batched int) float64 {
	held := 0
	if c.WindowLayers > 0 && c.Window > 0 {
		held = (ceilDiv(min(c.Window-1+batched, n), c.blockSize()) + 1) * c.blockSize()
	}
	return c.requestFixedBytes(tp, held)
}
