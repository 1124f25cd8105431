package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Gemma-4's global layers keep their own shape (data/architectures.md § Gemma-4, config.json via
// maxtext's gemma4 dicts), and E2B/E4B's last layers keep no cache of their own. At 131,072 tokens
// in fp16:
//
//	31B: 10 global layers × 2 × 4 KV heads × 512 × 2 B = 81,920 B a token × 131,072 = 10,737,418,240
//	     + 50 sliding layers × 2 × 16 × 256 × 2 B = 819,200 B a token × 1,024 = 838,860,800
//	     = 11,576,279,040 B (every layer at 16 heads of 256 said 22,313,697,280)
//	E4B: of 42 layers the first 24 keep a cache, 4 global and 20 sliding:
//	     4 × 2 × 2 × 512 × 2 B × 131,072 = 2,147,483,648 + 20 × 2 × 2 × 256 × 2 B × 512 = 20,971,520
//	     = 2,168,455,168 B (7 global + 35 sliding at 256 said 1,916,796,928: too little)
//
// Under vLLM on 8 devices the 31B's 4 global KV heads are copied (one a device), its 16 sliding
// heads split (2 a device): 10 × 2 × 512 × 2 × 131,072 + 50 × 2 × 2 × 256 × 2 × 1,024 =
// 2,684,354,560 + 104,857,600 = 2,789,212,160 B a device, 0.240945 of the whole, not 1/8. vLLM's
// pages are equal: a sliding layer's 16 tokens × 16,384 B = 262,144 B hold 32 tokens of a global
// layer's 8,192 B.
func TestGemma4GlobalLayers(t *testing.T) {
	for _, c := range []struct {
		model string
		kv    float64
	}{
		{"google/gemma-4-31B-it", 11576279040},
		{"google/gemma-4-E4B-it", 2168455168},
	} {
		b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing, tg.Context = c.model, target.SizingKV, 131072 })
		if !near(b.KVBytes, c.kv) {
			t.Errorf("%s: KV %v B, want %v", c.model, b.KVBytes, c.kv)
		}
	}
	b := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Context, tg.Engine, tg.Count = "google/gemma-4-31B-it", target.SizingKV, 131072, target.EngineVLLM, 8
	})
	if got := b.KVDeviceShare(8); !near(got, 2789212160.0/11576279040.0) {
		t.Errorf("31B on 8 devices under vLLM: KV share %v, want %v", got, 2789212160.0/11576279040.0)
	}
	// on 8 devices a sliding layer's token is 2 × 2 heads × 256 × 2 B = 2,048 B, a global one's
	// 2 × 1 × 512 × 2 B = 2,048 B too: pages of 16 tokens, 32,768 B, for both
	g := newVLLMGroups(VLLMInputFor(&b, 80, ""))
	if g.page != 32768 || g.fullBlock != 16 || g.slideBlock != 16 {
		t.Errorf("8 devices: page %v B, %d tokens a global page, %d a sliding one; want 32768, 16, 16", g.page, g.fullBlock, g.slideBlock)
	}
	one := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Context, tg.Engine = "google/gemma-4-31B-it", target.SizingKV, 131072, target.EngineVLLM
	})
	g = newVLLMGroups(VLLMInputFor(&one, 80, ""))
	if g.page != 262144 || g.fullBlock != 32 || g.slideBlock != 16 {
		t.Errorf("one device: page %v B, %d tokens a global page, %d a sliding one; want 262144, 32, 16", g.page, g.fullBlock, g.slideBlock)
	}
}
