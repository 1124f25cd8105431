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
// 144 of them.
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
