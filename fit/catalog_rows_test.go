package fit

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// The NVIDIA boards added to data/accelerators.csv on 2026-12-03, by id, with the productName
// NVIDIA's DRA driver publishes for each (NVML's device name, as nvidia-smi prints it).
var addedNVIDIARows = map[string]string{
	"nvidia-a30":          "NVIDIA A30",
	"nvidia-a40":          "NVIDIA A40",
	"nvidia-a16":          "NVIDIA A16",
	"nvidia-a2":           "NVIDIA A2",
	"nvidia-h20":          "NVIDIA H20",
	"nvidia-h800-sxm":     "NVIDIA H800",
	"nvidia-h800-pcie":    "NVIDIA H800 PCIe",
	"nvidia-gh200-144":    "NVIDIA GH200 144G HBM3e",
	"nvidia-gb200":        "NVIDIA GB200",
	"nvidia-b300":         "NVIDIA B300 SXM6 AC",
	"nvidia-gb300":        "NVIDIA GB300",
	"nvidia-l20":          "NVIDIA L20",
	"nvidia-v100-pcie-16": "Tesla V100-PCIE-16GB",
	"nvidia-v100-pcie-32": "Tesla V100-PCIE-32GB",
	"nvidia-rtx-5000-ada": "NVIDIA RTX 5000 Ada Generation",
}

// An NVIDIA claim's bandwidth floor is an allow-list of productNames, and one missing names
// nothing. Rows share a productName only where NVIDIA's driver names the boards alike (NVML's
// device name: the RTX 3080's 10 and 12 GB, the RTX 4060 Ti's 8 and 16 GB), and never differing
// in case alone (lookup ignores case). Those are the only shared names, so one added by mistake
// fails here.
func TestNVIDIAProductNamesNameOneRow(t *testing.T) {
	shared := map[string][]string{
		"NVIDIA GeForce RTX 3080":    {"nvidia-rtx-3080", "nvidia-rtx-3080-12"},
		"NVIDIA GeForce RTX 4060 Ti": {"nvidia-rtx-4060-ti-8", "nvidia-rtx-4060-ti-16"},
	}
	seen := map[string][]string{}
	for _, a := range catalog.Accelerators() {
		if a.Driver != "gpu.nvidia.com" {
			continue
		}
		if a.ProductName == "" {
			t.Errorf("%s: NVIDIA row without productName", a.ID)
			continue
		}
		for k, ids := range seen {
			if strings.EqualFold(k, a.ProductName) && k != a.ProductName {
				t.Errorf("productName %q of %s differs from %s's %q in case only", a.ProductName, a.ID, ids[0], k)
			}
		}
		seen[a.ProductName] = append(seen[a.ProductName], a.ID)
	}
	for p, ids := range seen {
		if len(ids) > 1 && !slices.Equal(ids, shared[p]) {
			t.Errorf("productName %q names %v", p, ids)
		}
	}
	for p, ids := range shared {
		if !slices.Equal(seen[p], ids) {
			t.Errorf("productName %q names %v, want %v", p, seen[p], ids)
		}
	}
}

// A productName boards of different speeds share is listed only when the slowest meets the
// bandwidth floor: the CEL checks each device's memory, but nothing checks its bandwidth. At 9 Gi
// and 800 GB/s the RTX 3080 12GB (912 GB/s) qualifies and the 10 GB (760) does not, and both
// publish "NVIDIA GeForce RTX 3080", so the name stays out; at 700 GB/s it is in.
func TestSharedProductNameListedOnlyWhenTheSlowestMeetsTheFloor(t *testing.T) {
	nv, _ := driverByName(DriverNVIDIA)
	for _, c := range []struct {
		floor int64
		want  bool
	}{{800, false}, {760, true}, {700, true}} {
		b := Bounds{Driver: nv, MemoryGi: 9, MinBandwidthGBs: c.floor, NVIDIAMinBandwidthGBs: c.floor}
		if err := b.resolveProducts(); err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(b.Products, "NVIDIA GeForce RTX 3080"); got != c.want {
			t.Errorf("9 Gi, %d GB/s: RTX 3080 listed %v, want %v (%v)", c.floor, got, c.want, b.Products)
		}
		if !slices.Contains(b.Products, "NVIDIA GeForce RTX 3090") {
			t.Errorf("9 Gi, %d GB/s: RTX 3090 (936 GB/s) not listed: %v", c.floor, b.Products)
		}
	}
}

