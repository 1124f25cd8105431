package cluster

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// FuzzCheck: any input is judged or refused with an *Error; nothing panics. The seed corpus is
// the fixtures plus the files in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	for _, name := range []string{"mixed.yaml", "amd.yaml", "llmfit.json", "two-nodes.yaml", "v1beta1.yaml", "pools.yaml", "busy.yaml", "zones.yaml", "shared.yaml", "capacity-policies.yaml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
	}
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
	for _, name := range []string{"busy-claims.yaml", "busy.yaml", "shared-claims.yaml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	slices, err := os.ReadFile("testdata/busy.yaml")
	if err != nil {
		f.Fatal(err)
	}
	d, ok := fit.LookupDriver(fit.DriverNVIDIA)
	if !ok {
		f.Fatal("no NVIDIA driver")
	}
	b := &fit.Bounds{MemoryGi: 70, Driver: d, DeviceClass: d.Domain, Products: []string{"NVIDIA H100 80GB HBM3"}, Target: target.Default()}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckInUse(b, slices, data)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Input != "claims" {
				t.Fatalf("error %T %v, want a claims *Error", err, err)
			}
			return
		}
		if js := r.JSON(); !json.Valid([]byte(js)) {
			t.Fatalf("JSON() is not JSON: %s", js)
		}
	})
}

// FuzzParseNodes: any nodes input is read or refused with an *Error naming the nodes input;
// nothing panics, and what is read places zones.yaml's devices.
func FuzzParseNodes(f *testing.F) {
	for _, name := range []string{"zones-nodes.yaml", "zones.yaml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	slices, err := os.ReadFile("testdata/zones.yaml")
	if err != nil {
		f.Fatal(err)
	}
	d, ok := fit.LookupDriver(fit.DriverLlmfit)
	if !ok {
		f.Fatal("no llmfit driver")
	}
	b := &fit.Bounds{MemoryGi: 40, Driver: d, DeviceClass: d.Domain, Target: target.Default()}
	b.Target.Count = 2
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckInputs(b, Inputs{Slices: slices, Nodes: data})
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Input != "nodes" {
				t.Fatalf("error %T %v, want a nodes *Error", err, err)
			}
			return
		}
		if js := r.JSON(); !json.Valid([]byte(js)) {
			t.Fatalf("JSON() is not JSON: %s", js)
		}
	})
}

// FuzzParsePod: any pod input is read or refused with an *Error naming the pod input; nothing
// panics, and what is read places zones.yaml's devices on zones-nodes.yaml's nodes.
func FuzzParsePod(f *testing.F) {
	for _, name := range []string{"zones-pod.yaml", "zones-nodes.yaml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("tolerations: [{operator: Exists}]\nnodeSelector: {example.com/gpu: \"true\"}\n"))
	slices, err := os.ReadFile("testdata/zones.yaml")
	if err != nil {
		f.Fatal(err)
	}
	nodes, err := os.ReadFile("testdata/zones-nodes.yaml")
	if err != nil {
		f.Fatal(err)
	}
	d, ok := fit.LookupDriver(fit.DriverLlmfit)
	if !ok {
		f.Fatal("no llmfit driver")
	}
	b := &fit.Bounds{MemoryGi: 40, Driver: d, DeviceClass: d.Domain, Target: target.Default()}
	b.Target.Count = 2
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := CheckInputs(b, Inputs{Slices: slices, Nodes: nodes, Pod: data})
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Input != "pod" {
				t.Fatalf("error %T %v, want a pod *Error", err, err)
			}
			return
		}
		if js := r.JSON(); !json.Valid([]byte(js)) {
			t.Fatalf("JSON() is not JSON: %s", js)
		}
	})
}
