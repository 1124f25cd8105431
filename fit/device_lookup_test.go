package fit

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// An operator names a device as they see it: the catalog id, the display name, or the
// productName NVIDIA's driver publishes (what nvidia-smi and `kubectl get resourceslices`
// print), in any case. The H100 SXM is all three of "nvidia-h100-sxm", "NVIDIA H100 SXM 80GB"
// and "NVIDIA H100 80GB HBM3"; its driver reading is 81,559 MiB = 79.6475 GiB.
func TestLookupAcceleratorByIDNameOrProductName(t *testing.T) {
	for _, q := range []string{
		"nvidia-h100-sxm", "NVIDIA-H100-SXM",
		"NVIDIA H100 SXM 80GB", "nvidia h100 sxm 80gb",
		"NVIDIA H100 80GB HBM3", "nvidia h100 80gb hbm3", "  NVIDIA H100 80GB HBM3 ",
	} {
		a, ok := LookupAccelerator(q)
		if !ok || a.ID != "nvidia-h100-sxm" || a.MemoryMiB != 81559 {
			t.Errorf("%q: got %q (found %v), want nvidia-h100-sxm with 81,559 MiB", q, a.ID, ok)
		}
	}
	// The A100's productName differs from its display name by a hyphen: "NVIDIA A100-SXM4-80GB".
	if a, ok := LookupAccelerator("NVIDIA A100-SXM4-80GB"); !ok || a.ID != "nvidia-a100-sxm-80" {
		t.Errorf("A100 by productName: got %q (found %v)", a.ID, ok)
	}
	// AMD's driver publishes the sysfs product_name with spaces as underscores (ROCm/k8s-gpu-dra-driver
	// docs/demo.md: an MI300X node's productName AMD_Instinct_MI300X_OAM): what a user copies from
	// kubectl get resourceslices names the MI300X too (it was "unknown device", no suggestion).
	for _, q := range []string{"AMD_Instinct_MI300X_OAM", "amd_instinct_mi300x_oam"} {
		if a, ok := LookupAccelerator(q); !ok || a.ID != "amd-mi300x" {
			t.Errorf("%q: got %q (found %v), want amd-mi300x", q, a.ID, ok)
		}
	}
	e, err := EstimateOn(customTarget(8, 32, 8, 128), Device{On: "NVIDIA H100 80GB HBM3"})
	if err != nil {
		t.Fatal(err)
	}
	// 81,559 / 1,024 = 79.64746 GiB
	if !within(e.UsableGiB, 79.64746, 1e-5) || e.DeviceName != "NVIDIA H100 SXM 80GB" {
		t.Errorf("usable %v name %q", e.UsableGiB, e.DeviceName)
	}
}

// An unknown device names the field by its label and offers the closest catalog ids, not all
// 157 of them.
func TestUnknownAcceleratorSuggestsClosest(t *testing.T) {
	_, err := EstimateOn(customTarget(8, 32, 8, 128), Device{On: "h100"})
	var fe *target.FieldError
	if !errors.As(err, &fe) || fe.Field != "on" {
		t.Fatalf("error %v, want one naming on", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "Device") || !strings.Contains(msg, "nvidia-h100-sxm") || strings.Contains(msg, "apple-m1-8") {
		t.Errorf("message %q: want the label, the H100 ids and not the whole table", msg)
	}
	if len(msg) > 400 {
		t.Errorf("message is %d characters long: %q", len(msg), msg)
	}
}

// TestDeviceTextLimits: a device's id or family over the field's limit is refused with the
// limit, as Validate words it, and an unknown one is quoted back cut short. An id of 129 to 512
// characters was looked up and quoted whole ("unknown device "aaaa…" of 500 characters), the
// limit (128) never said.
func TestDeviceTextLimits(t *testing.T) {
	for _, c := range []struct {
		d    Device
		want string
	}{
		{Device{On: strings.Repeat("a", 129)}, "Device (on): must be at most 128 characters (got 129)"},
		{Device{On: strings.Repeat("模", 500)}, "Device (on): must be at most 128 characters (got 500)"},
		{Device{MemoryGiB: 80, BandwidthGBs: 1000, Family: strings.Repeat("n", 33)}, "Device family (family): must be at most 32 characters (got 33)"},
		{Device{On: strings.Repeat("x", 128)}, `Device (on): unknown device "` + strings.Repeat("x", 60) + `"…; give a catalog id`},
		{Device{MemoryGiB: 80, BandwidthGBs: 1000, Family: strings.Repeat("q", 32)}, `Device family (family): must be one of nvidia, nvidia-pascal, nvidia-unified, amd, apple, intel, other (got "` + strings.Repeat("q", 32) + `")`},
	} {
		_, _, err := resolveDevice(c.d)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.40v: %v; want %s", c.d, err, c.want)
		}
	}
}
