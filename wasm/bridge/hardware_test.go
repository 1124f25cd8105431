package bridge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/estimate"
)

// The hardware mode holds the API's estimate object byte for byte, the command line's text and
// the list of fitting models.
func TestHardwareJSON(t *testing.T) {
	q := "p=8&L=32&kvh=8&hd=128&memory=24&bandwidth=1000&family=nvidia"
	out, err := HardwareJSON(q)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Estimate json.RawMessage
		Text     string
		Fitting  []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	e, err := estimate.RunRaw(q)
	if err != nil {
		t.Fatal(err)
	}
	if string(v.Estimate) != estimate.JSON(e) || v.Text != estimate.Text(e) || len(v.Fitting) != HardwareFitting {
		t.Errorf("hardware: %s", out)
	}
	// No model: the fitting list alone.
	out, err = HardwareJSON("on=nvidia-rtx-4090")
	if err != nil || !strings.HasPrefix(out, `{"estimate":null,"text":"","fitting":[{`) {
		t.Errorf("no model: %v %s", err, out)
	}
	if _, err := HardwareJSON("on=nvidia-rtx-4090&family=amd"); err == nil {
		t.Error("on with family: no error")
	}
}

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
