package fit

import (
	"slices"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Driver any tries llmfit.ai (any vendor's device) first, then gpu.nvidia.com. Each alternative
// selects only its own devices, so each has its own floor: llmfit.ai's assumes the least
// efficient family in play (intel, 0.4345), the NVIDIA allow-list NVIDIA's 0.7937.
//
// Qwen/Qwen3-8B in BF16 at 8,192 tokens × 1 sequence, fp16 KV, reads per token
//
//	8,190,735,360 params × 2 B                    = 16,381,470,720 B weights
//	2 × 36 layers × 8 KV heads × 128 × 2 B × 8,192 =  1,207,959,552 B KV
//	                                                 17,589,430,272 B
//
// and for 20 tok/s the budget is 1/20 − 0.001903 s = 0.048097 s, so
//
//	intel:  17.589430272e9 / (0.4345 × 0.048097) = 17.589430272e9 / 0.0208981465 = 841.67 GB/s → 842
//	nvidia: 17.589430272e9 / (0.7937 × 0.048097) = 17.589430272e9 / 0.0381745889 = 460.76 GB/s → 461
//
// An A10G (600 GB/s, 23,028 MiB ≥ 18 Gi) decodes 1 / (17.589430272e9 / (600e9 × 0.7937) + 0.001903)
// = 1 / (0.0369355 + 0.001903) = 25.75 tok/s: it meets 20 tok/s and must be on the allow-list.
// A Radeon RX 7900 XT (800 GB/s, 20 GiB) can only be chosen through llmfit.ai, whose floor is 842.
func TestKVAnyFloorPerAlternative(t *testing.T) {
	set := func(driver string) func(*target.Target) {
		return func(t *target.Target) {
			t.Model, t.Sizing, t.Driver, t.MinTps = "Qwen/Qwen3-8B", target.SizingKV, driver, 20
		}
	}
	b := resolve(t, set(DriverAny))
	if b.MemoryGi != 18 || b.MinBandwidthGBs != 842 || b.SpeedFamily != FamilyIntel || b.SpeedEfficiency != 0.4345 {
		t.Errorf("llmfit.ai alternative: %d Gi, %d GB/s, %s %g; want 18 Gi, 842 GB/s, intel 0.4345",
			b.MemoryGi, b.MinBandwidthGBs, b.SpeedFamily, b.SpeedEfficiency)
	}
	if b.NVIDIAMinBandwidthGBs != 461 || b.NVIDIASpeedFamily != FamilyNVIDIA || b.NVIDIASpeedEfficiency != 0.7937 {
		t.Errorf("NVIDIA alternative: %d GB/s, %s %g; want 461 GB/s, nvidia 0.7937",
			b.NVIDIAMinBandwidthGBs, b.NVIDIASpeedFamily, b.NVIDIASpeedEfficiency)
	}
	if !slices.Contains(b.Products, "NVIDIA A10G") {
		t.Errorf("allow-list %q lacks NVIDIA A10G (600 GB/s ≥ 461)", b.Products)
	}
	// The NVIDIA alternative is the nvidia driver's claim: the same floor, the same allow-list.
	n := resolve(t, set(DriverNVIDIA))
	if n.MinBandwidthGBs != 461 || n.NVIDIAMinBandwidthGBs != 461 || !slices.Equal(n.Products, b.Products) {
		t.Errorf("driver nvidia: %d/%d GB/s, %q; driver any's NVIDIA alternative: %q",
			n.MinBandwidthGBs, n.NVIDIAMinBandwidthGBs, n.Products, b.Products)
	}
	want := map[string]struct{ bw, selected bool }{
		"nvidia-a10g":    {true, true},   // 600 ≥ 461 (NVIDIA's floor), 25.75 tok/s
		"amd-rx-7900xt":  {false, false}, // 800 < 842 (llmfit.ai's floor, the only one that can choose it)
		"amd-rx-7900xtx": {true, true},   // 960 ≥ 842
	}
	for _, m := range Matches(b) {
		w, ok := want[m.Accelerator.ID]
		if !ok {
			continue
		}
		delete(want, m.Accelerator.ID)
		if m.FitsBandwidth != w.bw || m.Selected != w.selected {
			t.Errorf("%s: fitsBandwidth %v selected %v (%s, %.2f tok/s); want %v %v",
				m.Accelerator.ID, m.FitsBandwidth, m.Selected, m.Verdict, m.EstTps, w.bw, w.selected)
		}
	}
	if len(want) > 0 {
		t.Errorf("not in the table: %v", want)
	}
}
