package bridge

import (
	"encoding/json"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

func TestDevicesJSON(t *testing.T) {
	var v struct {
		Families []string
		Devices  []struct {
			ID, Name, Family string
			MemoryGiB        float64
		}
	}
	if err := json.Unmarshal([]byte(DevicesJSON()), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Families) != 7 || len(v.Devices) != len(catalog.Accelerators()) {
		t.Errorf("%d families, %d devices; want 7 and the catalog's %d", len(v.Families), len(v.Devices), len(catalog.Accelerators()))
	}
	// The catalog's first row, nvidia-b200: 183,359 MiB / 1024 = 179.0615234375 GiB, unrounded.
	if len(v.Devices) > 0 {
		d := v.Devices[0]
		if d.ID != "nvidia-b200" || d.Name != "NVIDIA B200" || d.Family != "nvidia" || d.MemoryGiB != 179.0615234375 {
			t.Errorf("first device %+v, want nvidia-b200, NVIDIA B200, nvidia, 179.0615234375 GiB", d)
		}
	}
}
