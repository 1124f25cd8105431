package conformance

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
	"k8s.io/dynamic-resource-allocation/structured"
)

func renderManifest(t *testing.T, tg target.Target) (claim.Result, Manifest) {
	t.Helper()
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := DecodeAndValidate([]byte(r.YAML))
	if err != nil {
		t.Fatal(err)
	}
	return r, m
}

// claimToCheck is renderManifest for a grid of targets, some of which the engine refuses (an
// NVIDIA target no catalog product meets): ok is false for those, which have no claim to check.
func claimToCheck(t *testing.T, tg target.Target) (r claim.Result, m Manifest, ok bool) {
	t.Helper()
	r, err := claim.Render(tg)
	if err != nil {
		return r, m, false
	}
	if m, err = DecodeAndValidate([]byte(r.YAML)); err != nil { // decoded, defaulted (ExactCount) and validated
		t.Fatal(err)
	}
	return r, m, true
}

// oneRequestToCheck is claimToCheck with the alternatives of the claim's one request (the
// engine writes one, "model"), which the tests hold the matcher and the allocator to.
func oneRequestToCheck(t *testing.T, tg target.Target) (r claim.Result, m Manifest, alts []Alternative, ok bool) {
	t.Helper()
	if r, m, ok = claimToCheck(t, tg); !ok {
		return r, m, nil, false
	}
	reqs, err := Requests(m)
	if err != nil || len(reqs) != 1 {
		t.Fatalf("requests %v %v", reqs, err)
	}
	return r, m, reqs[0].Alternatives, true
}

// The NVIDIA claim's guards as the scheduler applies them, on small fleets
// built to need them: matchAttribute on productName for count > 1, whole GPUs
// only, the allow-list, taints, and firstAvailable's order; with each of the
// allocator's three implementations (which one a scheduler runs depends on
// its feature gates).
func TestAllocatorNVIDIAFleets(t *testing.T) {
	for _, impl := range []string{"stable", "incubating", "experimental"} {
		t.Run(impl, func(t *testing.T) {
			structured.EnableAllocators(impl)
			defer structured.EnableAllocators()
			got, err := AllocatorImplementation(context.Background())
			if err != nil || got != "*"+impl+".Allocator" {
				t.Fatalf("allocator implementation %q (%v), want %s", got, err, impl)
			}
			allocatorNVIDIAFleets(t)
		})
	}
}

