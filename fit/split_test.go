package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A custom dense 10 B model in BF16 (40 layers, 4 KV heads of 128) at 8,192 tokens × 1 sequence on
// 8 NVIDIA devices, 20 tok/s. Weights 10e9 × 2 = 20e9 B; KV 2 × 40 × 4 × 128 × 2 B = 81,920 B a
// token × 8,192 = 671,088,640 B. The time budget is 1/20 − t0 − 7 × 0.5 ms communication =
// 0.05 − 0.001903 − 0.0035 = 0.044597 s, at 79.37 % of the bandwidth: 0.0353966389.
//
//   - vLLM (tensor parallelism, the devices at once): each reads 20e9 / 8 = 2.5e9 B of weights, and
//     keeps max(1, 4/8) = 1 of the 4 KV heads (vLLM copies them): 1/4 of the KV cache, 167,772,160 B;
//     2.66777216e9 / 0.0353966389 = 75.37 → 76 GB/s.
//   - the same with MLA (latent 512 + RoPE key 64): KV 40 × 576 × 2 B × 8,192 = 377,487,360 B, whole
//     on every device: 2.87748736e9 / 0.0353966389 = 81.29 → 82 GB/s.
//   - llama.cpp (layers in turn): a token reads all 20.67108864e9 B at one device's bandwidth:
//     583.98 → 584 GB/s.
func TestSplitReadByEngine(t *testing.T) {
	base := func(tg *target.Target) {
		tg.ParamsB, tg.Layers, tg.KVHeads, tg.HeadDim = 10, 40, 4, 128
		tg.Quant, tg.Sizing, tg.Context, tg.Count, tg.Driver = "BF16", target.SizingKV, 8192, 8, "nvidia"
	}
	for _, c := range []struct {
		name     string
		mut      func(*target.Target)
		share    float64
		inTurn   bool
		floorGBs int64
	}{
		{"vllm gqa", func(tg *target.Target) { tg.Engine = target.EngineVLLM }, 0.25, false, 76},
		{"vllm mla", func(tg *target.Target) {
			tg.Engine, tg.Attention, tg.KVLoraRank, tg.QKRopeHeadDim = target.EngineVLLM, "mla", 512, 64
		}, 1, false, 82},
		{"llama.cpp", func(tg *target.Target) { tg.Engine = target.EngineLlamaCpp }, 0.125, true, 584},
	} {
		b := resolve(t, func(tg *target.Target) { base(tg); c.mut(tg) })
		if got := b.KVDeviceShare(8); !near(got, c.share) || b.LayersInTurn(8) != c.inTurn || b.MinBandwidthGBs != c.floorGBs {
			t.Errorf("%s: KV share %v, in turn %v, floor %d GB/s; want %v, %v, %d", c.name, got, b.LayersInTurn(8), b.MinBandwidthGBs,
				c.share, c.inTurn, c.floorGBs)
		}
	}
	// 4 devices under vLLM: the 4 KV heads divide, each keeps one, 1/4 = an even split.
	b := resolve(t, func(tg *target.Target) { base(tg); tg.Count, tg.Engine = 4, target.EngineVLLM })
	if got := b.KVDeviceShare(4); !near(got, 0.25) {
		t.Errorf("vllm ×4: KV share %v, want 0.25", got)
	}
}
