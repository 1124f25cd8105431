package fit

import "math"

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
	case AttentionCSA:
		return a.csaCacheBytes(t, elem)
	case AttentionHybrid:
		// Hybrid (Qwen3-Next/3.5, Nemotron-H): only the full-attention layers grow a cache,
		// full_attention_layers × 2 × kv_heads × head_dim × b × T, beside the linear/SSM layers'
		// state of one sequence, fixed in size (RecurrentStateBytes; 0 where the data lacks it). A
		// model without attention (RecurrentOnly: Mamba) has no full layer, only the state.
		return float64(a.FullAttentionLayers)*a.hybridLayerTokenBytes(elem)*t + a.RecurrentStateBytes()
	default:
		// GQA/MHA/MQA: 2 (K and V) × layers × kv_heads × head_dim × b × T, where a sliding-window
		// (or chunked) layer holds min(T, window) tokens, a full layer its own KV heads and head
		// size where they differ (Gemma-4's global layers), and a layer that reuses an earlier
		// one's cache (Gemma-4 E2B/E4B) none.
		full, sliding := a.CachedLayers()
		fullHeads, fullDim := a.FullLayerShape()
		held := float64(full)*a.kvPairBytes(fullHeads, fullDim, elem)*t +
			float64(sliding)*a.kvPairBytes(a.KVHeads, a.HeadDim, elem)*float64(min(tokens, max(a.SlidingWindow, 0)))
		return held
	}
}

// HybridLatent is the MLA latent a hybrid's attention layers cache per token, kv_lora_rank +
// qk_rope_head_dim, where its row gives one (Kimi-Linear: 7 MLA layers among 20 Kimi Delta
// Attention layers, 512 + 64); 0 for a hybrid whose attention layers keep K and V per KV head
// (Qwen3-Next/3.5, Nemotron-H, Granite-4.0-H, …). The one rule for a hybrid of MLA layers: its
// attention layers are sized as an MLA row's layers (KVCacheBytes, vLLM's pages: vllm_bounds.go),
// its other layers as any hybrid's state.
func (a *Architecture) HybridLatent() int {
	if a.Attention != AttentionHybrid {
		return 0
	}
	return max(0, a.KVLoraRank+a.QKRopeHeadDim)
}

// hybridLayerTokenBytes is one of a hybrid's attention layers for one token: its MLA latent
// (HybridLatent) × b, else K and V of its KV heads.
func (a *Architecture) hybridLayerTokenBytes(elem float64) float64 {
	if l := a.HybridLatent(); l > 0 {
		return float64(l) * elem
	}
	return a.kvPairBytes(a.KVHeads, a.HeadDim, elem)
}

// CachedLayers are the full-attention and the sliding-window layers that keep a cache of their
// own. Where the last KVSharedLayers reuse earlier layers' caches (Gemma-4 E4B: 18 of 42), only
// the first layers keep one, and of those the full layers are the same share as of all layers,
// rounded down, as Gemma places every (layers / full layers)-th layer global: E4B's first 24 of
// 42 hold 7 × 24 / 42 = 4 full and 20 sliding layers, E2B's first 15 of 35 hold 7 × 15 / 35 = 3
// and 12 (num_kv_shared_layers 18 and 20, data/architectures.md § Gemma-4).
func (a *Architecture) CachedLayers() (full, sliding int) {
	sliding = min(max(a.SlidingLayers, 0), a.Layers)
	if a.SlidingWindow <= 0 {
		sliding = 0
	}
	full = a.Layers - sliding
	if s := a.KVSharedLayers; s > 0 && s < a.Layers {
		own := a.Layers - s
		f := full * own / a.Layers
		return f, own - f
	}
	return full, sliding
}

