package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// rowSized is one architecture row's case for checkRowsSized: the entry at a context on n devices
// (kv sizing, fp16, llama.cpp's reserve, drv=nvidia), its attention kind, KV bytes now and before
// the row (was: llmfit's fields' figure, 0 where they were right, so only the maximum context can
// fail on the old data), its maximum context and its floor per device.
type rowSized struct {
	name      string
	ctx, n    int
	attention string
	kv, was   float64 // KV bytes now, and before the row
	maxCtx    int
	floorGi   int64 // per device
}

// checkRowsSized is the loop the architecture-row tables share (TestMoreArchRowsSized,
// TestS15SourcedRowsSized): each entry resolves verified, of its kind, with the KV bytes, maximum
// context and floor asked, and no longer llmfit's fields' KV.
func checkRowsSized(t *testing.T, cases []rowSized) {
	t.Helper()
	for _, c := range cases {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Count, t.Driver = c.name, target.SizingKV, c.ctx, c.n, "nvidia"
		})
		if b.Arch.Source != SourceVerified || b.Arch.Attention != c.attention || b.KVEstimated || !near(b.KVBytes, c.kv) || b.MaxContext != c.maxCtx {
			t.Errorf("%s: %s %q, KV %v B (estimated %v), max context %d; want verified %q, %v B, %d",
				c.name, b.Arch.Source, b.Arch.Attention, b.KVBytes, b.KVEstimated, b.MaxContext, c.attention, c.kv, c.maxCtx)
		}
		if c.was > 0 && near(b.KVBytes, c.was) {
			t.Errorf("%s: KV %v B, llmfit's fields' figure", c.name, b.KVBytes)
		}
		if b.MemoryGi != c.floorGi {
			t.Errorf("%s: floor %d Gi per device, want %d", c.name, b.MemoryGi, c.floorGi)
		}
	}
}
