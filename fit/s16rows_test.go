package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Kimi-Linear-48B-A3B (s16-arch): a hybrid whose attention layers are MLA. Its row is a `hybrid`
// row with kv_lora_rank and qk_rope_head_dim (Architecture.HybridLatent, the one rule): 7 MLA
// layers each cache one 512 + 64 latent a token, the 20 Kimi Delta Attention layers a fixed state
// of 20 × (32 × 128 × 128 + 3 × 4,096 × 3) = 11,223,040 elements. At 32,768 tokens fp16:
// 7 × 576 × 2 B × 32,768 = 264,241,152 B + the state, fp32 under llama.cpp (44,892,160 B) and
// under vLLM bf16 convolutions + fp32 recurrent state (737,280 × 2 + 10,485,760 × 4 = 43,417,600 B).
// Before the row: llmfit's 27 layers × 2 × 32 KV heads × 72 × 2 B × 32,768 = 8,153,726,976 B.
func TestKimiLinearMLAHybrid(t *testing.T) {
	const name = "moonshotai/Kimi-Linear-48B-A3B-Instruct"
	for _, c := range []struct {
		engine         string
		kv             float64
		floorGi, wasGi int64
	}{
		{target.EngineLlamaCpp, 264241152 + 44892160, 93, 100},
		{target.EngineVLLM, 264241152 + 43417600, 110, 118},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Count, t.Driver, t.Engine = name, target.SizingKV, 32768, 1, "nvidia", c.engine
		})
		if b.Arch.Source != SourceVerified || b.Arch.Attention != AttentionHybrid || b.Arch.HybridLatent() != 576 || b.KVEstimated {
			t.Fatalf("%s (%s): %s %q, latent %d, estimated %v; want a verified hybrid of 576-element latents", name, c.engine,
				b.Arch.Source, b.Arch.Attention, b.Arch.HybridLatent(), b.KVEstimated)
		}
		if !near(b.KVBytes, c.kv) || near(b.KVBytes, 8153726976) || b.MaxContext != 1048576 {
			t.Errorf("%s (%s): KV %v B, max context %d; want %v, 1,048,576", name, c.engine, b.KVBytes, b.MaxContext, c.kv)
		}
		if b.MemoryGi != c.floorGi || b.MemoryGi >= c.wasGi {
			t.Errorf("%s (%s): floor %d Gi, want %d (every layer K and V: %d)", name, c.engine, b.MemoryGi, c.floorGi, c.wasGi)
		}
	}
	// the same latent without the kind's rule would be K and V of the catalog's heads: the latent
	// rule applies only to hybrid rows, and a hybrid without it keeps K and V
	a := ArchitectureOf(catalog.Named(name))
	if got := a.KVCacheBytes(1, 2); got != 7*576*2+11223040*4 {
		t.Errorf("one token: %v B", got)
	}
	a.KVLoraRank, a.QKRopeHeadDim, a.KVHeads, a.HeadDim = 0, 0, 32, 72
	if got := a.KVCacheBytes(1, 2); got != 7*2*32*72*2+11223040*4 {
		t.Errorf("one token without the latent: %v B", got)
	}
}

// Kimi-Linear's row checked by the catalog's count: torchtitan's 48B_A3B shapes (architectures.csv)
// sum to it to the parameter; one MLA layer more in place of a KDA layer moves it by 10,399,392.
func TestKimiLinearShapesCount(t *testing.T) {
	const h, v, e = 2304, 163840, 3 * 2304 * 1024 // an expert: SwiGLU of 1,024
	mla := int64(h*32*192 + h*576 + 512 + 512*32*256 + 32*128*h)
	kda := int64(3*h*4096 + 3*4096*4 + h*128 + 128*4096 + h*32 + 32 + 4096 + h*128 + 128*4096 + 128 + 4096*h)
	moe := int64(257*e + 256*h + 256)
	total := 2*v*h + 7*mla + 20*kda + 26*moe + 3*h*9216 + 55*h
	if got := catalog.Named("moonshotai/Kimi-Linear-48B-A3B-Instruct").ParametersRaw; got != total {
		t.Errorf("Kimi-Linear-48B-A3B: the catalog's %d, the shapes' %d", got, total)
	}
	if active := total - 26*248*e; active != 3484459904 {
		t.Errorf("Kimi-Linear-48B-A3B: active %d", active)
	}
	if a := catalog.Named("moonshotai/Kimi-Linear-48B-A3B-Instruct").Arch; a.RecurrentState != 20*(32*128*128+3*4096*3) || a.RecurrentConvState != 20*3*4096*3 {
		t.Errorf("Kimi-Linear-48B-A3B: state %d (conv %d)", a.RecurrentState, a.RecurrentConvState)
	}
}

// Mixtures of experts the catalog does not mark (s16-arch): Jamba-Mini-1.5 (config.json's
// num_experts 16, num_experts_per_tok 2 in every other layer) was read dense; its row's shapes give
// the active count (moeactive.go), the routed layers (moelayers.go) and so the bandwidth a token
// needs.
func TestUnmarkedMoEReadActive(t *testing.T) {
	for _, c := range []struct {
		name                   string
		totalB, activeB, wasB  float64
		routed                 int
		bandwidth, wasBandwith int64
	}{
		{"ai21labs/AI21-Jamba-Mini-1.5", 51.570323328, 12.110311296, 51.570323328, 16, 669, 2717},
	} {
		m := catalog.Named(c.name)
		if m.MoE {
			t.Errorf("%s: the catalog marks it a mixture of experts now; this test's premise is gone", c.name)
		}
		p := ReleaseParamsOf(m)
		if !near(p.TotalB, c.totalB) || !near(p.ActiveB, c.activeB) || near(p.ActiveB, c.wasB) {
			t.Errorf("%s: %v B, %v active; want %v, %v", c.name, p.TotalB, p.ActiveB, c.totalB, c.activeB)
		}
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Driver = c.name, target.SizingKV, 32768, "nvidia"
		})
		if b.RoutedLayers != c.routed || b.MinBandwidthGBs != c.bandwidth || !b.isMoE() {
			t.Errorf("%s: %d routed layers, %d GB/s, MoE %v; want %d, %d (was %d)", c.name, b.RoutedLayers, b.MinBandwidthGBs, b.isMoE(),
				c.routed, c.bandwidth, c.wasBandwith)
		}
	}
}
