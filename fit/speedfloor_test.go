package fit

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Qwen2.5-7B at Q4_K_M in the KV-aware sizing reads 4.88681962496 GB per token (TestKVDense).
func TestKVFloorFamilies(t *testing.T) {
	for _, c := range []struct {
		driver string
		eff    int
		family string
		floor  int64
	}{
		// no efficiency given (0), nvidia: e = 0.7514; 4.88681962 / (0.7514 × (1/20 − 0.001896))
		// = 4.88681962 / 0.0361453 = 135.20 → 136
		{DriverNVIDIA, 0, FamilyNVIDIA, 136},
		// amd: e = 0.7771; 4.88681962 / (0.7771 × 0.048104) = 4.88681962 / 0.0373816 = 130.73 → 131
		{DriverAMD, 0, FamilyAMD, 131},
		// any vendor: the least efficient family of the table, intel 0.421 → 0.0202518 → 241.30 → 242
		{DriverAny, 0, FamilyIntel, 242},
		// a given efficiency overrides: 4.88681962 / (0.60 × 0.048104) = 4.88681962 / 0.0288624 = 169.31 → 170
		{DriverLlmfit, 60, "", 170},
		// 55 given is given too (it used to read as absent): 4.88681962 / (0.55 × 0.048104)
		// = 4.88681962 / 0.0264572 = 184.71 → 185, for nvidia as for any driver
		{DriverNVIDIA, 55, "", 185},
		{DriverLlmfit, 55, "", 185},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Driver, t.EfficiencyPct, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, c.driver, c.eff, "Q4_K_M"
		})
		if b.SpeedFamily != c.family || b.MinBandwidthGBs != c.floor || b.SpeedOverheadSeconds != 0.001896 {
			t.Errorf("%s eff %d: family %q, floor %d GB/s; want %q, %d", c.driver, c.eff, b.SpeedFamily, b.MinBandwidthGBs, c.family, c.floor)
		}
	}
}

// No bandwidth reaches 1 / t0 = 1 / 0.001896 s = 527.43 tok/s: the target is refused, naming the
// field and the largest reachable speed; just under it is accepted.
func TestKVUnreachableSpeed(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.MinTps = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, 528
	_, err := Resolve(tg)
	var fe *target.FieldError
	if !errors.As(err, &fe) || fe.Field != "minTps" || !strings.Contains(fe.Msg, "below 527.4 tokens/s") {
		t.Fatalf("528 tok/s: %v", err)
	}
	tg.MinTps = 527
	if _, err := Resolve(tg); err != nil {
		t.Errorf("527 tok/s: %v", err)
	}
	// 2 devices add 0.5 ms: 1 / 0.002396 = 417.36 tok/s.
	tg.MinTps, tg.Count = 418, 2
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 417.3 tokens/s") || !strings.Contains(fe.Msg, "0.5 ms between 2 devices") {
		t.Errorf("418 tok/s on 2: %v", err)
	}
	// A mixture of experts adds its layers' time: Qwen3-30B-A3B has 48 layers (architectures.csv),
	// 0.001896 + 48 × 0.00008644 = 0.00604512 s, 1 / 0.00604512 = 165.42 tok/s.
	tg.Model, tg.MinTps, tg.Count = "Qwen/Qwen3-30B-A3B-Instruct-2507", 171, 1
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 165.4 tokens/s") || !strings.Contains(fe.Msg, "6.045 ms per-token overhead of this mixture of experts") {
		t.Errorf("MoE at 171 tok/s: %v", err)
	}
	tg.MinTps = 165.4
	if _, err := Resolve(tg); err != nil {
		t.Errorf("MoE at 165.4 tok/s: %v", err)
	}
	tg.Model = "Qwen/Qwen2.5-7B-Instruct"
	// llmfit's mode has no overhead and keeps its limits.
	tg.Sizing, tg.MinTps, tg.Count = target.SizingLlmfit, 1000, 1
	if _, err := Resolve(tg); err != nil {
		t.Errorf("llmfit mode at 1000 tok/s: %v", err)
	}
}

// A device's estimate uses its own family: the RTX 4090 (1,008 GB/s, nvidia 0.7514) reads
// 4.88681962 GB per token of Qwen2.5-7B at Q4_K_M: 1 / (4.88681962 / (1008 × 0.7514) + 0.001896)
// = 1 / (4.88681962 / 757.4112 + 0.001896) = 1 / (0.0064520 + 0.001896) = 119.79 tok/s.
func TestKVMatchSpeed(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, "Q4_K_M"
	})
	for _, m := range Matches(b) {
		if m.Accelerator.Name == "NVIDIA GeForce RTX 4090" {
			if !within(m.EstTps, 119.79, 0.01) {
				t.Errorf("RTX 4090: %.3f tok/s, want 119.79", m.EstTps)
			}
			return
		}
	}
	t.Fatal("no RTX 4090 in the catalog")
}