// FullLayerShape is a full-attention layer's KV heads and head size: the global layers' own
// where the data gives them (Gemma-4: 4 or 2 KV heads of 512), else every layer's.
func (a *Architecture) FullLayerShape() (kvHeads, headDim int) {
	kvHeads, headDim = a.KVHeads, a.HeadDim
	if a.GlobalKVHeads > 0 {
		kvHeads = a.GlobalKVHeads
	}
	if a.GlobalHeadDim > 0 {
		headDim = a.GlobalHeadDim
	}
	return kvHeads, headDim
}

// kvPairBytes is one layer's K and V for one token: 2 × kv_heads × head_dim × b, or kv_heads ×
// (head_dim + v_head_dim) × b where the values have their own size (VDim).
func (a *Architecture) kvPairBytes(kvHeads, headDim int, elem float64) float64 {
	return float64(kvHeads) * float64(headDim+a.VDim(headDim)) * elem
}

// VDim is the value heads' size beside keys of headDim: VHeadDim where the model states one
// (MiMo-V2-Flash: 128 beside 192), else headDim.
func (a *Architecture) VDim(headDim int) int {
	if a.VHeadDim > 0 {
		return a.VHeadDim
	}
	return headDim
}

// DeepSeek-V4's compressed attention, as both releases configure it (config.json of
// deepseek-ai/DeepSeek-V4-Flash, copied in AI-Hypercomputer/maxtext
// src/maxtext/checkpoint_conversion/utils/hf_model_configs.py#deepseek4_284b_dict, and of
// deepseek-ai/DeepSeek-V4-Pro): compress_ratios holds only 0 (window only), 4 and 128, and
// index_head_dim is 128.
const (
	CSACompressRatio = 4   // a CSA layer keeps one entry per 4 tokens (overlapping windows of 8)
	HCACompressRatio = 128 // an HCA layer keeps one entry per 128 tokens
	CSAIndexHeadDim  = 128 // the lightning indexer's key, one per CSA entry
	// compressorStateBytes is the element of a compressor's state, fp32 whatever the cache's type:
	// the reference implementation (deepseek-ai/DeepSeek-V4 inference/model.py, Compressor) keeps
	// kv_state and score_state of (coff × ratio, coff × head_dim) floats per sequence, coff = 2
	// for the overlapping ratio-4 compressors and 1 for ratio 128.
	compressorStateBytes = 4
)

// csaCacheBytes is DeepSeek-V4's cache of t tokens (data/architectures.md § "KV-cache bytes per
// token"). An entry is one vector of kv_heads × head_dim (1 × 512) that serves as both key and
// value, so there is no factor 2. Every layer keeps its last sliding_window tokens uncompressed;
// a CSA layer adds t/4 compressed entries, each with an indexer key of 128, and an HCA layer t/128
// entries:
//
//	layers × d × min(T, window) + CSA layers × (d + 128) × T/4 + HCA layers × d × T/128,  × b
//
// with d = kv_heads × head_dim. For V4-Pro at 1,048,576 tokens in bf16 this is 9.62 GiB, vLLM's
// own figure (vllm.ai/blog/deepseek-v4). Beside it each sequence holds its compressors' state of
// the tokens not yet compressed (CSAStateBytes), fixed in size.
func (a *Architecture) csaCacheBytes(t, elem float64) float64 {
	d := float64(a.KVHeads) * float64(a.HeadDim)
	window := t
	if a.SlidingWindow > 0 {
		window = min(t, float64(a.SlidingWindow))
	}
	entries := float64(a.Layers)*d*window +
		float64(a.CSALayers)*(d+CSAIndexHeadDim)*t/CSACompressRatio +
		float64(a.HCALayers)*d*t/HCACompressRatio
	return entries*elem + a.CSAStateBytes()
}

