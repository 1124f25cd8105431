package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A decoded token of a DeepSeek sparse attention model (DeepSeek-V3.2, GLM-5) reads every token's
// indexer key and only the top 2,048 tokens' latents of each layer under vLLM; llama.cpp, which
// masks the dense attention, reads every latent; the cache held stays whole either way.
func TestDSAReadIsTheIndexersTopK(t *testing.T) {
	v32 := archOf(t, "deepseek-ai/DeepSeek-V3.2")
	glm := archOf(t, "zai-org/GLM-5")
	if v32.IndexTopK != 2048 || glm.IndexTopK != 2048 {
		t.Fatalf("index_topk: V3.2 %d, GLM-5 %d; want 2,048", v32.IndexTopK, glm.IndexTopK)
	}
	for _, c := range []struct {
		name   string
		a      Architecture
		tokens int
		elem   float64
		want   float64
	}{
		// V3.2 at 131,072 tokens in bf16: 61 × (132 × 131,072 + 576 × 2 × 2,048)
		// = 61 × (17,301,504 + 2,359,296) = 61 × 19,660,800 (the cache: 61 × 1,152 × 131,072 = 9,210,691,584)
		{"V3.2 128k bf16", v32, 131072, 2, 1199308800},
		// at fp8: 61 × (17,301,504 + 576 × 2,048 = 1,179,648) = 61 × 18,481,152
		{"V3.2 128k fp8", v32, 131072, 1, 1127350272},
		// GLM-5 at 202,752 tokens in bf16: 78 × (132 × 202,752 + 1,152 × 2,048)
		// = 78 × (26,763,264 + 2,359,296) = 78 × 29,122,560
		{"GLM-5 200k", glm, 202752, 2, 2271559680},
		// V3.2 at 1,024 tokens, fewer than the top 2,048: every latent and every key,
		// 61 × (132 + 1,152) × 1,024 = 61 × 1,314,816
		{"V3.2 1k", v32, 1024, 2, 80203776},
	} {
		if got := c.a.KVReadBytes(c.tokens, c.elem); got != c.want {
			t.Errorf("%s: reads %v B, want %v", c.name, got, c.want)
		}
	}
	// without a top-k (an override on a plain MLA model) the whole cache is read
	plain := v32
	plain.IndexTopK = 0
	if got := plain.KVReadBytes(131072, 2); got != 9210691584 {
		t.Errorf("no top-k: reads %v B, want the whole 9,210,691,584", got)
	}
	for _, c := range []struct {
		engine string
		read   float64
	}{
		{target.EngineVLLM, 2 * 1199308800},
		{target.EngineLlamaCpp, 2 * 9210691584},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Sequences, t.Engine = "deepseek-ai/DeepSeek-V3.2", "kv", 131072, 2, c.engine
		})
		if b.KVBytes != 2*9210691584 || b.KVReadBytes != c.read || b.readBytesPerToken()-b.weightBytesPerToken() != c.read {
			t.Errorf("%s, 2 sequences: holds %v, reads %v (%v with the weights), want to read %v",
				c.engine, b.KVBytes, b.KVReadBytes, b.readBytesPerToken(), c.read)
		}
	}
}
