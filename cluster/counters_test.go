package cluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// reasonsOf maps each device of the report to its reasons joined by "; " ("" when it matches).
func reasonsOf(r Report) map[string]string {
	m := map[string]string{}
	for _, d := range r.Devices {
		m[d.Device] = strings.Join(d.Reasons, "; ")
	}
	return m
}

func TestSharedCountersWithHeldPartitions(t *testing.T) {
	// mig.yaml with mig-claims.yaml (worked out in their comments): gpu-0-counters has
	// 80 − 40 = 40Gi of memory left and gpu-2-counters 80 − 10 = 70Gi; each whole GPU needs 80Gi.
	// Multiprocessors: 132 − 60 = 72 and 132 − 16 = 116 left, short of 132 too, but memory sorts
	// first and is the one named.
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 1, "NVIDIA H100 80GB HBM3")
	r, err := CheckInUse(b, readTestdata(t, "mig.yaml"), readTestdata(t, "mig-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got := reasonsOf(r)
	want := map[string]string{
		"gpu-0":              "counter set gpu-0-counters: memory 40Gi left, needs 80Gi",
		"gpu-0-mig-3g40gb-0": "type mig: the gpu.nvidia.com class selects whole GPUs (type gpu); allocated to ml/infer-a",
		"gpu-0-mig-3g40gb-1": "type mig: the gpu.nvidia.com class selects whole GPUs (type gpu)",
		"gpu-1":              "",
		"gpu-1-mig-3g40gb-0": "type mig: the gpu.nvidia.com class selects whole GPUs (type gpu)",
		"gpu-1-mig-3g40gb-1": "type mig: the gpu.nvidia.com class selects whole GPUs (type gpu)",
		"gpu-2":              "counter set gpu-2-counters: memory 70Gi left, needs 80Gi",
		"gpu-2-mig-1g10gb-0": "type mig: the gpu.nvidia.com class selects whole GPUs (type gpu); allocated to ml/infer-b",
	}
	for dev, w := range want {
		if got[dev] != w {
			t.Errorf("%s: %q\n want %q", dev, got[dev], w)
		}
	}
	if !r.Allocatable || r.Placement != "allocatable on node node-m: model gets gpu-1" {
		t.Errorf("one GPU: %v %q", r.Allocatable, r.Placement)
	}
	// Two GPUs: only gpu-1 has its counters whole.
	b2 := bounds(t, fit.DriverNVIDIA, 70, 1500, 2, "NVIDIA H100 80GB HBM3")
	r2, err := CheckInUse(b2, readTestdata(t, "mig.yaml"), readTestdata(t, "mig-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	wantPlacement := "not allocatable: the claim needs 2 matching devices (NVIDIA: of one productName) on one node; the most is 1 on node node-m (2 more that would match have their shared counters used up by devices other claims hold)"
	if r2.Allocatable || r2.Placement != wantPlacement {
		t.Errorf("two GPUs: %v %q", r2.Allocatable, r2.Placement)
	}
	// Nothing held: every counter set is whole, so all three GPUs are free.
	b3 := bounds(t, fit.DriverNVIDIA, 70, 1500, 3, "NVIDIA H100 80GB HBM3")
	r3 := judgeFile(t, "mig.yaml", b3)
	if !r3.Allocatable || !strings.HasSuffix(r3.Placement, "gets gpu-0, gpu-1, gpu-2") {
		t.Errorf("three free GPUs: %v %q", r3.Allocatable, r3.Placement)
	}
}

func TestSharedCountersBacktrack(t *testing.T) {
	// Two devices of ≥ 30Gi: greedy takes whole (80Gi), then neither half fits (0 left, needs
	// 40Gi) and it stops at one. The allocator backtracks: without whole, half-a and half-b draw
	// 40 + 40 = 80Gi ≤ 80Gi. The search does the same.
	b := bounds(t, fit.DriverNVIDIA, 30, 1500, 2, "NVIDIA H100 80GB HBM3")
	r, err := Check(b, readTestdata(t, "halves.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Allocatable || r.Placement != "allocatable on node node-p: model gets half-a, half-b" {
		t.Errorf("%v %q", r.Allocatable, r.Placement)
	}
	// Three: 80 + 40 > 80 and 40 + 40 + … : at most two fit together.
	b3 := bounds(t, fit.DriverNVIDIA, 30, 1500, 3, "NVIDIA H100 80GB HBM3")
	r3, err := Check(b3, readTestdata(t, "halves.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if r3.Allocatable || !strings.Contains(r3.Placement, "the most is 2 on node node-p") {
		t.Errorf("%v %q", r3.Allocatable, r3.Placement)
	}
}

func TestSharedCountersInvalidPool(t *testing.T) {
	// A device drawing on a counter set the pool does not publish makes the allocator deem the
	// whole pool invalid (validateDeviceCounterConsumption).
	in := strings.Replace(string(readTestdata(t, "halves.yaml")), "- name: half-b\n      attributes: {type: {string: gpu}, productName: {string: NVIDIA H100 80GB HBM3}}\n      capacity: {memory: {value: 40Gi}}\n      consumesCounters: [{counterSet: gpu-0-counters",
		"- name: half-b\n      attributes: {type: {string: gpu}, productName: {string: NVIDIA H100 80GB HBM3}}\n      capacity: {memory: {value: 40Gi}}\n      consumesCounters: [{counterSet: gpu-9-counters", 1)
	b := bounds(t, fit.DriverNVIDIA, 30, 1500, 1, "NVIDIA H100 80GB HBM3")
	r, err := Check(b, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `pool "node-p" is invalid: counter set gpu-9-counters not found`
	for _, d := range r.Devices {
		if !slices.Contains(d.Reasons, want) {
			t.Errorf("%s: %q", d.Device, d.Reasons)
		}
	}
	if r.Allocatable {
		t.Error("allocatable from an invalid pool")
	}
}

func TestSharedCountersSearchBudget(t *testing.T) {
	// 60 devices of one 80Gi counter set, each drawing 10Gi: 80 / 10 = 8 fit together, 9 never
	// do, but telling so means trying every 8 of the 60 (C(60, 8) ≈ 2.6e9): the search stops at
	// its budget, says the most it found (8), and a note says it stopped.
	var b strings.Builder
	b.WriteString(`apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: counters}
  spec:
    driver: gpu.nvidia.com
    nodeName: node-n
    pool: {name: node-n, generation: 1, resourceSliceCount: 2}
    sharedCounters:
    - name: s
      counters: {memory: {value: 80Gi}}
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: devices}
  spec:
    driver: gpu.nvidia.com
    nodeName: node-n
    pool: {name: node-n, generation: 1, resourceSliceCount: 2}
    devices:
`)
	for i := range 60 {
		b.WriteString("    - name: g" + itoa(i) + `
      attributes: {type: {string: gpu}, productName: {string: NVIDIA H100 80GB HBM3}}
      capacity: {memory: {value: 40Gi}}
      consumesCounters: [{counterSet: s, counters: {memory: {value: 10Gi}}}]
`)
	}
	for _, c := range []struct {
		count int
		ok    bool
		cut   bool
	}{{8, true, false}, {9, false, true}} {
		r, err := Check(bounds(t, fit.DriverNVIDIA, 30, 1500, c.count, "NVIDIA H100 80GB HBM3"), []byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		cut := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "the placement search stopped after 100000 tries") })
		if r.Allocatable != c.ok || cut != c.cut {
			t.Errorf("%d devices: %v %q %q", c.count, r.Allocatable, r.Placement, r.Notes)
		}
		if !c.ok && !strings.Contains(r.Placement, "the most is 8 on node node-n") {
			t.Errorf("%d devices: %q", c.count, r.Placement)
		}
	}
}

func TestSharedCountersOverdrawn(t *testing.T) {
	// mig-overdrawn-claims.yaml: gpu-0-counters has 80 − 80 − 40 = −40Gi of memory and
	// 132 − 132 − 60 = −60 multiprocessors left. The allocator refuses every counter-consuming
	// device of the pool then, gpu-1 and gpu-2 (whose sets are whole) too: memory sorts first.
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 1, "NVIDIA H100 80GB HBM3")
	r, err := CheckInUse(b, readTestdata(t, "mig.yaml"), readTestdata(t, "mig-overdrawn-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got := reasonsOf(r)
	for dev, want := range map[string]string{
		"gpu-0": "allocated to ml/whole",
		"gpu-1": "counter set gpu-0-counters: memory overdrawn by the devices other claims hold",
		"gpu-2": "counter set gpu-0-counters: memory overdrawn by the devices other claims hold",
	} {
		if got[dev] != want {
			t.Errorf("%s: %q\n want %q", dev, got[dev], want)
		}
	}
	if r.Allocatable {
		t.Errorf("allocatable: %q", r.Placement)
	}
}

func TestSharedCountersParseErrors(t *testing.T) {
	// Malformed counters name the slice, the field and what is wanted, as other fields do.
	good := string(readTestdata(t, "halves.yaml"))
	for _, c := range []struct{ from, to, want string }{
		{"sharedCounters:\n    - name: gpu-0-counters\n      counters:\n        memory: {value: 80Gi}", "sharedCounters: 3",
			`slices: ResourceSlice "counters" (items[0]): spec.sharedCounters: is a number; want a list`},
		{"memory: {value: 80Gi}", "memory: {value: lots}",
			`slices: ResourceSlice "counters" (items[0]): spec.sharedCounters[0].counters.memory.value: "lots" is not a Kubernetes quantity`},
		{"[{counterSet: gpu-0-counters, counters: {memory: {value: 80Gi}}}]", "[{counters: {memory: {value: 80Gi}}}]",
			`slices: ResourceSlice "devices" (items[1]): spec.devices[0] ("whole").consumesCounters[0].counterSet: missing`},
	} {
		in := strings.Replace(good, c.from, c.to, 1)
		if in == good {
			t.Fatalf("%q not in halves.yaml", c.from)
		}
		_, err := Parse([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v\n want %s", c.to, err, c.want)
		}
	}
}
