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
		// no efficiency given (0), nvidia: e = 0.7672; 4.88681962 / (0.7672 × (1/20 − 0.002138))
		// = 4.88681962 / 0.0367197 = 133.08 → 134
		{DriverNVIDIA, 0, FamilyNVIDIA, 134},
		// amd: e = 0.7947; 4.88681962 / (0.7947 × 0.047862) = 4.88681962 / 0.0380359 = 128.48 → 129
		{DriverAMD, 0, FamilyAMD, 129},
		// any vendor: the least efficient family of the table, intel 0.4293 → 237.83 → 238
		{DriverAny, 0, FamilyIntel, 238},
		// a given efficiency overrides: 4.88681962 / (0.60 × 0.047862) = 4.88681962 / 0.0287172 = 170.17 → 171
		{DriverLlmfit, 60, "", 171},
		// 55 given is given too (it used to read as absent): 4.88681962 / (0.55 × 0.047862)
		// = 4.88681962 / 0.0263241 = 185.64 → 186, for nvidia as for any driver
		{DriverNVIDIA, 55, "", 186},
		{DriverLlmfit, 55, "", 186},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Driver, t.EfficiencyPct, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, c.driver, c.eff, "Q4_K_M"
		})
		if b.SpeedFamily != c.family || b.MinBandwidthGBs != c.floor || b.SpeedOverheadSeconds != 0.002138 {
			t.Errorf("%s eff %d: family %q, floor %d GB/s; want %q, %d", c.driver, c.eff, b.SpeedFamily, b.MinBandwidthGBs, c.family, c.floor)
		}
	}
}

// No bandwidth reaches 1 / t0 = 1 / 0.002138 s = 467.73 tok/s: the target is refused, naming the
// field and the largest reachable speed; just under it is accepted.
func TestKVUnreachableSpeed(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.MinTps = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, 468
	_, err := Resolve(tg)
	var fe *target.FieldError
	if !errors.As(err, &fe) || fe.Field != "minTps" || !strings.Contains(fe.Msg, "below 467.7 tokens/s") {
		t.Fatalf("468 tok/s: %v", err)
	}
	tg.MinTps = 467.7
	if _, err := Resolve(tg); err != nil {
		t.Errorf("467.7 tok/s: %v", err)
	}
	// 2 devices add 0.5 ms: 1 / 0.002638 = 379.08 tok/s.
	tg.MinTps, tg.Count = 380, 2
	if _, err := Resolve(tg); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "below 379.0 tokens/s") || !strings.Contains(fe.Msg, "0.5 ms between 2 devices") {
		t.Errorf("380 tok/s on 2: %v", err)
	}
	// llmfit's mode has no overhead and keeps its limits.
	tg.Sizing, tg.MinTps, tg.Count = target.SizingLlmfit, 1000, 1
	if _, err := Resolve(tg); err != nil {
		t.Errorf("llmfit mode at 1000 tok/s: %v", err)
	}
}

// A device's estimate uses its own family: the RTX 4090 (1,008 GB/s, nvidia 0.7672) reads
// 4.88681962 GB per token of Qwen2.5-7B at Q4_K_M: 1 / (4.88681962 / (1008 × 0.7672) + 0.002138)
// = 1 / (4.88681962 / 773.3376 + 0.002138) = 1 / (0.0063191 + 0.002138) = 118.25 tok/s.
func TestKVMatchSpeed(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "Qwen/Qwen2.5-7B-Instruct", target.SizingKV, "Q4_K_M"
	})
	for _, m := range Matches(b) {
		if m.Accelerator.Name == "NVIDIA GeForce RTX 4090" {
			if !within(m.EstTps, 118.25, 0.01) {
				t.Errorf("RTX 4090: %.3f tok/s, want 118.25", m.EstTps)
			}
			return
		}
	}
	t.Fatal("no RTX 4090 in the catalog")
}
