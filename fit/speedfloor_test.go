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
		// no efficiency given (0), nvidia: e = 0.7529; 4.88681962 / (0.7529 × (1/20 − 0.001912))
		// = 4.88681962 / 0.0362055 = 134.97 → 135
		{DriverNVIDIA, 0, FamilyNVIDIA, 135},
		// amd: e = 0.7785; 4.88681962 / (0.7785 × 0.048088) = 4.88681962 / 0.0374365 = 130.54 → 131
		{DriverAMD, 0, FamilyAMD, 131},
		// any vendor: the least efficient family of the table, intel 0.4217 → 0.0202787 → 240.98 → 241
		{DriverAny, 0, FamilyIntel, 241},
		// a given efficiency overrides: 4.88681962 / (0.60 × 0.048088) = 4.88681962 / 0.0288528 = 169.37 → 170
		{DriverLlmfit, 60, "", 170},
		// 55 given is given too (it used to read as absent): 4.88681962 / (0.55 × 0.048088)
		// = 4.88681962 / 0.0264484 = 184.77 → 185, for nvidia as for any driver
		{DriverNVIDIA, 55, "", 185},
		{DriverLlmfit, 55, "", 185},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Driver, t.EfficiencyPct, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, c.driver, c.eff, "Q4_K_M"
		})
		if b.SpeedFamily != c.family || b.MinBandwidthGBs != c.floor || b.SpeedOverheadSeconds != 0.001912 {
			t.Errorf("%s eff %d: family %q, floor %d GB/s; want %q, %d", c.driver, c.eff, b.SpeedFamily, b.MinBandwidthGBs, c.family, c.floor)
		}
	}
}

// No bandwidth reaches 1 / t0 = 1 / 0.001912 s = 523.01 tok/s: the target is refused, naming the
// field and the largest reachable speed; just under it is accepted.
func TestKVUnreachableSpeed(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.MinTps = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, 524
	_, err := Resolve(tg)
	var fe *target.FieldError
	if !errors.As(err, &fe) || fe.Field != "minTps" || !strings.Contains(fe.Msg, "below 523.0 tokens/s") {
		t.Fatalf("524 tok/s: %v", err)
	}
	tg.MinTps = 523
	if _, err := Resolve(tg); err != nil {
		t.Errorf("523 tok/s: %v", err)
	}
	// 2 devices add 0.5 ms: 1 / 0.002412 = 414.59 tok/s.
	tg.MinTps, tg.Count = 415, 2
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 414.5 tokens/s") || !strings.Contains(fe.Msg, "0.5 ms between 2 devices") {
		t.Errorf("415 tok/s on 2: %v", err)
	}
	// A mixture of experts adds its layers' time: Qwen3-30B-A3B has 48 layers (architectures.csv),
	// 0.001912 + 48 × 0.00008828 = 0.00614944 s, 1 / 0.00614944 = 162.62 tok/s.
	tg.Model, tg.MinTps, tg.Count = "Qwen/Qwen3-30B-A3B-Instruct-2507", 163, 1
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 162.6 tokens/s") || !strings.Contains(fe.Msg, "6.149 ms per-token overhead of this mixture of experts") {
		t.Errorf("MoE at 163 tok/s: %v", err)
	}
	tg.MinTps = 162.6
	if _, err := Resolve(tg); err != nil {
		t.Errorf("MoE at 162.6 tok/s: %v", err)
	}
	tg.Model = "Qwen/Qwen2.5-7B-Instruct"
	// llmfit's mode has no overhead and keeps its limits.
	tg.Sizing, tg.MinTps, tg.Count = target.SizingLlmfit, 1000, 1
	if _, err := Resolve(tg); err != nil {
		t.Errorf("llmfit mode at 1000 tok/s: %v", err)
	}
}

// A device's estimate uses its own family: the RTX 4090 (1,008 GB/s, nvidia 0.7529) reads
// 4.88681962 GB per token of Qwen2.5-7B at Q4_K_M: 1 / (4.88681962 / (1008 × 0.7529) + 0.001912)
// = 1 / (4.88681962 / 758.9232 + 0.001912) = 1 / (0.0064391 + 0.001912) = 119.74 tok/s.
func TestKVMatchSpeed(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, "Q4_K_M"
	})
	for _, m := range Matches(b) {
		if m.Accelerator.Name == "NVIDIA GeForce RTX 4090" {
			if !within(m.EstTps, 119.74, 0.01) {
				t.Errorf("RTX 4090: %.3f tok/s, want 119.74", m.EstTps)
			}
			return
		}
	}
	t.Fatal("no RTX 4090 in the catalog")
}
