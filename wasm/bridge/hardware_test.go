package bridge

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

func TestDevicesJSON(t *testing.T) {
	var v struct {
		Families []string
		Devices  []struct {
			ID, Name, ShortName, Family string
			MemoryGiB                   float64
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
	// shortName where the catalog has one (a name over 32 characters), and only there.
	short := map[string]string{}
	for _, d := range v.Devices {
		if d.ShortName != "" {
			short[d.ID] = d.ShortName
		}
	}
	want := map[string]string{}
	for _, a := range catalog.Accelerators() {
		if a.ShortName != "" {
			want[a.ID] = a.ShortName
		}
	}
	if len(want) != 4 || !maps.Equal(short, want) {
		t.Errorf("short names %v, want the catalog's %v", short, want)
	}
	if short["nvidia-rtx-pro-6000-ws"] != "NVIDIA RTX PRO 6000 Workstation" {
		t.Errorf("nvidia-rtx-pro-6000-ws: shortName %q", short["nvidia-rtx-pro-6000-ws"])
	}
}
