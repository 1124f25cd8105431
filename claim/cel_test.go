package claim

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// celEscape is the Replacer it replaced, byte for byte.
func TestCelEscapeIsTheReplacer(t *testing.T) {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	for _, s := range []string{"", "H100", `a'b`, `a\b`, `'\'`, `\\''`, "émoji ☃ '", "\xff'\\"} {
		if got, want := celEscape(s), r.Replace(s); got != want {
			t.Errorf("celEscape(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestMemorylessProductTakenByName: NVIDIA's driver publishes no memory for the GB10 (NVML has
// none for its unified memory), so a claim whose allow-list names it takes it by that name when
// the device has no memory capacity; a claim that does not list it keeps the plain clause.
func TestMemorylessProductTakenByName(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Driver, tg.MinTps = "Qwen/Qwen3-8B", target.SizingKV, fit.DriverNVIDIA, 5
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Bounds.Products, "NVIDIA GB10") {
		t.Fatalf("GB10 not listed: %q", r.Bounds.Products)
	}
	for _, want := range []string{
		"('memory' in device.capacity['gpu.nvidia.com'] ?\n",
		"'productName' in device.attributes['gpu.nvidia.com'] &&\n                  device.attributes['gpu.nvidia.com'].productName in ['NVIDIA GB10']) &&\n",
		"# driver: NVIDIA GB10 publishes no memory",
	} {
		if !strings.Contains(r.YAML, want) {
			t.Errorf("no %q in\n%s", want, r.YAML)
		}
	}
	tg.MinTps = 60 // above what the GB10's 273 GB/s gives an 8B model
	if r, err = Render(tg); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(r.Bounds.Products, "NVIDIA GB10") || strings.Contains(r.YAML, " ?\n") || strings.Contains(r.YAML, "publishes no memory") {
		t.Errorf("GB10 not listed, yet the memoryless branch is written:\n%s", r.YAML)
	}
}

// TestMemoryShareLeavesMemorylessOut: a claim that asks each device's memory as a capacity
// request can never be given a device whose driver publishes no memory (the allocator takes a
// device only if it publishes the capacity asked), so its allow-list leaves the GB10 out and no
// by-name branch is written; the table does not mark the GB10 selected.
func TestMemoryShareLeavesMemorylessOut(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Driver, tg.MinTps = "Qwen/Qwen3-8B", target.SizingKV, fit.DriverNVIDIA, 5
	tg.CapacityRequest = true
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(r.Bounds.Products, "NVIDIA GB10") || strings.Contains(r.YAML, " ?\n") || strings.Contains(r.YAML, "publishes no memory") {
		t.Errorf("a memory share of a device that publishes no memory:\n%s", r.YAML)
	}
	if len(r.Bounds.Products) == 0 || !strings.Contains(r.YAML, "capacity:\n") {
		t.Fatalf("no allow-list or no capacity request:\n%s", r.YAML)
	}
	seen := false
	for _, m := range fit.Matches(r.Bounds) {
		if m.Accelerator.ProductName != "NVIDIA GB10" {
			continue
		}
		seen = true
		if !m.Fits() || m.Selected || !r.Bounds.ShareUnavailable(m.Accelerator) {
			t.Errorf("GB10: fits %v, selected %v, share unavailable %v", m.Fits(), m.Selected, r.Bounds.ShareUnavailable(m.Accelerator))
		}
	}
	if !seen {
		t.Fatal("no GB10 in the catalog")
	}
}
