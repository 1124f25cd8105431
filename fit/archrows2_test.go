package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Architecture rows added in the fourteenth session's second pass (s14-arch2): entries that had
// no row, so kv mode read llmfit's fields (every layer a full K/V pair per KV head, and the
// catalog's context, often × a RoPE factor). Each case is its KV cache at a context, its real
// maximum context and its floor under llama.cpp's reserve with drv=nvidia; was is the KV llmfit's
// fields gave (the test fails on the old data).
func TestMoreArchRowsSized(t *testing.T) {
	for _, c := range []struct {
		name      string
		ctx, n    int
		attention string
		kv, was   float64 // KV bytes now, and before the row
		maxCtx    int
		floorGi   int64 // per device
	}{
		// DeepSeek-V2 236B family (MLA): 60 × (512 + 64) × 2 B a token, not 2 × 60 × 128 × 40 × 2 B
		{"deepseek-ai/DeepSeek-Coder-V2-Instruct", 32768, 8, AttentionMLA, 2264924160, 40265318400, 163840, 56},
		{"casperhansen/deepseek-coder-v2-instruct-awq", 32768, 8, AttentionMLA, 2264924160, 40265318400, 163840, 16},
		{"RedHatAI/DeepSeek-V2.5-1210-FP8", 32768, 8, AttentionMLA, 2264924160, 40265318400, 163840, 29},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Count, t.Driver = c.name, target.SizingKV, c.ctx, c.n, "nvidia"
		})
		if b.Arch.Source != SourceVerified || b.Arch.Attention != c.attention || b.KVEstimated || !near(b.KVBytes, c.kv) || b.MaxContext != c.maxCtx {
			t.Errorf("%s: %s %q, KV %v B (estimated %v), max context %d; want verified %q, %v B, %d",
				c.name, b.Arch.Source, b.Arch.Attention, b.KVBytes, b.KVEstimated, b.MaxContext, c.attention, c.kv, c.maxCtx)
		}
		if near(b.KVBytes, c.was) {
			t.Errorf("%s: KV %v B, llmfit's fields' figure", c.name, b.KVBytes)
		}
		if b.MemoryGi != c.floorGi {
			t.Errorf("%s: floor %d Gi per device, want %d", c.name, b.MemoryGi, c.floorGi)
		}
	}
}