func allocatorNVIDIAFleets(t *testing.T) {
	ctx := context.Background()
	accels := CatalogAccelerators()
	tg := target.Default()
	tg.Model = "Qwen/Qwen2.5-7B-Instruct"
	tg.MinTps = 150 // a floor some NVIDIA products miss
	tg.Driver = fit.DriverNVIDIA
	tg.Count = 2
	r, m := renderManifest(t, tg)
	b := &r.Bounds
	products := NVIDIAProducts(accels, b.MemoryMi, b.MinBandwidthGBs)
	var listed, unlisted []Accel
	for _, a := range accels {
		if a.Driver != DriverNVIDIA {
			continue
		}
		if slices.Contains(products, a.ProductName) {
			listed = append(listed, a)
		} else if a.MemoryMiB >= b.MemoryMi {
			unlisted = append(unlisted, a) // enough memory, too slow
		}
	}
	if len(listed) < 2 || len(unlisted) < 1 {
		t.Fatalf("%d Gi, %d GB/s: need two listed products and one too slow with enough memory; listed %v", b.MemoryGi, b.MinBandwidthGBs, products)
	}
	t.Logf("%s n=2 at 150 tok/s: %d Gi, %d GB/s per device; allow-list %q; too slow: %s", tg.Model, b.MemoryGi, b.MinBandwidthGBs, products, unlisted[0].Name)
	dev := func(a Accel, v string, name string) FakeDevice {
		d := NVIDIADevice(a, v, 1)
		d.Name = name
		return d
	}
	for _, tc := range []struct {
		name  string
		fleet Fleet
		want  []string
	}{
		{"two of one listed product", Fleet{dev(listed[0], VariantComplete, "a"), dev(listed[0], VariantComplete, "b")}, []string{"a", "b"}},
		{"two listed products: matchAttribute refuses", Fleet{dev(listed[0], VariantComplete, "a"), dev(listed[1], VariantComplete, "b")}, nil},
		{"one GPU and its MIG slice", Fleet{dev(listed[0], VariantComplete, "a"), dev(listed[0], VariantMIG, "b")}, nil},
		{"two of one listed product, one tainted", Fleet{dev(listed[0], VariantComplete, "a"), dev(listed[0], VariantComplete, "b").Taint()}, nil},
		{"three, one tainted", Fleet{dev(listed[0], VariantComplete, "a"), dev(listed[0], VariantComplete, "b").Taint(), dev(listed[0], VariantComplete, "c")}, []string{"a", "c"}},
		{"one listed GPU", Fleet{dev(listed[0], VariantComplete, "a")}, nil},
		{"two too-slow GPUs", Fleet{dev(unlisted[0], VariantComplete, "a"), dev(unlisted[0], VariantComplete, "b")}, nil},
		{"mixed: picks the matching pair", Fleet{dev(listed[0], VariantComplete, "a"), dev(listed[1], VariantComplete, "b"), dev(unlisted[0], VariantComplete, "c"), dev(listed[1], VariantComplete, "d")}, []string{"b", "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Allocate(ctx, m, tc.fleet)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, a := range got {
				if a.Request != "model" || a.Driver != DriverNVIDIA {
					t.Errorf("allocated %+v", a)
				}
				names = append(names, a.Device)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.want) {
				t.Errorf("allocated %v, want %v", names, tc.want)
			}
		})
	}

	// any: llmfit.ai first, NVIDIA next, nothing when neither fits.
	tg.Driver, tg.Count = fit.DriverAny, 1
	r, m = renderManifest(t, tg)
	llm := LLMfitDevice(listed[0], VariantComplete)
	sick := LLMfitDevice(listed[0], VariantUnhealthy)
	gpu := dev(listed[0], VariantComplete, "gpu")
	slow := dev(unlisted[0], VariantComplete, "slow")
	for _, tc := range []struct {
		name     string
		fleet    Fleet
		request  string
		device   string
		refusing bool
	}{
		{"both: llmfit.ai first", Fleet{gpu, llm}, "model/llmfit", llm.Name, false},
		{"llmfit.ai unhealthy: NVIDIA", Fleet{sick, gpu}, "model/nvidia", "gpu", false},
		{"neither", Fleet{sick, slow}, "", "", true},
	} {
		t.Run("any/"+tc.name, func(t *testing.T) {
			got, err := Allocate(ctx, m, tc.fleet)
			if err != nil {
				t.Fatal(err)
			}
			if tc.refusing {
				if got != nil {
					t.Errorf("allocated %+v, want refusal", got)
				}
				return
			}
			if len(got) != 1 || got[0].Request != tc.request || got[0].Device != tc.device {
				t.Errorf("allocated %+v, want %s from %s", got, tc.device, tc.request)
			}
		})
	}
}

