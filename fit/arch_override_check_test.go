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

// Facts of the KV cache's shape given for a model whose shape they do not complete were dropped
// in silence: vikhyatk/moondream2 (the catalog knows no layers, KV heads or head size of it) with
// --layers 24 --kv-heads 32 still had its KV cache estimated per parameter, and a custom 70B with
// --attention mla --kv-lora-rank 512 --qk-rope-head-dim 64 and no layers too, under a warning that
// blamed the catalog. They are refused, naming the fact that is missing; layers alone and the
// experts are kept (they also count a mixture of experts' routed layers and split its weights).
func TestArchOverrideOfUnknownShape(t *testing.T) {
	for _, c := range []struct {
		set   func(*target.Target)
		field string
	}{
		{func(t *target.Target) { t.KVHeads = 32 }, "layers"},
		{func(t *target.Target) { t.Layers, t.KVHeads = 24, 32 }, "headDim"},
		{func(t *target.Target) { t.Layers, t.HeadDim = 24, 64 }, "kvHeads"},
		{func(t *target.Target) { t.Attention = "mha" }, "layers"},
		{func(t *target.Target) { t.SlidingWindow, t.SlidingLayers = 512, 4 }, "layers"},
		{func(t *target.Target) { t.Attention, t.KVLoraRank = "mla", 512 }, "layers"},
		{func(t *target.Target) {
			t.Model, t.ParamsB, t.Attention, t.KVLoraRank, t.QKRopeHeadDim = "", 70, "mla", 512, 64
		}, "layers"},
	} {
		tg := target.Default()
		tg.Model, tg.Sizing = "vikhyatk/moondream2", target.SizingKV
		c.set(&tg)
		_, err := Resolve(tg)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), "would size nothing") {
			t.Errorf("%+v: %v; want an error on %s", tg, err, c.field)
		}
	}
	// DeepSeek-R1's layers are known, its KV heads not (MLA caches a latent): GQA needs them. It
	// fell back to the per-parameter estimate (44.86 GB at 8,192 tokens), the warning blaming the
	// catalog for layers it has.
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Attention = "deepseek-ai/DeepSeek-R1", target.SizingKV, "gqa"
	if _, err := Resolve(tg); err == nil || err.Error() != "KV heads (kvHeads, kvh): the KV cache is sized from the model's layers, KV heads and head dimension, "+
		"and this model's KV heads are not known, so the Attention kind given would size nothing: give KV heads (kvHeads, kvh) too" {
		t.Errorf("DeepSeek-R1 gqa: %v", err)
	}
	for _, set := range []func(*target.Target){
		func(t *target.Target) {},
		func(t *target.Target) { t.Layers = 24 },
		func(t *target.Target) { t.Experts = 8 },
		func(t *target.Target) { t.Layers, t.KVHeads, t.HeadDim = 24, 32, 64 },
		func(t *target.Target) {
			t.Model, t.ParamsB, t.Attention, t.KVLoraRank, t.Layers = "", 70, "mla", 512, 61
		},
	} {
		tg := target.Default()
		tg.Model, tg.Sizing = "vikhyatk/moondream2", target.SizingKV
		set(&tg)
		if _, err := Resolve(tg); err != nil {
			t.Errorf("%+v: %v", tg, err)
		}
	}
}
