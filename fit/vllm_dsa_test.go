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

// vLLM's sparse MLA backends read an fp8 latent as the fp8_ds_mla entry it is stored as, 656 B
// (vllmDSALatentBytes), not 576: DeepSeek-V3.2 under vLLM at 131,072 tokens, fp8, one sequence:
//
//	61 × (132 × 131,072 + 656 × 2,048) = 61 × (17,301,504 + 1,343,488) = 61 × 18,644,992 = 1,137,344,512 B
//
// (with 576: 61 × 18,481,152 = 1,127,350,272); in bf16 the latent stays 1,152 B:
// 61 × (17,301,504 + 1,152 × 2,048 = 2,359,296) = 1,199,308,800; llama.cpp reads every latent,
// 61 × 576 × 131,072 = 4,605,345,792 B at fp8.
func TestVLLMDSAReadsFP8DSMLA(t *testing.T) {
	v32 := archOf(t, "deepseek-ai/DeepSeek-V3.2")
	if got1, got2 := vllmDSALatentBytes(&v32, 1), vllmDSALatentBytes(&v32, 2); got1 != 656 || got2 != 1152 {
		t.Errorf("latent: fp8 %v B, bf16 %v B; want 656 and 1,152", got1, got2)
	}
	for _, c := range []struct {
		engine, kv string
		read       float64
	}{
		{target.EngineVLLM, "fp8", 1137344512},
		{target.EngineVLLM, "fp16", 1199308800},
		{target.EngineLlamaCpp, "fp8", 4605345792},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Engine, t.KVCache = "deepseek-ai/DeepSeek-V3.2", "kv", 131072, c.engine, c.kv
		})
		if b.KVReadBytes != c.read {
			t.Errorf("%s %s: reads %v B, want %v", c.engine, c.kv, b.KVReadBytes, c.read)
		}
	}
}