// KVReadBytes is the KV cache one decoded token of one sequence reads at tokens of context, at
// elem bytes per element: all of it (KVCacheBytes), but for DeepSeek-V4's compressed attention,
// whose CSA layers attend to only the IndexTopK compressed entries the lightning indexer picks,
// and for DeepSeek sparse attention (MLA with an indexer: DeepSeek-V3.2, GLM-5), whose layers
// attend to only the IndexTopK tokens' latents (dsaReadBytes). An engine that runs DSA densely
// reads the whole cache instead (Bounds.kvShape decides).
func (a *Architecture) KVReadBytes(tokens int, elem float64) float64 {
	if a.IndexTopK > 0 && a.CachesKV() && tokens > 0 {
		switch {
		case a.Attention == AttentionCSA:
			return a.csaReadBytes(float64(tokens), elem)
		case a.sparseMLA():
			return a.dsaReadBytes(float64(tokens), float64(a.KVLoraRank+a.QKRopeHeadDim)*elem)
		}
	}
	return a.KVCacheBytes(tokens, elem)
}

// sparseMLA reports DeepSeek sparse attention: an MLA model with a lightning indexer whose key
// width and top-k the data gives.
func (a *Architecture) sparseMLA() bool {
	return a.Attention == AttentionMLA && a.IndexHeadDim > 0 && a.IndexTopK > 0
}

// DSAIndexKeyBytes is one layer's lightning-indexer key for one token: index_head_dim fp8 values
// and one fp32 scale per 128 of them, whatever the latent's type: 128 + 4 = 132 B for DeepSeek-V3.2
// and GLM-5. The reference keeps it so (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py, Indexer:
// k_cache float8_e4m3fn, k_scale_cache float32 of index_head_dim / block_size 128), and so does
// vLLM (DeepseekV32IndexerCache, fit/vllm_dsa.go).
func (a *Architecture) DSAIndexKeyBytes() float64 {
	return float64(a.IndexHeadDim + a.IndexHeadDim/dsaQuantBlock*fp32ScaleBytes)
}

// dsaReadBytes is what a decoded token of a DSA model reads of a cache of t tokens whose latents
// take latent bytes each: in every layer the indexer key of every token (the indexer scores them
// all) and the latents of the top-k tokens it selects (all of them while t ≤ top-k):
//
//	layers × (indexer key × T + latent × min(T, top-k)),  latent = (kv_lora_rank + qk_rope_head_dim) × b
//
// (vLLM's fp8 latent is larger, fp8_ds_mla's 656 B: vllmDSALatentBytes)
//
// (the Indexer of the reference inference/model.py keeps index_topk tokens; vLLM's sparse MLA
// backends, vllm/v1/attention/backends/mla/flashmla_sparse.py, gather only those tokens' latents;
// config.json's index_topk is 2,048 for DeepSeek-V3.2(-Exp), in DeepseekV32Config as lmdeploy and
// torchtitan-npu copy it, and for GLM-5, as jd-opensource/xllm's glm5.h reads zai-org/GLM-5's).
// DeepSeek-V3.2 at 131,072 tokens in bf16: 61 × (132 × 131,072 + 576 × 2 × 2,048) =
// 61 × (17,301,504 + 2,359,296) = 1,199,308,800 B, 1.20 GB, where the latents alone are
// 61 × 1,152 × 131,072 = 9,210,691,584 B, 9.21 GB.
func (a *Architecture) dsaReadBytes(t, latent float64) float64 {
	return float64(a.Layers) * (a.DSAIndexKeyBytes()*t + latent*min(t, float64(a.IndexTopK)))
}