// Each added row is in the catalog with its productName, and --on finds it by that name.
func TestAddedNVIDIARowsByProductName(t *testing.T) {
	for id, product := range addedNVIDIARows {
		a, ok := LookupAccelerator(product)
		if !ok || a.ID != id || a.ProductName != product || a.Family != FamilyNVIDIA || a.Unified {
			t.Errorf("%s: lookup %q gives %+v, %v", id, product, a, ok)
		}
	}
}

// A kv claim for the nvidia driver that every added board meets (7B at Q4_K_M, 1 tok/s) lists
// each of them; one that needs more than 80 Gi lists the H20 (97,871 MiB) but not the H800s,
// which report 81,559 MiB as the H100 does.
func TestAddedNVIDIARowsAreSelectable(t *testing.T) {
	b := resolveFixture(t, func(tg *target.Target) { tg.Sizing, tg.Driver, tg.MinTps, tg.Quant = "kv", DriverNVIDIA, 1, "Q4_K_M" })
	if b.MemoryGi > 14 {
		t.Fatalf("7B Q4_K_M: %d Gi, more than the A16 and A2 hold", b.MemoryGi)
	}
	for id, product := range addedNVIDIARows {
		if !slices.Contains(b.Products, product) {
			t.Errorf("%s: %d Gi claim's allow-list lacks %q: %v", id, b.MemoryGi, product, b.Products)
		}
	}
	found := false
	for p := 100.0; p < 200 && !found; p += 1 {
		tg := target.Default()
		tg.ParamsB, tg.Sizing, tg.Driver, tg.MinTps = p, "kv", DriverNVIDIA, 1
		b, err := Resolve(tg)
		if err != nil || b.MemoryGi <= 80 || b.MemoryGi > 95 {
			continue
		}
		found = true
		if !slices.Contains(b.Products, "NVIDIA H20") {
			t.Errorf("%g B, %d Gi: allow-list lacks NVIDIA H20: %v", p, b.MemoryGi, b.Products)
		}
		for _, no := range []string{"NVIDIA H800", "NVIDIA H800 PCIe", "NVIDIA H100 80GB HBM3"} {
			if slices.Contains(b.Products, no) {
				t.Errorf("%g B, %d Gi: allow-list has %s (81,559 MiB)", p, b.MemoryGi, no)
			}
		}
		ms := Matches(b)
		if h20 := findMatch(t, ms, "nvidia-h20"); !h20.Selected {
			t.Errorf("%g B, %d Gi: H20 not selected: %+v", p, b.MemoryGi, h20)
		}
	}
	if !found {
		t.Fatal("no custom model size gives a floor between 80 and 95 Gi")
	}
}

// The RTX 3080 12GB (912 GB/s) meets an 800 GB/s floor by itself, but its name is the 10 GB
// board's too (760 GB/s), so the allow-list leaves the name out and the claim cannot pick it:
// its Match says so (Selected false), as conformance's fleet shows the selector does.
func TestSharedProductNameBoardNotSelected(t *testing.T) {
	nv, _ := driverByName(DriverNVIDIA)
	b := Bounds{Driver: nv, MemoryGi: 9, MinBandwidthGBs: 800, NVIDIAMinBandwidthGBs: 800}
	b.Target = target.Default()
	b.Target.Driver = DriverNVIDIA
	if err := b.resolveProducts(); err != nil {
		t.Fatal(err)
	}
	for _, m := range Matches(b) {
		switch m.Accelerator.ID {
		case "nvidia-rtx-3080-12":
			if !m.FitsMemory || !m.FitsBandwidth || m.Selected {
				t.Errorf("RTX 3080 12GB: fits memory %v, bandwidth %v, selected %v; want fits both, not selected", m.FitsMemory, m.FitsBandwidth, m.Selected)
			}
		case "nvidia-rtx-3090":
			if !m.Selected {
				t.Errorf("RTX 3090 (936 GB/s, its own name) not selected")
			}
		}
	}
}
