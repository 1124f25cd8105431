package fit

import "github.com/fitclaim/fitclaim/target"

// DeepSeek sparse attention (DeepSeek-V3.2, GLM-5: index_head_dim 128 in their config.json) adds a
// lightning indexer to MLA, and vLLM caches its key beside the latent
// (vllm/model_executor/models/deepseek_v2.py, DeepseekV32IndexerCache: an MLAAttentionSpec of one
// head of index_head_dim + index_head_dim / 128 × 4 bytes, "fp8 naive cache": the key in fp8 and
// one fp32 scale per 128 values, whatever --kv-cache-dtype is): 128 + 4 = 132 B per layer and
// token, on every rank. With --kv-cache-dtype fp8 the sparse MLA kernels keep the latent as
// fp8_ds_mla: kv_lora_rank fp8 values, one fp32 scale per 128 of them and the RoPE key in bf16,
// 512 + 4 × 4 + 64 × 2 = 656 B, not 576 × 1. (llama.cpp runs these models without the indexer's
// cache; the kv line's formula is the latent alone.)
const (
	dsaQuantBlock  = 128 // values per fp32 scale in the fp8 indexer key and vLLM's fp8_ds_mla latent
	fp32ScaleBytes = 4
)

// vllmDSAExtraBytes is what vLLM keeps per layer and token beside the latent of a DSA model at
// elem bytes per cached element: the indexer key, and at fp8 the latent's scales and its RoPE
// key's second byte (vllmDSALatentBytes); 0 for a model without an indexer.
func vllmDSAExtraBytes(a *Architecture, elem float64) float64 {
	if a.IndexHeadDim <= 0 {
		return 0
	}
	return a.DSAIndexKeyBytes() + vllmDSALatentBytes(a, elem) - float64(a.KVLoraRank+a.QKRopeHeadDim)*elem
}

// vllmDSALatentBytes is one layer's latent of one token as vLLM's sparse MLA backends store and
// read it at elem bytes per cached element: at fp8 the fp8_ds_mla entry, 512 + 512 / 128 × 4 +
// 64 × 2 = 656 B for DeepSeek-V3.2 and GLM-5 (vllm/model_executor/layers/attention/
// mla_attention.py, MLAAttention.get_kv_cache_spec: state_content_bytes={"fp8_ds_mla": 656,
// "nvfp4_ds_mla": 352}, "ds_mla layouts pack NoPE + RoPE + scales into one opaque per-token
// blob"), not 576 × 1; else (kv_lora_rank + qk_rope_head_dim) × elem.
func vllmDSALatentBytes(a *Architecture, elem float64) float64 {
	if a.IndexHeadDim > 0 && elem == 1 { // fp8_ds_mla
		return float64(a.KVLoraRank + a.KVLoraRank/dsaQuantBlock*fp32ScaleBytes + a.QKRopeHeadDim*bf16Bytes)
	}
	return float64(a.KVLoraRank+a.QKRopeHeadDim) * elem
}

// VLLMDSAWords says, for a DSA model served by vLLM, what vLLM keeps beside the kv line's latent;
// "" otherwise.
func VLLMDSAWords(b *Bounds) string {
	a := &b.Arch
	if b.Engine != target.EngineVLLM || a.Attention != AttentionMLA || a.IndexHeadDim <= 0 {
		return ""
	}
	_, elem, _ := kvElementBytes(b.KVCache)
	s := "vLLM also keeps each layer's sparse-attention indexer key, " + itoa(a.IndexHeadDim) + " fp8 + a 4 B scale = " +
		itoa(a.IndexHeadDim+a.IndexHeadDim/dsaQuantBlock*fp32ScaleBytes) + " B a token"
	if elem == 1 {
		return s + ", and its fp8 latent as fp8_ds_mla, " + itoa(int(vllmDSALatentBytes(a, elem))) +
			" B (in the memory floor's KV blocks; the top-k latents are read at that size)"
	}
	return s + " (in the memory floor's KV blocks)"
}
