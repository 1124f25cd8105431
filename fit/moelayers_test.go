package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// The per-layer MoE time counts the layers with routed experts (moelayers.go), t0 = 1.903 ms and
// 87.32 µs a layer (speed_constants.go):
//
//	Llama-4-Maverick (48 layers, every 2nd MoE): 24 → 0.001903 + 24 × 0.00008732 = 0.00399868 s
//	DeepSeek-R1 (61 layers, the first 3 dense):    58 → 0.001903 + 58 × 0.00008732 = 0.00696756 s
//	Nemotron-Cascade-2-30B-A3B (52: 23 Mamba-2, 6 attention, 23 MoE; Nemotron-3-Nano's count):
//	                                               23 → 0.001903 + 23 × 0.00008732 = 0.00391136 s
//	Qwen3-30B-A3B (48, every one MoE):             48 → 0.001903 + 48 × 0.00008732 = 0.00609436 s
//	MiMo-V2-Flash (48, layer 0 dense):             47 → 0.001903 + 47 × 0.00008732 = 0.00600704 s
//	LFM2-8B-A1B (24, layers 0 and 1 dense):        22 → 0.001903 + 22 × 0.00008732 = 0.00382404 s
//
// and a layer override (60 for R1) keeps the given depth: its split is unknown.
func TestRoutedLayers(t *testing.T) {
	for _, c := range []struct {
		model           string
		layers, routed  int
		overheadSeconds float64
	}{
		{"meta-llama/Llama-4-Maverick-17B-128E-Instruct", 48, 24, 0.00399868},
		{"deepseek-ai/DeepSeek-R1", 61, 58, 0.00696756},
		{"nvidia/Nemotron-Cascade-2-30B-A3B", 52, 23, 0.00391136},
		{"Qwen/Qwen3-30B-A3B-Instruct-2507", 48, 48, 0.00609436},
		{"XiaomiMiMo/MiMo-V2-Flash", 48, 47, 0.00600704},
		{"LiquidAI/LFM2-8B-A1B", 24, 22, 0.00382404},
	} {
		b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = c.model, "kv" })
		if b.Arch.Layers != c.layers || b.RoutedLayers != c.routed || !near(b.SpeedOverheadSeconds, c.overheadSeconds) {
			t.Errorf("%s: %d layers, %d routed, overhead %v s; want %d, %d, %v", c.model, b.Arch.Layers, b.RoutedLayers,
				b.SpeedOverheadSeconds, c.layers, c.routed, c.overheadSeconds)
		}
	}
	// 0.001903 + 60 × 0.00008732 = 0.0071422 s
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Layers = "deepseek-ai/DeepSeek-R1", "kv", 60 })
	if b.RoutedLayers != 60 || !near(b.SpeedOverheadSeconds, 0.0071422) {
		t.Errorf("R1 with 60 layers: %d routed, %v s", b.RoutedLayers, b.SpeedOverheadSeconds)
	}
}
