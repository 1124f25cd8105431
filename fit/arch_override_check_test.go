package fit

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// An architecture override that leaves the shape impossible or incomplete is refused, naming the
// field by its label: Qwen3-8B has 36 layers, so 100 sliding layers gave "-64 full layers" and a
// KV cache of 0.02 GB; an MLA or hybrid kind without its sizes fell back to the per-parameter
// estimate, saying the model's layers were unknown; a window without sliding layers was named in
// the header and changed nothing.
func TestArchOverrideMustBeWhole(t *testing.T) {
	for _, c := range []struct {
		set   func(*target.Target)
		field string
		want  string
	}{
		{func(t *target.Target) { t.SlidingWindow, t.SlidingLayers = 128, 100 }, "slidingLayers", "at most the model's 36 layers"},
		{func(t *target.Target) { t.Attention, t.FullAttentionLayers = "hybrid", 100 }, "fullAttentionLayers", "at most the model's 36 layers"},
		{func(t *target.Target) { t.Attention = "mla" }, "kvLoraRank", "MLA latent rank"},
		{func(t *target.Target) { t.Attention = "hybrid" }, "fullAttentionLayers", "Full-attention layers"},
		{func(t *target.Target) { t.SlidingWindow = 128 }, "slidingLayers", "Sliding-window layers"},
		{func(t *target.Target) { t.SlidingLayers = 18 }, "slidingWindow", "Sliding window"},
	} {
		tg := target.Default()
		tg.Model, tg.Sizing = "Qwen/Qwen3-8B", target.SizingKV
		c.set(&tg)
		_, err := Resolve(tg)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want an error on %s saying %q", tg, err, c.field, c.want)
		}
	}
	// A whole override is taken: 18 of 36 layers sliding at 128 tokens.
	tg := target.Default()
	tg.Model, tg.Sizing, tg.SlidingWindow, tg.SlidingLayers = "Qwen/Qwen3-8B", target.SizingKV, 128, 18
	if _, err := Resolve(tg); err != nil {
		t.Error(err)
	}
}