// csaReadBytes is what a decoded token of DeepSeek-V4 reads of a cache of t tokens: every layer's
// window, a CSA layer's indexer key of every compressed entry (the indexer scores them all) and
// the top-k entries it selects, an HCA layer's every entry (it attends to all of them, densely):
//
//	(layers × d × min(T, window) + CSA layers × (128 × T/4 + d × min(T/4, top-k)) + HCA layers × d × T/128) × b
//
// (the reference inference/model.py: Indexer scores all compressed keys and keeps index_topk;
// config.json's index_topk is 512 for V4-Flash, 1,024 for V4-Pro). V4-Flash at 131,072 tokens in
// bf16: 43 × 512 × 128 + 21 × (128 × 32,768 + 512 × 512) + 20 × 512 × 1,024 = 106,889,216
// elements, 0.214 GB, where the whole cache is 0.920 GB. The compressors' state is left out: it
// is read once per compression, ratio tokens apart (V4-Flash: 0.5 MB a token, 0.004 % of its
// 11.7 GB of weights).
func (a *Architecture) csaReadBytes(t, elem float64) float64 {
	d := float64(a.KVHeads) * float64(a.HeadDim)
	window := t
	if a.SlidingWindow > 0 {
		window = min(t, float64(a.SlidingWindow))
	}
	entries := t / CSACompressRatio
	read := float64(a.Layers)*d*window +
		float64(a.CSALayers)*(CSAIndexHeadDim*entries+d*min(entries, float64(a.IndexTopK))) +
		float64(a.HCALayers)*d*t/HCACompressRatio
	return read * elem
}

// CSAStateBytes is one sequence's compressor state: kv and score, fp32, of coff × ratio tokens ×
// coff × width each, in every CSA layer (its entries' compressor, d wide, and its indexer's, 128
// wide, both overlapping: coff 2) and HCA layer (coff 1):
//
//	CSA layers × 2 × 4 B × (8 × 2d + 8 × 256) + HCA layers × 2 × 4 B × 128 × d
//
// V4-Flash: 21 × 81,920 + 20 × 524,288 = 12,206,080 B; V4-Pro: 30 × 81,920 + 31 × 524,288 =
// 18,710,528 B.
func (a *Architecture) CSAStateBytes() float64 {
	if a.Attention != AttentionCSA {
		return 0
	}
	d := float64(a.KVHeads) * float64(a.HeadDim)
	overlap := float64(2 * CSACompressRatio) // coff × ratio tokens, coff = 2
	csa := overlap*2*d + overlap*2*CSAIndexHeadDim
	hca := float64(HCACompressRatio) * d
	return 2 * compressorStateBytes * (float64(a.CSALayers)*csa + float64(a.HCALayers)*hca)
}

// csaTokenElements is the compressed entries' elements per token over all layers, rounded up:
// CSA layers × (d + 128)/4 + HCA layers × d/128 (V4-Flash: 21 × 160 + 20 × 4 = 3,440).
func (a *Architecture) csaTokenElements() int {
	d := float64(a.KVHeads) * float64(a.HeadDim)
	return int(math.Ceil(float64(a.CSALayers)*(d+CSAIndexHeadDim)/CSACompressRatio + float64(a.HCALayers)*d/HCACompressRatio))
}

// recurrentStateElementBytes is an element of a hybrid model's recurrent state: fp32, whatever
// the KV cache's type. Qwen3.5's config.json asks for it (mamba_ssm_dtype "float32", in AI-
// Hypercomputer/maxtext hf_model_configs.py#qwen3_5_35b_a3b_dict), and llama.cpp keeps the
// recurrent states of its Mamba and Gated DeltaNet layers in F32.
const recurrentStateElementBytes = 4

// RecurrentStateBytes is one sequence's linear-attention / SSM state (architectures.csv's
// recurrent_state): per Gated DeltaNet layer value_heads × key_dim × value_dim plus the
// convolution's last kernel − 1 inputs of 2 × key_heads × key_dim + value_heads × value_dim, per
// Mamba-2 layer heads × head_dim × state plus (heads × head_dim + 2 × groups × state) × (kernel −
// 1), in fp32: Qwen3.5-122B-A10B 39,075,840 × 4 = 156,303,360 B. 0 where the data lacks it.
func (a *Architecture) RecurrentStateBytes() float64 {
	if a.Attention != AttentionHybrid {
		return 0
	}
	return float64(a.RecurrentState) * recurrentStateElementBytes
}