// REFERENCE §4's trap, by hand: an "80 GB" H100 reports 81,559 MiB, less than
// 80 Gi = 81,920 MiB, while the A100 80GB reports exactly 81,920 MiB. A claim
// for 80 Gi must list the A100 80GB and the H100 NVL (95,830 MiB) but not the
// H100 SXM or PCIe, and the allocator must agree.
func TestEightyGiBOnNVIDIA(t *testing.T) {
	ctx := context.Background()
	tg := target.Default()
	tg.Driver, tg.MinTps = fit.DriverNVIDIA, 1 // bandwidth floor far below every product
	found := false
	for p := 100.0; p < 200; p += 0.25 {
		tg.ParamsB = p
		if b, err := fit.Resolve(tg); err == nil && b.MemoryGi == 80 {
			found = true
			break
		}
	}
	if !found {
		t.Fatal("no custom model size gives an 80 Gi floor")
	}
	r, m := renderManifest(t, tg)
	t.Logf("paramsB %g: %d Gi, %d GB/s; products %q", tg.ParamsB, r.Bounds.MemoryGi, r.Bounds.MinBandwidthGBs, r.Bounds.Products)
	for _, p := range []string{"NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB PCIe", "NVIDIA H100 NVL", "NVIDIA H200", "NVIDIA H200 NVL", "NVIDIA B200", "NVIDIA GH200 480GB", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
		"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA GB10", // these two: 97,887 and 122,572 MiB
		"NVIDIA H20", "NVIDIA GH200 144G HBM3e", "NVIDIA GB200", "NVIDIA B300 SXM6 AC", "NVIDIA GB300",
		// the rows added in the fourteenth session: 97,871 and 97,887 MiB; the A800s 81,920 exactly
		"NVIDIA GH200 120GB", "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "NVIDIA A800-SXM4-80GB", "NVIDIA A800 80GB PCIe"} {
		if !slices.Contains(r.Bounds.Products, p) {
			t.Errorf("allow-list lacks %q", p)
		}
	}
	for _, p := range []string{"NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA L40S", "NVIDIA GeForce RTX 5090", "NVIDIA H800", "NVIDIA H800 PCIe"} {
		if slices.Contains(r.Bounds.Products, p) {
			t.Errorf("allow-list has %q", p)
		}
	}
	if len(r.Bounds.Products) != 19 {
		t.Errorf("allow-list has %d products, want the 19 above", len(r.Bounds.Products))
	}
	byID := map[string]Accel{}
	for _, a := range CatalogAccelerators() {
		byID[a.ID] = a
	}
	for _, tc := range []struct {
		id   string
		fits bool
	}{{"nvidia-h100-sxm", false}, {"nvidia-h100-pcie", false}, {"nvidia-a100-sxm-80", true}, {"nvidia-h100-nvl", true}} {
		got, err := Allocate(ctx, m, Fleet{NVIDIADevice(byID[tc.id], VariantComplete, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if (got != nil) != tc.fits {
			t.Errorf("%s: allocated %+v, want fits=%v", tc.id, got, tc.fits)
		}
	}
}

// findParamsB returns a custom model size whose floor for target is memoryGi.
func findParamsB(t *testing.T, tg target.Target, memoryGi int64) target.Target {
	t.Helper()
	for p := 1.0; p < 1000; p += 0.25 {
		tg.ParamsB = p
		if b, err := fit.Resolve(tg); err == nil && b.MemoryGi == memoryGi {
			return tg
		}
	}
	t.Fatalf("no custom model size gives a %d Gi floor", memoryGi)
	return tg
}

// AMD and Intel claims enforce the memory floor only, as each driver reports
// memory (AMD in bytes, 0 = unknown; Intel in Mi). By hand from the CSV:
// 64 Gi = 65,536 MiB admits MI325X, MI300X, MI250X (one GCD) and MI210, then
// the later rows MI250 (one GCD), MI300A (96,335 MiB), MI350X and MI355X (all at or above
// 65,536 MiB), not MI100 or the Radeons; 48 Gi = 49,152 MiB admits Max 1550
// (131,040 MiB), not Max 1100 (49,136 MiB: the xe driver's usable 48 GiB less
// 16 MiB stolen), Flex 170 or the Arc boards (≤ 24 GB).
func TestMemoryOnlyDrivers(t *testing.T) {
	ctx := context.Background()
	c := newChecker(t)
	for _, tc := range []struct {
		driver string
		gi     int64
		want   []string
	}{
		// the MI250X's and MI250's GCDs (and the MI210, by its sibling's reading) report 65,520 MiB
		// (rocm-smi), 16 MiB under 64 Gi: not selected
		{fit.DriverAMD, 64, []string{"gpu-amd-mi325x", "gpu-amd-mi300x", "gpu-amd-mi300a", "gpu-amd-mi350x", "gpu-amd-mi355x"}},
		// the Max 1100 reports 49,136 MiB (xe), 16 MiB under 48 Gi: not selected
		{fit.DriverIntel, 48, []string{"gpu-intel-max-1550"}},
	} {
		tg := target.Default()
		tg.Driver = tc.driver
		tg = findParamsB(t, tg, tc.gi)
		r, m := renderManifest(t, tg)
		reqs, err := Requests(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Matcher.Match(ctx, reqs[0].Alternatives[0], c.Fleet)
		if err != nil {
			t.Fatal(err)
		}
		var complete []string
		for _, n := range got {
			if d := c.Fleet[slices.IndexFunc(c.Fleet, func(d FakeDevice) bool { return d.Name == n })]; d.Variant == VariantComplete {
				complete = append(complete, n)
			}
		}
		if !slices.Equal(complete, tc.want) {
			t.Errorf("%s at %d Gi: matched %v, want %v", tc.driver, tc.gi, complete, tc.want)
		}
		// The tainted twins match the selector too (taints are not attributes)…
		if len(got) != 2*len(tc.want) {
			t.Errorf("%s at %d Gi: %d matches %v, want each complete device and its tainted twin", tc.driver, tc.gi, len(got), got)
		}
		if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "not enforced") }) {
			t.Errorf("%s: no warning that the bandwidth floor is not enforced: %q", tc.driver, r.Warnings)
		}
	}
}
