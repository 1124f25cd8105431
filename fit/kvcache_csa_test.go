package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// DeepSeek-V4's compressed attention reaches every consumer of the KV shape: the claim's KV bytes
// (no longer llmfit's estimate), the speed floor's read, and vLLM's cache.
func TestCSAInTheKVAwareMode(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Context = "deepseek-ai/DeepSeek-V4-Flash", "kv", 8192 })
	// 74,203,136 B at 8,192 tokens (TestKVCachePerLayerKind); llmfit's estimate was 0.000008 GB ×
	// 292 B params × 8,192 = 19.14 GB.
	if b.KVEstimated || b.KVBytes != 74203136 || b.Arch.Source != SourceVerified {
		t.Errorf("V4-Flash: estimated %v, %v B from %q", b.KVEstimated, b.KVBytes, b.Arch.Source)
	}
	// vLLM keeps one latent per token: 21 × (512 + 128)/4 + 20 × 512/128 = 3,360 + 80 = 3,440
	// elements, 6,880 B in bf16 (V4-Pro: 30 × 160 + 31 × 4 = 4,924).
	if c := vllmCacheOf(&b, 2); c.FullLayers != 1 || c.MLALatent != 3440 || c.layerTokenBytes(8) != 6880 {
		t.Errorf("V4-Flash vLLM cache: %+v", c)
	}
	pro := archOf(t, "deepseek-ai/DeepSeek-V4-Pro")
	if n := pro.csaTokenElements(); n != 4924 {
		t.Errorf("V4-Pro: %d elements per token, want 4,924", n)
	}
}

// An override may make any model csa, but its compressed layers are some of its layers.
func TestCSAOverrideChecks(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.CSALayers, tg.HCALayers = "deepseek-ai/DeepSeek-V4-Flash", "kv", 30, 20
	_, err := Resolve(tg)
	if err == nil || !strings.Contains(err.Error(), "HCA layers (hcaLayers, hcal): with 30 CSA layers, must be at most the model's 13 other layers (got 20)") {
		t.Errorf("30 + 20 of 43 layers: %v", err)
	}
	// Made csa, a model must say which of its layers compress.
	tg = target.Default()
	tg.Model, tg.Sizing, tg.Attention = "meta-llama/Llama-3.1-8B-Instruct", "kv", AttentionCSA
	if _, err = Resolve(tg); err == nil || !strings.Contains(err.Error(), "CSA layers (csaLayers, csal): attention csa compresses the context in its CSA and HCA layers: give CSA layers (csaLayers) too") {
		t.Errorf("csa without compressed layers: %v", err)
	}
	// A custom csa model: 10 layers × 1 × 512 head, 4 CSA + 4 HCA, window 128, at 1,024 tokens:
	// 10 × 512 × 128 + 4 × 640 × 256 + 4 × 512 × 8 = 655,360 + 655,360 + 16,384 = 1,327,104
	// elements × 2 B = 2,654,208 B, + the compressors' state 4 × 81,920 + 4 × 524,288 = 2,424,832 B
	// → 5,079,040 B.
	b := resolve(t, func(t *target.Target) {
		t.ParamsB, t.Sizing, t.Context, t.Layers, t.KVHeads, t.HeadDim = 10, "kv", 1024, 10, 1, 512
		t.Attention, t.SlidingWindow, t.CSALayers, t.HCALayers = AttentionCSA, 128, 4, 4
	})
	if b.KVBytes != 5079040 || b.KVEstimated {
		t.Errorf("custom csa: %v B, estimated %v", b.KVBytes, b.KVEstimated)
	}
}
