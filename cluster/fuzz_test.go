package cluster

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// FuzzCheck: any input is judged or refused with an *Error; nothing panics. The seed corpus is
// the fixtures plus the files in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	for _, name := range []string{"mixed.yaml", "amd.yaml", "llmfit.json", "two-nodes.yaml", "v1beta1.yaml", "pools.yaml", "busy.yaml", "zones.yaml", "shared.yaml", "capacity-policies.yaml", "devicetaintrules.yaml"} {
		f.Add(readTestdata(f, name), uint8(0))
	}
	// A slice and a DeviceTaintRule of it, as kubectl get resourceslices,devicetaintrules prints them.
	f.Add(append(readTestdata(f, "two-nodes.yaml"), "\n---\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata: {name: r}\n"+
		"spec:\n  deviceSelector: {pool: node-e}\n  taint: {key: k, value: v, effect: NoExecute}\n"...), uint8(1))
	drivers := fit.DriverNames()
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		d, ok := fit.LookupDriver(drivers[int(pick)%len(drivers)])
		if !ok {
			t.Fatalf("fit.DriverNames() lists %q, which LookupDriver does not know", drivers[int(pick)%len(drivers)])
		}
		b := &fit.Bounds{MemoryGi: int64(pick % 100), MinBandwidthGBs: int64(pick) * 10, Driver: d, DeviceClass: d.Domain,
			Products: []string{"NVIDIA H100 80GB HBM3"}, Target: target.Default()}
		b.Target.Count = 1 + int(pick%3)
		b.Target.CapacityRequest = pick&0x80 != 0 // the claim asks its memory as a capacity request
		r, err := Check(b, data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			return
		}
		if js := r.JSON(); !json.Valid([]byte(js)) {
			t.Fatalf("JSON() is not JSON: %s", js)
		}
		if table := r.Table(); !strings.HasPrefix(table, "NODE") {
			t.Fatalf("Table() lacks its header row: %q", table)
		}
	})
}

// FuzzParseClaims: any claims input is read or refused with an *Error naming the claims input;
// nothing panics, and what is read is judged beside the busy cluster's slices.
func FuzzParseClaims(f *testing.F) {
	addSeeds(f, "busy-claims.yaml", "busy.yaml", "shared-claims.yaml")
	slices := readTestdata(f, "busy.yaml")
	b := fuzzBounds(f, fit.DriverNVIDIA, 70, 1)
	b.Products = []string{"NVIDIA H100 80GB HBM3"}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckInUse(b, slices, data)
		checkInputResult(t, "claims", r, err)
	})
}

// FuzzParseNodes: any nodes input is read or refused with an *Error naming the nodes input;
// nothing panics, and what is read places zones.yaml's devices.
func FuzzParseNodes(f *testing.F) {
	addSeeds(f, "zones-nodes.yaml", "zones.yaml")
	slices := readTestdata(f, "zones.yaml")
	b := fuzzBounds(f, fit.DriverLlmfit, 40, 2)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckInputs(b, Inputs{Slices: slices, Nodes: data})
		checkInputResult(t, "nodes", r, err)
	})
}

// FuzzParsePod: any pod input is read or refused with an *Error naming the pod input; nothing
// panics, and what is read places zones.yaml's devices on zones-nodes.yaml's nodes.
func FuzzParsePod(f *testing.F) {
	addSeeds(f, "zones-pod.yaml", "zones-nodes.yaml")
	f.Add([]byte("tolerations: [{operator: Exists}]\nnodeSelector: {example.com/gpu: \"true\"}\n"))
	slices, nodes := readTestdata(f, "zones.yaml"), readTestdata(f, "zones-nodes.yaml")
	b := fuzzBounds(f, fit.DriverLlmfit, 40, 2)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckInputs(b, Inputs{Slices: slices, Nodes: nodes, Pod: data})
		checkInputResult(t, "pod", r, err)
	})
}

// addSeeds adds each named fixture to the seed corpus.
func addSeeds(f *testing.F, names ...string) {
	f.Helper()
	for _, name := range names {
		f.Add(readTestdata(f, name))
	}
}

// fuzzBounds is a default target's fit on driver's devices: memoryGi a device, count of them.
func fuzzBounds(f *testing.F, driver string, memoryGi int64, count int) *fit.Bounds {
	f.Helper()
	d, ok := fit.LookupDriver(driver)
	if !ok {
		f.Fatalf("no %s driver", driver)
	}
	b := &fit.Bounds{MemoryGi: memoryGi, Driver: d, DeviceClass: d.Domain, Target: target.Default()}
	b.Target.Count = count
	return b
}

// checkInputResult: an error must be an *Error naming input (the one the fuzzer wrote), and a
// report must give valid JSON.
func checkInputResult(t *testing.T, input string, r Report, err error) {
	t.Helper()
	if err != nil {
		if e, ok := err.(*Error); !ok || e.Input != input {
			t.Fatalf("error %T %v, want a %s *Error", err, err, input)
		}
		return
	}
	if js := r.JSON(); !json.Valid([]byte(js)) {
		t.Fatalf("JSON() is not JSON: %s", js)
	}
}
