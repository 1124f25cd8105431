package fit

// The KV cache per layer kind. Every formula is data/architectures.md § "KV-cache bytes per
// token" (b = bytes per cached element, T = tokens one sequence holds), written once here.

// KVCacheBytes is the KV cache one sequence of tokens holds, at elem bytes per cached element
// (see KVElementBytes). It is 0 when the shape is incomplete (CachesKV is false): the caller
// then uses llmfit's per-parameter estimate.
func (a *Architecture) KVCacheBytes(tokens int, elem float64) float64 {
	if !a.CachesKV() || tokens <= 0 {
		return 0
	}
	t := float64(tokens)
	switch a.Attention {
	case AttentionMLA:
		// MLA (DeepSeek-V2/V3/R1, Kimi-K2, GLM-4.7-Flash/5): one compressed latent per layer per
		// token, not a K/V pair per head: layers × (kv_lora_rank + qk_rope_head_dim) × b × T.
		// (The DSA indexer key of DeepSeek-V3.2/GLM-5 is left out, as the data does not give it.)
		return float64(a.Layers) * float64(a.KVLoraRank+a.QKRopeHeadDim) * elem * t
	case AttentionHybrid:
		// Hybrid (Qwen3-Next/3.5, Nemotron-H): only the full-attention layers grow a cache,
		// full_attention_layers × 2 × kv_heads × head_dim × b × T. The linear/SSM layers' fixed
		// state per sequence is not in the data and is not counted.
		return float64(a.FullAttentionLayers) * kvPairBytes(a.KVHeads, a.HeadDim, elem) * t
	default:
		// GQA/MHA/MQA: 2 (K and V) × layers × kv_heads × head_dim × b × T, where a sliding-window
		// (or chunked) layer holds min(T, window) tokens.
		sliding := min(max(a.SlidingLayers, 0), a.Layers)
		if a.SlidingWindow <= 0 {
			sliding = 0
		}
		held := float64(a.Layers-sliding)*t + float64(sliding)*float64(min(tokens, a.SlidingWindow))
		return kvPairBytes(a.KVHeads, a.HeadDim, elem) * held
	}
}

// kvPairBytes is one layer's K and V for one token: 2 × kv_heads × head_dim × b.
func kvPairBytes(kvHeads, headDim int, elem float64) float64 {
	return 2 * float64(kvHeads) * float64(headDim) * elem
}
