package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// The floor is the need rounded up to the MiB; a need that is a whole MiB but for floating-point
// error stays that MiB, and a whole Gi is spelled in Gi.
func TestFloorToTheMiB(t *testing.T) {
	for _, c := range []struct {
		need       float64 // GiB
		mi, gi     int64
		quantity   string
		floorWords string
	}{
		{23757.0 / 1024, 23757, 24, "23757Mi", "23,757 Mi (23.20 Gi)"},
		{23757.0/1024 + 1e-13, 23757, 24, "23757Mi", "23,757 Mi (23.20 Gi)"}, // float error above a whole MiB
		{23757.0/1024 - 1e-13, 23757, 24, "23757Mi", "23,757 Mi (23.20 Gi)"},
		{23757.3 / 1024, 23758, 24, "23758Mi", "23,758 Mi (23.20 Gi)"},
		{24, 24576, 24, "24Gi", "24 Gi"},
		{23.999999999999996, 24576, 24, "24Gi", "24 Gi"},
		{24.000000000000004, 24576, 24, "24Gi", "24 Gi"}, // not 24,577 Mi, not 25 Gi
		{24.0001, 24577, 25, "24577Mi", "24,577 Mi (24.00 Gi)"},
		{81559.0 / 1024, 81559, 80, "81559Mi", "81,559 Mi (79.64 Gi)"},
		{0.5, 512, 1, "512Mi", "512 Mi (0.50 Gi)"},
		{1e300, maxFloor, maxFloor >> 10, "8796093022208Gi", "8796093022208 Gi"}, // capped, still matches nothing
	} {
		var b Bounds
		b.setMemoryFloor(c.need, true)
		if b.MemoryMi != c.mi || b.MemoryGi != c.gi || b.MemoryQuantity() != c.quantity || b.MemoryFloorText() != c.floorWords {
			t.Errorf("need %v GiB: %d Mi, %d Gi, %q, %q; want %d, %d, %q, %q", c.need, b.MemoryMi, b.MemoryGi,
				b.MemoryQuantity(), b.MemoryFloorText(), c.mi, c.gi, c.quantity, c.floorWords)
		}
	}
	// llmfit's mode keeps its whole-Gi floor, and its MiB are that × 1024
	var b Bounds
	b.setMemoryFloor(23.2, false)
	if b.MemoryGi != 24 || b.MemoryMi != 24*1024 || b.MemoryQuantity() != "24Gi" || b.MemoryFloorText() != "24 Gi" {
		t.Errorf("llmfit: %d Gi, %d Mi, %q", b.MemoryGi, b.MemoryMi, b.MemoryQuantity())
	}
	b.setMemoryFloor(1e300, false)
	if b.MemoryGi != maxFloor || b.MemoryMi != maxFloor || b.MemoryQuantity() != "9007199254740992Gi" {
		t.Errorf("llmfit capped: %d Gi, %d Mi, %q", b.MemoryGi, b.MemoryMi, b.MemoryQuantity())
	}
}

// A need a little under an RTX 4090's memory (24,564 MiB, 23.99 GiB) selects it: Qwen3-8B in
// BF16 at 26,624 tokens × 2 needs 23,867 MiB (23.31 GiB). The whole-Gi floor asked 24 Gi and
// refused every RTX 4090 (and every device of 24,564 or 24,560 MiB).
func TestFloorToTheMiBSelectsTheRTX4090(t *testing.T) {
	b := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Driver, tg.Quant = "Qwen/Qwen3-8B", target.SizingKV, DriverNVIDIA, "BF16"
		tg.Context, tg.Sequences, tg.MinTps = 26624, 2, 5
	})
	if b.MemoryMi != 23867 || b.MemoryGi != 24 || b.MemoryQuantity() != "23867Mi" {
		t.Fatalf("floor %d Mi (%d Gi), %q; want 23867 Mi", b.MemoryMi, b.MemoryGi, b.MemoryQuantity())
	}
	if !(b.MemoryGB > 23 && b.MemoryGB*1024 > 23866 && b.MemoryGB*1024 <= 23867) {
		t.Errorf("need %v GiB is not within the floor's MiB", b.MemoryGB)
	}
	found := false
	for _, m := range Matches(b) {
		a := m.Accelerator
		if a.Name != "NVIDIA GeForce RTX 4090" {
			continue
		}
		found = true
		if a.MemoryMiB != 24564 || !m.FitsMemory || !m.Selected || b.MemoryGi<<10 <= a.MemoryMiB {
			t.Errorf("RTX 4090 (%d MiB): fits memory %v, selected %v", a.MemoryMiB, m.FitsMemory, m.Selected)
		}
	}
	listed := false
	for _, p := range b.Products {
		listed = listed || p == "NVIDIA GeForce RTX 4090"
	}
	if !found || !listed {
		t.Errorf("RTX 4090 in the table %v, on the allow-list %v: %v", found, listed, b.Products)
	}
}

// fitsMemory compares the floor with the device's MiB as the scheduler compares bytes: a device
// of exactly the floor fits, one MiB less does not.
func TestFitsMemoryToTheMiB(t *testing.T) {
	a := catalog.Accelerator{MemoryMiB: 81559}
	if !fitsMemory(&a, 81559) || fitsMemory(&a, 81560) || !fitsMemory(&a, 79*1024) || fitsMemory(&a, 80*1024) {
		t.Error("fitsMemory does not compare MiB")
	}
	if fitsMemory(&a, maxFloor) {
		t.Error("a capped floor fits")
	}
}

// llmfit's mode: the floor is whole Gi and MemoryMi is it × 1024, for every count.
func TestLlmfitFloorIsWholeGi(t *testing.T) {
	models := catalog.Models()
	for i := 0; i < len(models); i += 97 {
		for _, n := range []int{1, 3} {
			tg := target.Default()
			tg.Model, tg.Count = models[i].Name, n
			b, err := Resolve(tg)
			if err != nil {
				continue
			}
			if b.MemoryMi != b.MemoryGi*1024 || !b.MemoryWhole() {
				t.Errorf("%s × %d: %d Mi, %d Gi", tg.Model, n, b.MemoryMi, b.MemoryGi)
			}
		}
	}
}
