package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// MiMo-V2-Flash (architectures.csv's row; vLLM's mimo_v2_flash.py reads the same fields) caches
// keys of 192 and values of 128 in every layer, 4 KV heads in its 9 full layers and 8 in its 39
// sliding layers of 128 tokens. In fp16:
//
//	8,192 tokens:   9 × 4 × (192 + 128) × 2 B × 8,192 = 188,743,680 + 39 × 8 × 320 × 2 B × 128 =
//	                25,559,040 → 214,302,720 B
//	131,072 tokens: 3,019,898,880 + 25,559,040 = 3,045,457,920 B
//
// Before its row, kv mode read llmfit's fields, every layer full at 4 heads of 192 for K and V:
// 2 × 48 × 4 × 192 × 2 B × 131,072 = 19,327,352,832 B. Under vLLM (its FlashAttentionDiffKVBackend
// caches the values at 128) on one device a full layer's token is 4 × 320 × 2 = 2,560 B and a
// sliding one's 5,120 B: a sliding page of 16 tokens, 81,920 B, holds 32 tokens of a full layer.
// On 8 devices each keeps 1 head of either kind (the 4 full heads copied): 640 B, pages of 16
// tokens, and at 131,072 tokens 9 × 640 × 131,072 + 39 × 640 × 128 = 758,169,600 B a device.
func TestMiMoValuesOwnSize(t *testing.T) {
	for _, c := range []struct {
		ctx int
		kv  float64
	}{{8192, 214302720}, {131072, 3045457920}} {
		b := resolve(t, func(tg *target.Target) {
			tg.Model, tg.Sizing, tg.Context = "XiaomiMiMo/MiMo-V2-Flash", target.SizingKV, c.ctx
		})
		if !near(b.KVBytes, c.kv) {
			t.Errorf("%d tokens: KV %v B, want %v", c.ctx, b.KVBytes, c.kv)
		}
	}
	one := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Context, tg.Engine = "XiaomiMiMo/MiMo-V2-Flash", target.SizingKV, 131072, target.EngineVLLM
	})
	g := newVLLMGroups(VLLMInputFor(&one, 80, ""))
	if g.page != 81920 || g.fullBlock != 32 || g.slideBlock != 16 {
		t.Errorf("one device: page %v B, %d tokens a full page, %d a sliding one; want 81920, 32, 16", g.page, g.fullBlock, g.slideBlock)
	}
	b := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Context, tg.Engine, tg.Count = "XiaomiMiMo/MiMo-V2-Flash", target.SizingKV, 131072, target.EngineVLLM, 8
	})
	if got := b.KVDeviceShare(8); !near(got, 758169600.0/3045457920.0) {
		t.Errorf("8 devices under vLLM: KV share %v, want %v", got, 758169600.0/3045457920.0)
	}
	g = newVLLMGroups(VLLMInputFor(&b, 80, ""))
	if g.page != 10240 || g.fullBlock != 16 || g.slideBlock != 16 {
		t.Errorf("8 devices: page %v B, %d tokens a full page, %d a sliding one; want 10240, 16, 16", g.page, g.fullBlock, g.slideBlock)
	}
}
