package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// vLLM's cache per layer and token for DeepSeek-V3.2 (DSA, index_head_dim 128), every rank whole:
//
//	bf16: latent (512 + 64) × 2 = 1,152 B + indexer key 128 fp8 + one 4 B scale = 132 B → 1,284 B
//	fp8:  fp8_ds_mla 512 + 512/128 × 4 + 64 × 2 = 656 B + 132 B → 788 B
//
// and for DeepSeek-R1 (no indexer) the latent alone, 1,152 B.
func TestVLLMDSACache(t *testing.T) {
	for _, c := range []struct {
		model, kv string
		want      float64
	}{
		{"deepseek-ai/DeepSeek-V3.2", "fp16", 1284},
		{"deepseek-ai/DeepSeek-V3.2", "fp8", 788},
		{"deepseek-ai/DeepSeek-R1", "fp16", 1152},
	} {
		b := resolve(t, func(tg *target.Target) {
			tg.Model, tg.Sizing, tg.Engine, tg.KVCache, tg.Count = c.model, target.SizingKV, target.EngineVLLM, c.kv, 8
		})
		_, elem, _ := kvElementBytes(b.KVCache)
		if got := vllmCacheOf(&b, elem).layerTokenBytes(8); got != c.want {
			t.Errorf("%s %s: %v B a layer and token on each of 8 devices, want %v", c.model, c.kv, got, c.want)
		}
	}
}
