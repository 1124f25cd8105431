package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

// The accelerator table's family and unified columns reach the speed model (data/accelerators.csv).
func TestAcceleratorFamilyFromTable(t *testing.T) {
	want := map[string]struct {
		family  string
		unified bool
	}{
		"nvidia-rtx-4090":    {FamilyNVIDIA, false},
		"nvidia-rtx-2080-ti": {FamilyNVIDIA, false},
		"nvidia-gb10":        {FamilyNVIDIAUnified, true},
		"amd-mi300a":         {FamilyAMD, false}, // the driver publishes the GPU's share (KFD's TTM limit)
		"amd-rx-9070xt":      {FamilyAMD, false},
		"apple-m4-max-128":   {FamilyApple, true},
		"intel-arc-b580":     {FamilyIntel, false},
	}
	seen := 0
	for _, a := range catalog.Accelerators() {
		w, ok := want[a.ID]
		if !ok {
			continue
		}
		seen++
		if f, u := AcceleratorFamily(&a); f != w.family || u != w.unified {
			t.Errorf("%s: family %q unified %v, want %q %v", a.ID, f, u, w.family, w.unified)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d accelerators", seen, len(want))
	}
}
