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
	if _, err = Resolve(tg); err == nil || !strings.Contains(err.Error(), "CSA layers (csaLayers, csal): attention csa compresses the context in its CSA and HCA layers: give CSA layers (csaLayers, csal) too") {
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

// A decoded token of DeepSeek-V4 reads the windows, every indexer key, only the indexer's top-k
// of each CSA layer's compressed entries and every HCA entry; the cache it holds stays whole.
func TestCSAReadIsTheIndexersTopK(t *testing.T) {
	flash := archOf(t, "deepseek-ai/DeepSeek-V4-Flash")
	pro := archOf(t, "deepseek-ai/DeepSeek-V4-Pro")
	if flash.IndexTopK != 512 || pro.IndexTopK != 1024 {
		t.Fatalf("index_topk: Flash %d, Pro %d; want 512, 1,024", flash.IndexTopK, pro.IndexTopK)
	}
	for _, c := range []struct {
		name   string
		a      Architecture
		tokens int
		want   float64
	}{
		// V4-Flash at 131,072 tokens: 32,768 compressed entries a CSA layer, 1,024 an HCA layer;
		// 43 × 512 × 128 + 21 × (128 × 32,768 + 512 × 512) + 20 × 512 × 1,024
		// = 2,818,048 + 21 × 4,456,448 + 10,485,760 = 106,889,216 elements × 2 B (the cache: 919,617,536 B)
		{"Flash 128k", flash, 131072, 213778432},
		// V4-Pro at 1,048,576 tokens: 61 × 512 × 128 + 30 × (128 × 262,144 + 512 × 1,024) + 31 × 512 × 8,192
		// = 3,997,696 + 1,022,361,600 + 130,023,424 = 1,156,382,720 elements × 2 B (the cache: 9.62 GiB)
		{"Pro 1M", pro, 1048576, 2312765440},
		// V4-Flash at 1,024 tokens: 256 entries a CSA layer, fewer than the top 512, so all are read:
		// 2,818,048 + 21 × (128 × 256 + 512 × 256) + 20 × 512 × 8 = 2,818,048 + 3,440,640 + 81,920
		// = 6,340,608 elements × 2 B: the cache less the compressors' state
		{"Flash 1k", flash, 1024, 12681216},
	} {
		if got := c.a.KVReadBytes(c.tokens, 2); got != c.want {
			t.Errorf("%s: reads %v B, want %v", c.name, got, c.want)
		}
	}
	if got, want := flash.KVCacheBytes(1024, 2)-flash.CSAStateBytes(), 12681216.0; got != want {
		t.Errorf("Flash 1k cache less state %v, want %v", got, want)
	}
	// without a top-k (a csa override on another model) the whole cache is read
	custom := flash
	custom.IndexTopK = 0
	if got := custom.KVReadBytes(131072, 2); got != 919617536 {
		t.Errorf("no top-k: reads %v B, want the whole 919,617,536", got)
	}
	// the speed floor reads it, per sequence; the memory holds the whole cache
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Context, t.Sequences = "deepseek-ai/DeepSeek-V4-Flash", "kv", 131072, 2
	})
	if b.KVBytes != 2*919617536 || b.KVReadBytes != 2*213778432 || b.readBytesPerToken()-b.weightBytesPerToken() != 2*213778432 {
		t.Errorf("2 sequences: holds %v, reads %v (%v with the weights)", b.KVBytes, b.KVReadBytes, b.readBytesPerToken())
	}
}
