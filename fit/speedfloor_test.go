package fit

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Qwen2.5-7B at Q4_K_M in the KV-aware sizing reads 5.13357087821 GB per token (TestKVDense).
func TestKVFloorFamilies(t *testing.T) {
	for _, c := range []struct {
		driver string
		eff    int
		family string
		floor  int64
	}{
		// no efficiency given (0), nvidia: e = 0.7937; 5.13357088 / (0.7937 × (1/20 − 0.001903))
		// = 5.13357088 / 0.0381746 = 134.48 → 135
		{DriverNVIDIA, 0, FamilyNVIDIA, 135},
		// amd: e = 0.8205; 5.13357088 / (0.8205 × 0.048097) = 5.13357088 / 0.0394636 = 130.08 → 131
		{DriverAMD, 0, FamilyAMD, 131},
		// any vendor: the least efficient family of the table, intel 0.4345 → 0.0208981 → 245.65 → 246
		{DriverAny, 0, FamilyIntel, 246},
		// a given efficiency overrides: 5.13357088 / (0.60 × 0.048097) = 5.13357088 / 0.0288582 = 177.89 → 178
		{DriverLlmfit, 60, "", 178},
		// 55 given is given too (it used to read as absent): 5.13357088 / (0.55 × 0.048097)
		// = 5.13357088 / 0.0264534 = 194.06 → 195, for nvidia as for any driver
		{DriverNVIDIA, 55, "", 195},
		{DriverLlmfit, 55, "", 195},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Driver, t.EfficiencyPct, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, c.driver, c.eff, "Q4_K_M"
		})
		if b.SpeedFamily != c.family || b.MinBandwidthGBs != c.floor || b.SpeedOverheadSeconds != 0.001903 {
			t.Errorf("%s eff %d: family %q, floor %d GB/s; want %q, %d", c.driver, c.eff, b.SpeedFamily, b.MinBandwidthGBs, c.family, c.floor)
		}
	}
}

// No bandwidth reaches 1 / t0 = 1 / 0.001903 s = 525.49 tok/s: the target is refused, naming the
// field and the largest reachable speed; just under it is accepted.
func TestKVUnreachableSpeed(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.MinTps = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, 526
	_, err := Resolve(tg)
	var fe *target.FieldError
	if !errors.As(err, &fe) || fe.Field != "minTps" || !strings.Contains(fe.Msg, "below 525.4 tokens/s") {
		t.Fatalf("526 tok/s: %v", err)
	}
	tg.MinTps = 525
	if _, err := Resolve(tg); err != nil {
		t.Errorf("525 tok/s: %v", err)
	}
	// 2 devices add 0.5 ms: 1 / 0.002403 = 416.15 tok/s.
	tg.MinTps, tg.Count = 417, 2
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 416.1 tokens/s") || !strings.Contains(fe.Msg, "0.5 ms between 2 devices") {
		t.Errorf("417 tok/s on 2: %v", err)
	}
	// A mixture of experts adds its layers' time: Qwen3-30B-A3B has 48 layers (architectures.csv),
	// 0.001903 + 48 × 0.00008732 = 0.00609436 s, 1 / 0.00609436 = 164.09 tok/s.
	tg.Model, tg.MinTps, tg.Count = "Qwen/Qwen3-30B-A3B-Instruct-2507", 171, 1
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 164.0 tokens/s") || !strings.Contains(fe.Msg, "6.094 ms per-token overhead of this mixture of experts") {
		t.Errorf("MoE at 171 tok/s: %v", err)
	}
	tg.MinTps = 164.0
	if _, err := Resolve(tg); err != nil {
		t.Errorf("MoE at 164.0 tok/s: %v", err)
	}
	tg.Model = "Qwen/Qwen2.5-7B-Instruct"
	// llmfit's mode has no overhead and keeps its limits.
	tg.Sizing, tg.MinTps, tg.Count = target.SizingLlmfit, 1000, 1
	if _, err := Resolve(tg); err != nil {
		t.Errorf("llmfit mode at 1000 tok/s: %v", err)
	}
}

// A device's estimate uses its own family: the RTX 4090 (1,008 GB/s, nvidia 0.7937) reads
// 5.13357088 GB per token of Qwen2.5-7B at Q4_K_M: 1 / (5.13357088 / (1008 × 0.7937) + 0.001903)
// = 1 / (5.13357088 / 800.0496 + 0.001903) = 1 / (0.0064166 + 0.001903) = 120.20 tok/s.
func TestKVMatchSpeed(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, "Q4_K_M"
	})
	for _, m := range Matches(b) {
		if m.Accelerator.Name == "NVIDIA GeForce RTX 4090" {
			if !within(m.EstTps, 120.199, 0.01) {
				t.Errorf("RTX 4090: %.3f tok/s, want 120.199", m.EstTps)
			}
			return
		}
	}
	t.Fatal("no RTX 4090 in the catalog")
}
