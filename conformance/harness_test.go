package conformance

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
)

// Tests of the harness itself, on llmfit's golden outputs and on manifests
// broken on purpose: each check must pass the good and catch the bad.

func goldenPath(name string) string {
	return filepath.Join(RepoDir, "claim", "testdata", "golden", name)
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(goldenPath(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testFleet(t testing.TB) Fleet {
	t.Helper()
	accels, err := ReadAcceleratorsCSV(filepath.Join(RepoDir, "data", "accelerators.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFleet(accels)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGoldenDecodeValidateDefault(t *testing.T) {
	for _, tc := range []struct {
		file     string
		template bool
	}{
		{"test-model-7b.default.yaml", false},
		{"test-model-7b.q8_0.yaml", false},
		{"test-model-7b.template.yaml", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			m, err := DecodeAndValidate(readGolden(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if (m.Template != nil) != tc.template {
				t.Fatalf("template = %v, want %v", m.Template != nil, tc.template)
			}
			if m.Name() != "test-model-7b-fit" {
				t.Errorf("name %q", m.Name())
			}
			reqs := m.Spec().Devices.Requests
			if len(reqs) != 1 || reqs[0].Name != "model" || reqs[0].Exactly == nil {
				t.Fatalf("requests %+v", reqs)
			}
			ex := reqs[0].Exactly
			// Defaulting happened (the YAML sets neither).
			if ex.AllocationMode != resourcev1.DeviceAllocationModeExactCount || ex.Count != 1 {
				t.Errorf("after defaulting: allocationMode %q count %d, want ExactCount 1", ex.AllocationMode, ex.Count)
			}
			if ex.DeviceClassName != "llmfit.ai" || len(ex.Selectors) != 1 {
				t.Errorf("class %q, %d selectors", ex.DeviceClassName, len(ex.Selectors))
			}
		})
	}
}

func TestDecodeStrictRejects(t *testing.T) {
	good := string(readGolden(t, "test-model-7b.default.yaml"))
	for _, tc := range []struct{ name, old, new, want string }{
		{"unknown field", "          deviceClassName: llmfit.ai\n", "          deviceClassName: llmfit.ai\n          deviceClass: llmfit.ai\n", `unknown field "spec.devices.requests[0].exactly.deviceClass"`},
		{"duplicate field", "          deviceClassName: llmfit.ai\n", "          deviceClassName: llmfit.ai\n          deviceClassName: llmfit.ai\n", `key "deviceClassName" already set in map`},
		{"other version", "apiVersion: resource.k8s.io/v1\n", "apiVersion: resource.k8s.io/v1beta2\n", "want resource.k8s.io/v1"},
		{"other kind", "kind: ResourceClaim\n", "kind: DeviceClass\n", `unknown field "spec.devices"`},
		{"unregistered kind", "kind: ResourceClaim\n", "kind: Pod\n", `no kind "Pod" is registered`},
		{"v1 has no beta layout", "        exactly:\n          deviceClassName: llmfit.ai\n", "        deviceClassName: llmfit.ai\n        exactly:\n", `unknown field "spec.devices.requests[0].deviceClassName"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.old, tc.new, 1)
			if bad == good {
				t.Fatal("test edit did not apply")
			}
			_, err := DecodeStrict([]byte(bad))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestValidateRejects(t *testing.T) {
	good := string(readGolden(t, "test-model-7b.default.yaml"))
	for _, tc := range []struct{ name, old, new, want string }{
		{"llmfit's -fit name", "name: test-model-7b-fit", "name: -fit", "metadata.name"},
		{"name too long", "name: test-model-7b-fit", "name: " + strings.Repeat("a", 254), "metadata.name"},
		{"request name not a label", "- name: model", "- name: Model_1", "spec.devices.requests[0].name"},
		{"class not a subdomain", "deviceClassName: llmfit.ai", "deviceClassName: LLMfit.ai", "deviceClassName"},
		{"no class", "          deviceClassName: llmfit.ai\n", "", "deviceClassName"},
		{"quantities compared with >=", ".memory.compareTo(quantity('6Gi')) >= 0", ".memory >= quantity('6Gi')", "compilation failed"},
		{"unknown CEL function", "device.attributes['llmfit.ai'].healthy\n", "device.attributes['llmfit.ai'].healthy.isTrue()\n", "compilation failed"},
		{"zero count", "          deviceClassName: llmfit.ai\n", "          deviceClassName: llmfit.ai\n          allocationMode: ExactCount\n          count: -1\n", "count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.old, tc.new, 1)
			if bad == good {
				t.Fatal("test edit did not apply")
			}
			_, err := DecodeAndValidate([]byte(bad))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestGoldenSelectorsCompile(t *testing.T) {
	for _, file := range []string{"test-model-7b.default.yaml", "test-model-7b.q8_0.yaml", "test-model-7b.template.yaml"} {
		m, err := DecodeAndValidate(readGolden(t, file))
		if err != nil {
			t.Fatal(err)
		}
		reqs, err := Requests(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(reqs) != 1 || len(reqs[0].Alternatives) != 1 || len(reqs[0].Alternatives[0].Selectors) != 1 {
			t.Fatalf("%s: %+v", file, reqs)
		}
		expr := reqs[0].Alternatives[0].Selectors[0]
		r, err := CompileSelector(expr)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		t.Logf("%s: %d bytes, estimated cost %d", file, len(expr), r.MaxCost)
	}
}

func TestCompileSelectorLimits(t *testing.T) {
	long := "device.driver == '" + strings.Repeat("a", resourcev1.CELSelectorExpressionMaxLength) + "'"
	if _, err := CompileSelector(long); err == nil || !strings.Contains(err.Error(), "limit 10240") {
		t.Errorf("over-long selector: err = %v", err)
	}
	// REFERENCE §3: type() guards have an astronomical estimated cost.
	costly := "device.attributes.all(d, device.attributes[d].all(k, type(device.attributes[d][k]) == int && device.capacity.all(c, device.capacity[c].all(q, true))))"
	if _, err := CompileSelector(costly); err == nil || !strings.Contains(err.Error(), "cost") {
		t.Errorf("costly selector: err = %v", err)
	}
	if _, err := CompileSelector("device.capacity['llmfit.ai'].memory >= quantity('6Gi')"); err == nil {
		t.Error(">= on quantities compiled")
	}
}

// An expression that passes validation but fails at evaluation: the harness
// must report it, not count it as "no match".
func TestMatcherReportsEvaluationErrors(t *testing.T) {
	fleet := testFleet(t)
	m := NewMatcher()
	for _, expr := range []string{
		"device.capacity['llmfit.ai'].memory.compareTo(quantity('6GiB')) >= 0", // bad literal
		"device.attributes['llmfit.ai'].healthy",                               // unguarded lookup
	} {
		if _, err := CompileSelector(expr); err != nil {
			t.Fatalf("%s should compile: %v", expr, err)
		}
		_, err := m.Match(context.Background(), Alternative{Request: "model", DeviceClassName: DriverLLMfit, Selectors: []string{expr}}, fleet)
		if err == nil || !strings.Contains(err.Error(), "CEL evaluation error") {
			t.Errorf("%s: err = %v, want an evaluation error", expr, err)
		}
	}
}

// llmfitYAML is llmfit's golden claim with another memory floor (a whole Gi, or "<N>Mi": the
// KV-aware floor to the MiB) and bandwidth floor.
func llmfitYAML(t *testing.T, memGi, bw string) []byte {
	t.Helper()
	s := string(readGolden(t, "test-model-7b.default.yaml"))
	q := memGi + "Gi"
	if strings.HasSuffix(memGi, "Mi") {
		q = memGi
	}
	s2 := strings.Replace(strings.Replace(s, "quantity('6Gi')", "quantity('"+q+"')", 1), ">= 148 &&", ">= "+bw+" &&", 1)
	if s2 == s && (memGi != "6" || bw != "148") {
		t.Fatal("edit did not apply")
	}
	return []byte(s2)
}

func matchOne(t *testing.T, data []byte, fleet Fleet) []string {
	t.Helper()
	man, err := DecodeAndValidate(data)
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := Requests(man)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewMatcher().Match(context.Background(), reqs[0].Alternatives[0], fleet)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestGoldenSelectorOnFleet(t *testing.T) {
	fleet := testFleet(t)
	if len(fleet) < 7*144 {
		t.Fatalf("fleet has %d devices", len(fleet))
	}
	// 6 Gi and 148 GB/s: every accelerator of the catalog with at least 148 GB/s
	// (all have ≥ 6 Gi: the smallest, RTX 2060 and Arc A380, have 6,144 MiB) in
	// both llmfit.ai spellings, and nothing else: no unhealthy, incomplete,
	// foreign or real-driver device. By hand from accelerators.csv, 11 of the 157
	// rows are slower: Apple M1 8/16GB (68.25 GB/s), M2 and M3 8/16/24GB (100)
	// and M4 16/24/32GB (120); 146 × 2 = 292 devices (the slowest of the NVIDIA
	// rows added on 2026-12-03, the A16 and A2, have 200 GB/s; of the six added
	// in the fourteenth session, the RTX A4000, 448; of the seven added in the
	// fifteenth, the RTX 2000 Ada, 224).
	got := matchOne(t, readGolden(t, "test-model-7b.default.yaml"), fleet)
	var want []string
	for _, d := range fleet {
		if d.Driver == DriverLLMfit && (d.Variant == VariantComplete || d.Variant == VariantUnqualified) && d.BandwidthGBs >= 148 {
			want = append(want, d.Name)
		}
	}
	if len(want) != 292 || !slices.Equal(got, want) {
		t.Errorf("matched %d devices %v\nwant %d %v", len(got), got, len(want), want)
	}

	// 80 Gi and 2,000 GB/s, computed by hand from accelerators.csv: the H100s
	// report 81,559 MiB < 81,920 MiB = 80 Gi and do not fit; the A100 SXM4
	// 80GB reports exactly 81,920 MiB and 2,039 GB/s and fits; the A100 PCIe
	// 80GB has 1,935 GB/s and does not. Of the later rows the MI300A (96,335
	// MiB, 5,300 GB/s), MI350X and MI355X (294,912 MiB, 8,000 GB/s) fit; GB10
	// (273 GB/s) and the large Macs (≤ 819 GB/s) are too slow. Of the rows added
	// on 2026-12-03 the H20 (97,871 MiB), GH200 144 GB, GB200, B300 and GB300
	// fit; the H800s report 81,559 MiB, as the H100s do, and do not. Of the rows
	// added in the fourteenth session the GH200 120GB (97,871 MiB, 4,000 GB/s) and
	// the A800 SXM4 (81,920 MiB, 2,039 GB/s) fit; the A800 PCIe (1,935 GB/s) and
	// the RTX PRO 6000 Max-Q (1,792 GB/s) are too slow.
	got = matchOne(t, llmfitYAML(t, "80", "2000"), fleet)
	want = nil
	for _, id := range []string{"nvidia-b200", "nvidia-h200", "nvidia-h200-nvl", "nvidia-gh200-96", "nvidia-h100-nvl", "nvidia-a100-sxm-80", "amd-mi325x", "amd-mi300x", "intel-max-1550", "amd-mi300a", "amd-mi350x", "amd-mi355x",
		"nvidia-h20", "nvidia-gh200-144", "nvidia-gb200", "nvidia-b300", "nvidia-gb300", "nvidia-gh200-96-120", "nvidia-a800-sxm-80"} {
		want = append(want, "llmfit-"+id)
	}
	var gotComplete []string
	for _, n := range got {
		if !strings.HasSuffix(n, "-"+VariantUnqualified) {
			gotComplete = append(gotComplete, n)
		}
	}
	if !slices.Equal(gotComplete, want) || len(got) != 2*len(want) {
		t.Errorf("80Gi/2000: matched %v\nwant %v (and their unqualified twins)", got, want)
	}

	// Boundary devices: at the floors matches, one MiB or one GB/s below does not.
	got = matchOne(t, llmfitYAML(t, "80", "2000"), BoundaryDevices(80*1024, 2000))
	if !slices.Equal(got, []string{"boundary-at-floors"}) {
		t.Errorf("boundary: matched %v", got)
	}
	// and a floor to the MiB: 81,559 Mi takes a device of exactly 81,559 MiB (the H100's), not 81,558
	got = matchOne(t, llmfitYAML(t, "81559Mi", "2000"), BoundaryDevices(81559, 2000))
	if !slices.Equal(got, []string{"boundary-at-floors"}) {
		t.Errorf("boundary at 81559Mi: matched %v", got)
	}
}

func TestFitsLLMfitAgreesOnFleet(t *testing.T) {
	fleet := testFleet(t)
	for _, b := range []struct {
		gi, bw   string
		miN, bwN int64 // the memory floor in MiB
	}{{"6", "148", 6 << 10, 148}, {"24", "936", 24 << 10, 936}, {"23", "600", 23 << 10, 600}, {"200", "1", 200 << 10, 1},
		{"24564Mi", "936", 24564, 936}, {"23867Mi", "600", 23867, 600}, {"81559Mi", "1", 81559, 1}} { // floors to the MiB: the RTX 4090, H100 at and above them
		got := matchOne(t, llmfitYAML(t, b.gi, b.bw), append(fleet, BoundaryDevices(b.miN, b.bwN)...))
		var want []string
		for _, d := range append(fleet, BoundaryDevices(b.miN, b.bwN)...) {
			if d.FitsLLMfit(b.miN, b.bwN) {
				want = append(want, d.Name)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%sGi/%s: matched %v\nwant %v", b.gi, b.bw, got, want)
		}
	}
}

func TestAllocatorGolden(t *testing.T) {
	ctx := context.Background()
	fleet := testFleet(t)
	byName := map[string]FakeDevice{}
	for _, d := range fleet {
		byName[d.Name] = d
	}
	for _, file := range []string{"test-model-7b.default.yaml", "test-model-7b.template.yaml"} {
		m, err := DecodeAndValidate(readGolden(t, file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Allocate(ctx, m, fleet)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Request != "model" || got[0].Driver != DriverLLMfit || !byName[got[0].Device].FitsLLMfit(6, 148) {
			t.Errorf("%s: allocated %+v", file, got)
		}
	}
	// 80 Gi, 4,000 GB/s: only the B200, H200s, GH200, MI325X and MI300X fit.
	m, err := DecodeAndValidate(llmfitYAML(t, "80", "4000"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Allocate(ctx, m, fleet)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !byName[got[0].Device].FitsLLMfit(80, 4000) {
		t.Errorf("80Gi/4000: allocated %+v", got)
	}
	// Only devices that do not fit (everything but the fitting complete devices): refused.
	var rest Fleet
	for _, d := range fleet {
		if !d.FitsLLMfit(80, 4000) {
			rest = append(rest, d)
		}
	}
	got, err = Allocate(ctx, m, rest)
	if err != nil || got != nil {
		t.Errorf("no fitting device: allocated %+v, err %v", got, err)
	}
	// Nothing is that big: refused.
	m, err = DecodeAndValidate(llmfitYAML(t, "1000", "148"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Allocate(ctx, m, fleet); err != nil || got != nil {
		t.Errorf("1000Gi: allocated %+v, err %v", got, err)
	}
}

// The validation cache must not hide an invalid manifest: a bad name or a
// bad structure around an already validated expression is still caught, and
// an invalid expression is never cached.
func TestValidatedExpressionsCache(t *testing.T) {
	cache := &ValidatedExpressions{}
	good := string(readGolden(t, "test-model-7b.default.yaml"))
	if _, err := DecodeAndValidateCached([]byte(good), cache); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeAndValidateCached([]byte(strings.Replace(good, "name: test-model-7b-fit", "name: -fit", 1)), cache); err == nil || !strings.Contains(err.Error(), "metadata.name") {
		t.Errorf("bad name with a cached expression: err = %v", err)
	}
	if _, err := DecodeAndValidateCached([]byte(strings.Replace(good, "deviceClassName: llmfit.ai", "deviceClassName: LLMfit.ai", 1)), cache); err == nil {
		t.Error("bad class with a cached expression passed")
	}
	bad := strings.Replace(good, ".memory.compareTo(quantity('6Gi')) >= 0", ".memory >= quantity('6Gi')", 1)
	for range 2 {
		if _, err := DecodeAndValidateCached([]byte(bad), cache); err == nil || !strings.Contains(err.Error(), "compilation failed") {
			t.Errorf("bad expression: err = %v", err)
		}
	}
	n := 0
	cache.m.Range(func(k, v any) bool { n++; return true })
	if n != 1 {
		t.Errorf("cache holds %d expressions, want 1", n)
	}
}

// The fleet is built from catalog.Accelerators(); it must be the CSV the
// suite's expectations were written against, field for field.
func TestCatalogAcceleratorsAreTheCSV(t *testing.T) {
	csv, err := ReadAcceleratorsCSV(filepath.Join(RepoDir, "data", "accelerators.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cat := CatalogAccelerators()
	if !slices.Equal(cat, csv) {
		t.Errorf("catalog.Accelerators() differs from accelerators.csv:\n%+v\n%+v", cat, csv)
	}
	if len(cat) != 157 {
		t.Errorf("%d accelerators, want 157", len(cat))
	}
	// The NVIDIA allow-list is exact where a productName names one accelerator. NVML's name
	// carries no memory size for two GeForce boards sold in two sizes (the RTX 3080's 10 and
	// 12 GB, the RTX 4060 Ti's 8 and 16): their boards share a name, which the allow-list
	// lists only when the slower meets the floor (NVIDIAProducts), while the selector's own
	// memory clause tells them apart.
	shared := map[string]bool{"NVIDIA GeForce RTX 3080": true, "NVIDIA GeForce RTX 4060 Ti": true}
	seen := map[string]string{}
	for _, a := range cat {
		if a.Driver != DriverNVIDIA {
			continue
		}
		if a.ProductName == "" {
			t.Errorf("%s: NVIDIA accelerator without productName", a.ID)
		}
		if prev, ok := seen[a.ProductName]; ok && !shared[a.ProductName] {
			t.Errorf("productName %q names %s and %s", a.ProductName, prev, a.ID)
		}
		seen[a.ProductName] = a.ID
	}
}

// The heavy Kubernetes modules stay in this module: the root module (and
// with it the wasm build) must not require any k8s.io module.
func TestRootModuleHasNoKubernetes(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		for _, w := range f {
			if strings.HasPrefix(w, "k8s.io/") {
				t.Errorf("root go.mod: %q", strings.TrimSpace(line))
			}
		}
	}
}
