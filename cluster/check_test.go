package cluster

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// bounds builds the bounds a claim is judged by, by hand: the floors are inputs here, not
// physics, so each test states the claim it checks.
func bounds(t *testing.T, driver string, memoryGi, bandwidth int64, count int, products ...string) *fit.Bounds {
	t.Helper()
	d, ok := fit.LookupDriver(driver)
	if !ok {
		t.Fatalf("no driver %s", driver)
	}
	b := &fit.Bounds{MemoryMi: memoryGi << 10, MemoryGi: memoryGi, MinBandwidthGBs: bandwidth, Driver: d, DeviceClass: d.Domain, Products: products}
	if driver == fit.DriverAny {
		b.DeviceClass = fit.AnyAlternatives()[0].Domain
	}
	b.Target = target.Default()
	b.Target.Driver, b.Target.Count = driver, count
	return b
}

func judgeFile(t *testing.T, file string, b *fit.Bounds) Report {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(b, data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}

// row is one device's verdict, compact: "node/device: request" or "node/device: reason; …".
func rows(r Report) []string {
	var out []string
	for _, d := range r.Devices {
		v := d.Request
		if !d.Matches {
			v = "no: " + strings.Join(d.Reasons, "; ")
		}
		out = append(out, d.Node+"/"+d.Device+": "+v)
	}
	return out
}

// sameRows checks the report's device rows against want, printing both when they differ.
func sameRows(t *testing.T, r Report, want []string) {
	t.Helper()
	if got := rows(r); !slices.Equal(got, want) {
		t.Errorf("devices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// allocatedAs checks that the claim is allocatable, placed as want says.
func allocatedAs(t *testing.T, r Report, want string) {
	t.Helper()
	if !r.Allocatable || r.Placement != want {
		t.Errorf("allocatable %v, %q; want allocatable, %q", r.Allocatable, r.Placement, want)
	}
}

func TestMixedClusterNVIDIA(t *testing.T) {
	// A claim for one NVIDIA device of ≥ 40 Gi among A100-SXM4-80GB and H100 80GB HBM3.
	b := bounds(t, fit.DriverNVIDIA, 40, 1500, 1, "NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3")
	r := judgeFile(t, "mixed.yaml", b)
	want := []string{
		"node-a/gpu-0: model",
		"node-a/gpu-1: model",
		"node-b/gpu-0: no: memory 22.4 Gi < 40 Gi; productName NVIDIA L4 not in the allow-list", // 23034 Mi / 1024 = 22.49…, cut to 22.4
		"node-b/gpu-1: no: tainted gpu.nvidia.com/gpu-lost (NoSchedule)",
		"node-c/gpu-0-mig-3g20gb-9-0: no: type mig: the gpu.nvidia.com class selects whole GPUs (type gpu)",
		"node-c/gpu-0-mig-3g20gb-9-4: no: type mig: the gpu.nvidia.com class selects whole GPUs (type gpu)",
		"node-c/gpu-1: model", // its xid taint has effect None
		"node-d/gpu-1-128: no: driver gpu.amd.com, the claim asks for gpu.nvidia.com",
	}
	sameRows(t, r, want)
	allocatedAs(t, r, "allocatable on node node-a: model gets gpu-0")
}

func TestEightyGiTrap(t *testing.T) {
	// 80 Gi floor: an H100 80GB HBM3 reports 81,559 Mi = 79.647… Gi (cut to 79.6), below it; the
	// A100-SXM4-80GB on node-c reports 85,899,345,920 bytes = 80 × 2^30 exactly.
	b := bounds(t, fit.DriverNVIDIA, 80, 1500, 1, "NVIDIA A100-SXM4-80GB")
	r := judgeFile(t, "mixed.yaml", b)
	got := rows(r)
	if got[0] != "node-a/gpu-0: no: memory 79.6 Gi < 80 Gi; productName NVIDIA H100 80GB HBM3 not in the allow-list" {
		t.Errorf("H100: %s", got[0])
	}
	if got[6] != "node-c/gpu-1: model" || !r.Allocatable {
		t.Errorf("A100 on node-c: %s, allocatable %v", got[6], r.Allocatable)
	}
}

func TestCountOnOneNodeWithMatchAttribute(t *testing.T) {
	// Two devices of one product: node-a has two H100s; node-c has one A100-80GB (node-b's is tainted).
	b := bounds(t, fit.DriverNVIDIA, 40, 1500, 2, "NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3")
	r := judgeFile(t, "mixed.yaml", b)
	allocatedAs(t, r, "allocatable on node node-a: model gets gpu-0, gpu-1")
	// Three: no node has three.
	b.Target.Count = 3
	r = judgeFile(t, "mixed.yaml", b)
	want := "not allocatable: the claim needs 3 matching devices (NVIDIA: of one productName) on one node; the most is 2 on node node-a"
	if r.Allocatable || r.Placement != want {
		t.Errorf("%v %q, want %q", r.Allocatable, r.Placement, want)
	}
}

func TestOneOfTwoDevicesPerNode(t *testing.T) {
	b := bounds(t, fit.DriverNVIDIA, 40, 800, 2, "NVIDIA L40S")
	r := judgeFile(t, "two-nodes.yaml", b)
	want := []string{
		"node-e/gpu-0: model",
		"node-f/gpu-0: model",
		"all nodes/nic-0: no: driver net.example.com, the claim asks for gpu.nvidia.com",
	}
	sameRows(t, r, want)
	if r.Allocatable || !strings.HasSuffix(r.Placement, "the most is 1 on node node-e") {
		t.Errorf("%v %q", r.Allocatable, r.Placement)
	}
	b.Target.Count = 1
	if r = judgeFile(t, "two-nodes.yaml", b); !r.Allocatable {
		t.Errorf("one L40S: not allocatable: %s", r.Placement)
	}
}

func TestAMDMemoryOnly(t *testing.T) {
	// 24 Gi on gpu.amd.com: memory only, so a CPX partition of exactly 24 Gi matches too.
	b := bounds(t, fit.DriverAMD, 24, 900, 2)
	r := judgeFile(t, "amd.yaml", b)
	want := []string{
		"node-x/gpu-1-128: model",
		"node-x/gpu-2-136: model",
		"node-y/gpu-1-128: model",
		"node-y/gpu-2-129: model",
		"node-y/gpu-3-130: model",
		"node-y/gpu-9-200: no: memory 0 Gi < 24 Gi",
	}
	sameRows(t, r, want)
	allocatedAs(t, r, "allocatable on node node-x: model gets gpu-1-128, gpu-2-136")
	if !slicesHas(r.Notes, "gpu.amd.com publishes no bandwidth: devices are matched on memory only") {
		t.Errorf("notes %q", r.Notes)
	}
}

func slicesHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestLLMfitClassAndIncompletePool(t *testing.T) {
	b := bounds(t, fit.DriverLlmfit, 24, 1000, 1)
	r := judgeFile(t, "llmfit.json", b)
	want := []string{
		"node-l1/nvidia-h100-sxm-0: model",
		"node-l1/nvidia-h100-sxm-1: no: unhealthy",
		"node-l2/nvidia-rtx-4090-0: model", // bare names are the driver's domain; 24,564 Mi ≥ 24 Gi = 24,576 Mi? no:
		"node-l2/nvidia-rtx-4090-1: no: no memoryBandwidthGBs attribute",
		`node-l3/amd-mi300x-0: no: pool "node-l3" is incomplete: 1 of its 2 slices`,
	}
	// 24,564 Mi < 24 Gi (24,576 Mi): the RTX 4090 as the driver reports it misses a 24 Gi floor.
	want[2] = "node-l2/nvidia-rtx-4090-0: no: memory 23.9 Gi < 24 Gi"
	want[3] = "node-l2/nvidia-rtx-4090-1: no: memory 23.9 Gi < 24 Gi; no memoryBandwidthGBs attribute"
	sameRows(t, r, want)
	b.MemoryGi, b.MemoryMi = 23, 23<<10
	r = judgeFile(t, "llmfit.json", b)
	if got := rows(r)[2]; got != "node-l2/nvidia-rtx-4090-0: model" {
		t.Errorf("23 Gi: %s", got)
	}
	// The KV-aware floor is to the MiB: a need of 24,564 MiB (23.99 GiB) takes the RTX 4090, one
	// MiB more does not, and the reason is said in Mi.
	b.MemoryGi, b.MemoryMi = 24, 24564
	r = judgeFile(t, "llmfit.json", b)
	if got := rows(r)[2]; got != "node-l2/nvidia-rtx-4090-0: model" {
		t.Errorf("24,564 Mi: %s", got)
	}
	b.MemoryMi = 24565
	r = judgeFile(t, "llmfit.json", b)
	if got := rows(r)[2]; got != "node-l2/nvidia-rtx-4090-0: no: memory 24,564 Mi < 24,565 Mi (23.98 Gi)" {
		t.Errorf("24,565 Mi: %s", got)
	}
}

func TestAnyFirstAvailable(t *testing.T) {
	// driver any: llmfit.ai first, then NVIDIA. Across two files' worth of devices the request
	// each device goes to is named.
	b := bounds(t, fit.DriverAny, 40, 1500, 1, "NVIDIA H100 80GB HBM3")
	data, err := os.ReadFile("testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	more, err := os.ReadFile("testdata/two-nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(b, append(append(data, "\n---\n"...), more...))
	if err != nil {
		t.Fatal(err)
	}
	got := rows(r)
	if got[0] != "node-a/gpu-0: model/nvidia" {
		t.Errorf("%s", got[0])
	}
	if got[2] != "node-b/gpu-0: no: model/nvidia: memory 22.4 Gi < 40 Gi; model/nvidia: productName NVIDIA L4 not in the allow-list" {
		t.Errorf("%s", got[2])
	}
	if got[7] != "node-d/gpu-1-128: no: driver gpu.amd.com, the claim asks for llmfit.ai or gpu.nvidia.com" {
		t.Errorf("%s", got[7])
	}
	if !r.Allocatable {
		t.Errorf("not allocatable: %s", r.Placement)
	}
}

func TestV1beta1Basic(t *testing.T) {
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 1, "NVIDIA H100 80GB HBM3")
	r := judgeFile(t, "v1beta1.yaml", b)
	if got := rows(r); !slices.Equal(got, []string{"node-g/gpu-0: model"}) || !r.Allocatable {
		t.Errorf("%q %v", got, r.Allocatable)
	}
}

func TestJSONShape(t *testing.T) {
	b := bounds(t, fit.DriverNVIDIA, 40, 800, 2, "NVIDIA L40S")
	r := judgeFile(t, "two-nodes.yaml", b)
	want := `{
  "allocatable": false,
  "devices": [
    {
      "node": "node-e",
      "driver": "gpu.nvidia.com",
      "pool": "node-e",
      "device": "gpu-0",
      "matches": true,
      "request": "model",
      "reasons": []
    },
    {
      "node": "node-f",
      "driver": "gpu.nvidia.com",
      "pool": "node-f",
      "device": "gpu-0",
      "matches": true,
      "request": "model",
      "reasons": []
    },
    {
      "node": "all nodes",
      "driver": "net.example.com",
      "pool": "fabric",
      "device": "nic-0",
      "matches": false,
      "request": "",
      "reasons": [
        "driver net.example.com, the claim asks for gpu.nvidia.com"
      ]
    }
  ]
}
`
	if got := r.JSON(); got != want {
		t.Errorf("JSON:\n%s", got)
	}
}

func TestCELErrors(t *testing.T) {
	b := bounds(t, fit.DriverLlmfit, 24, 1000, 1)
	r := judgeFile(t, "cel-errors.yaml", b)
	want := []string{
		"node-z/bandwidth-string: no: memoryBandwidthGBs is a string, not an int (a CEL evaluation error)",
		"node-z/bandwidth-string-small: no: memory 1 Gi < 24 Gi", // false && error is false
		"node-z/healthy-int: no: healthy is an int, not a bool (a CEL evaluation error)",
		"node-z/gpu-0: no: driver gpu.nvidia.com, the claim asks for llmfit.ai",
	}
	sameRows(t, r, want)
	if !r.Devices[0].CELError || r.Devices[1].CELError {
		t.Errorf("CELError %v %v", r.Devices[0].CELError, r.Devices[1].CELError)
	}
	b = bounds(t, fit.DriverNVIDIA, 24, 1000, 1, "NVIDIA H100 80GB HBM3")
	r = judgeFile(t, "cel-errors.yaml", b)
	if got := rows(r)[3]; got != "node-z/gpu-0: no: no type attribute, which the gpu.nvidia.com class reads (a CEL evaluation error)" {
		t.Errorf("%s", got)
	}
}

func TestPools(t *testing.T) {
	// Two devices of ≥ 40 Gi, H100 or L40S: only node-p3's complete pool has two.
	b := bounds(t, fit.DriverNVIDIA, 40, 800, 2, "NVIDIA H100 80GB HBM3", "NVIDIA L40S")
	r := judgeFile(t, "pools.yaml", b)
	want := []string{
		`node-p1/gpu-0: no: pool "node-p1": slice node-p1-gpu.nvidia.com-old is generation 1, replaced by generation 2`,
		"node-p1/gpu-1: model",
		`node-p2/gpu-0: no: pool "node-p2" is invalid: device "gpu-0" appears twice`,
		`node-p2/gpu-0: no: pool "node-p2" is invalid: device "gpu-0" appears twice`,
		"node-p3/gpu-0: model",
		"node-p3/gpu-1: model",
	}
	sameRows(t, r, want)
	allocatedAs(t, r, "allocatable on node node-p3: model gets gpu-0, gpu-1")
}

func TestNodeSelectorsAndPerDeviceNodes(t *testing.T) {
	// A slice for the nodes of a zone (their labels are not in the slices: a group of its own),
	// and a slice whose devices each name their node (perDeviceNodeSelection).
	in := `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: zone-a}
spec:
  driver: llmfit.ai
  nodeSelector:
    nodeSelectorTerms:
    - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]
  pool: {name: zone-a, generation: 1, resourceSliceCount: 1}
  devices:
  - name: z0
    attributes: {memoryBandwidthGBs: {int: 2000}, healthy: {bool: true}}
    capacity: {memory: {value: 48Gi}}
  - name: z1
    attributes: {memoryBandwidthGBs: {int: 2000}, healthy: {bool: true}}
    capacity: {memory: {value: 48Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: per-device}
spec:
  driver: llmfit.ai
  perDeviceNodeSelection: true
  pool: {name: per-device, generation: 1, resourceSliceCount: 1}
  devices:
  - name: d0
    nodeName: node-q
    attributes: {memoryBandwidthGBs: {int: 2000}, healthy: {bool: true}}
    capacity: {memory: {value: 48Gi}}
  - name: d1
    nodeName: node-r
    attributes: {memoryBandwidthGBs: {int: 2000}, healthy: {bool: true}}
    capacity: {memory: {value: 48Gi}}
`
	b := bounds(t, fit.DriverLlmfit, 40, 1000, 2)
	r, err := Check(b, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	zone := "nodes matching topology.kubernetes.io/zone In (a)"
	want := []string{zone + "/z0: model", zone + "/z1: model", "node-q/d0: model", "node-r/d1: model"}
	sameRows(t, r, want)
	// Two on one node: node-q and node-r have one each; the zone's nodes have both.
	allocatedAs(t, r, "allocatable on "+zone+": model gets z0, z1")
}

// TestRealFleet: real-fleet.yaml, the drivers' own layouts with kubectl's noise. A claim for
// seven H100-class GPUs fits one node only: dgx-h100-0 has eight, but two are tainted
// NoSchedule and NoExecute (its unmonitored None does not block), a100-mig-0 has two whole
// GPUs, h100-pcie-2's pool is half published; dgx-h100-1's generation 4 has seven. Its
// generation-3 slice is replaced: the devices generation 4 publishes again are listed once, as
// generation 4 has them (each was listed twice, a "no" beside a "yes" of the same driver, pool
// and device), and the one it dropped (gpu-5) says it is replaced.
func TestRealFleet(t *testing.T) {
	b := bounds(t, fit.DriverNVIDIA, 40, 1500, 7, "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "NVIDIA H100 PCIe")
	r := judgeFile(t, "real-fleet.yaml", b)
	var got []string
	ids := map[string]int{}
	for _, row := range rows(r) {
		if strings.HasPrefix(row, "dgx-h100-") || strings.HasPrefix(row, "h100-pcie-2/") {
			got = append(got, row)
		}
	}
	for _, d := range r.Devices {
		ids[d.Driver+"/"+d.Pool+"/"+d.Device]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("device %s listed %d times", id, n)
		}
	}
	replaced := `no: pool "dgx-h100-1": slice 00-gpu.nvidia.com-dgx-h100-1-ztx8s is generation 3, replaced by generation 4`
	incomplete := `no: pool "h100-pcie-2" is incomplete: 1 of its 2 slices`
	want := []string{
		"dgx-h100-0/gpu-0: model", "dgx-h100-0/gpu-1: model", "dgx-h100-0/gpu-2: model",
		"dgx-h100-0/gpu-3: no: tainted gpu.nvidia.com/xid=79 (NoSchedule)",
		"dgx-h100-0/gpu-4: model", "dgx-h100-0/gpu-5: model",
		"dgx-h100-0/gpu-6: no: tainted gpu.nvidia.com/gpu-lost (NoExecute)",
		"dgx-h100-0/gpu-7: model",
		"dgx-h100-1/gpu-5: " + replaced,
		"dgx-h100-1/gpu-0: model", "dgx-h100-1/gpu-1: model", "dgx-h100-1/gpu-2: model", "dgx-h100-1/gpu-3: model",
		"dgx-h100-1/gpu-4: model", "dgx-h100-1/gpu-6: model", "dgx-h100-1/gpu-7: model",
		"h100-pcie-2/gpu-0: " + incomplete, "h100-pcie-2/gpu-1: " + incomplete,
	}
	if !slices.Equal(got, want) {
		t.Errorf("devices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	allocatedAs(t, r, "allocatable on node dgx-h100-1: model gets gpu-0, gpu-1, gpu-2, gpu-3, gpu-4, gpu-6, gpu-7")
	// The MIG node: its two whole GPUs match (each draws its whole counter set), no partition does.
	for _, d := range r.Devices {
		if d.Node == "a100-mig-0" && d.Matches != !strings.Contains(d.Device, "-mig-") {
			t.Errorf("a100-mig-0/%s: matches %v", d.Device, d.Matches)
		}
	}
}

// TestDeviceTaintRules: a DeviceTaintRule's taint is on its devices for the scheduler (its
// slice tracker adds it before the allocator reads them; DRADeviceTaintRules is on by default
// since 1.37) but not in kubectl get resourceslices: pasted beside the slices (kubectl get
// resourceslices,devicetaintrules -o yaml prints one List of both, or as --- documents), it
// taints them here too. The claim for seven H100s that fits dgx-h100-1 (TestRealFleet) fits no
// node once its gpu-2 is under maintenance. Before, the rules were refused ("kind:
// "DeviceTaintRule"; want ResourceSlice"), and without them the answer was "fits".
func TestDeviceTaintRules(t *testing.T) {
	fleet, err := os.ReadFile("testdata/real-fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := os.ReadFile("testdata/devicetaintrules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	items := string(rules[strings.Index(string(rules), "\nitems:\n")+len("\nitems:\n") : strings.Index(string(rules), "kind: List\n")])
	b := bounds(t, fit.DriverNVIDIA, 40, 1500, 7, "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "NVIDIA H100 PCIe")
	asList := strings.Replace(string(fleet), "\nitems:\n", "\nitems:\n"+items, 1) // kubectl get resourceslices,devicetaintrules
	asDocs := string(fleet) + "---\n" + string(rules)
	asRuleList := string(fleet) + "---\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRuleList\nitems:\n" + items
	for name, in := range map[string]string{"one List": asList, "documents": asDocs, "a DeviceTaintRuleList": asRuleList} {
		r, err := Check(b, []byte(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := map[string]string{}
		for _, row := range rows(r) {
			if k, v, _ := strings.Cut(row, ": "); strings.HasPrefix(k, "dgx-h100-1/gpu-") && !strings.Contains(v, "replaced") {
				got[k] = v
			}
		}
		want := map[string]string{
			"dgx-h100-1/gpu-0": "model", "dgx-h100-1/gpu-1": "model",
			"dgx-h100-1/gpu-2": "no: tainted example.com/maintenance=true (NoExecute, DeviceTaintRule gpu-2-maintenance)",
			"dgx-h100-1/gpu-3": "model", "dgx-h100-1/gpu-4": "model", "dgx-h100-1/gpu-6": "model", "dgx-h100-1/gpu-7": "model",
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: dgx-h100-1:\n%v\nwant\n%v", name, got, want)
		}
		if r.Allocatable {
			t.Errorf("%s: allocatable: %s", name, r.Placement)
		}
	}
	for _, c := range []struct{ in, want string }{
		{strings.Replace(asList, "effect: NoExecute", "effect: Sometimes", 1),
			`slices: DeviceTaintRule "gpu-2-maintenance" (items[0]): spec.taint.effect: "Sometimes"; want NoSchedule, NoExecute or None`},
		{strings.Replace(asList, "    taint: {key: example.com/watch, effect: None}\n", "", 1),
			`slices: DeviceTaintRule "gpu-0-watch" (items[1]): spec.taint: missing`},
		{strings.Replace(asList, "deviceSelector: {driver: gpu.nvidia.com, pool: dgx-h100-1, device: gpu-2}", "deviceSelector: {pool: 7}", 1),
			`slices: DeviceTaintRule "gpu-2-maintenance" (items[0]): spec.deviceSelector.pool: is a number; want a string`},
		{strings.Replace(asList, "deviceSelector: {pool: dgx-h100-1, device: gpu-0}", "deviceSelector: {deviceClassName: gpu.nvidia.com, selectors: [{cel: {expression: 'true'}}]}", 1),
			`slices: DeviceTaintRule "gpu-0-watch" (items[1]): spec.deviceSelector.deviceClassName: not read: a rule selects by driver, pool and device (resource.k8s.io/v1); give the devices' driver, pool or name`},
		{"apiVersion: resource.k8s.io/v9\nkind: DeviceTaintRule\nmetadata: {name: r}\nspec: {}\n",
			`slices: DeviceTaintRule "r": apiVersion: "resource.k8s.io/v9"; want resource.k8s.io/v1 (or v1beta2, v1alpha3)`},
	} {
		if _, err := Check(b, []byte(c.in)); err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}
