package cluster

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/fitclaim/fitclaim/fit"
)

// readTestdata is testdata/name's bytes; a missing fixture ends the test (or fuzz test).
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseClaimsTakesAllocatedResults(t *testing.T) {
	got, err := ParseClaims(readTestdata(t, "busy-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// ml/debug's result has adminAccess (skipped) and ml/pending is not allocated: four devices.
	want := []InUse{
		{Driver: "gpu.nvidia.com", Pool: "node-g", Device: "gpu-0", Claim: "ml/train-0"},
		{Driver: "gpu.nvidia.com", Pool: "node-g", Device: "gpu-1", Claim: "ml/train-0"},
		{Driver: "gpu.nvidia.com", Pool: "node-z", Device: "gpu-3", Claim: "ml/old"},
		{Driver: "gpu.nvidia.com", Pool: "node-h", Device: "gpu-1", Claim: "infra/h-0"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in use %v\nwant %v", got, want)
	}
	// kubectl's -o json of the same list reads the same.
	j, err := yaml.YAMLToJSON(readTestdata(t, "busy-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := ParseClaims(j)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromJSON, want) {
		t.Errorf("from JSON %v", fromJSON)
	}
	// An empty list (a cluster with no claims) holds nothing, and is no error.
	none, err := ParseClaims([]byte("apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"))
	if err != nil || len(none) != 0 {
		t.Errorf("empty list: %v %v", none, err)
	}
}

func TestBusyClusterTwoGPUs(t *testing.T) {
	// Two H100 80GB (81,559 Mi = 79.6 Gi ≥ 70 Gi) of one product on one node. Free: node-g's gpu-2
	// and gpu-3 (gpu-0 and gpu-1 are ml/train-0's), node-h's gpu-0 (ml/debug only has admin
	// access to it); node-h's gpu-1 is infra/h-0's.
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 2, "NVIDIA H100 80GB HBM3")
	r, err := CheckInUse(b, readTestdata(t, "busy.yaml"), readTestdata(t, "busy-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, r, []string{
		"node-g/gpu-0: no: allocated to ml/train-0",
		"node-g/gpu-1: no: allocated to ml/train-0",
		"node-g/gpu-2: model",
		"node-g/gpu-3: model",
		"node-h/gpu-0: model",
		"node-h/gpu-1: no: allocated to infra/h-0",
	})
	if r.Devices[0].AllocatedTo != "ml/train-0" || r.Devices[2].AllocatedTo != "" || r.Devices[4].AllocatedTo != "" {
		t.Errorf("allocatedTo: %q %q %q", r.Devices[0].AllocatedTo, r.Devices[2].AllocatedTo, r.Devices[4].AllocatedTo)
	}
	allocatedAs(t, r, "allocatable on node node-g: model gets gpu-2, gpu-3")
	wantNotes := []string{
		"the claims given hold 4 devices; those are not free for this claim (admin-access results excepted, as the scheduler does)",
		"claim ml/old holds device gpu.nvidia.com/node-z/gpu-3, which is not in the slices: ignored",
	}
	for _, n := range wantNotes {
		if !slices.Contains(r.Notes, n) {
			t.Errorf("notes %q lack %q", r.Notes, n)
		}
	}
	if slices.Contains(r.Notes, "assumes no device is allocated to another claim yet") {
		t.Errorf("notes still assume no device allocated: %q", r.Notes)
	}
	if !strings.Contains(r.JSON(), `"allocatedTo": "ml/train-0"`) {
		t.Errorf("JSON lacks allocatedTo:\n%s", r.JSON())
	}
}

func TestBusyClusterThreeGPUsDoNotFit(t *testing.T) {
	// Three: node-g has 4 − 2 allocated = 2 free, node-h 2 − 1 = 1. Without the claims node-g's
	// four would do.
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 3, "NVIDIA H100 80GB HBM3")
	free, err := Check(b, readTestdata(t, "busy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	allocatedAs(t, free, "allocatable on node node-g: model gets gpu-0, gpu-1, gpu-2")
	if strings.Contains(free.JSON(), "allocatedTo") {
		t.Errorf("no claims given, yet JSON says allocatedTo:\n%s", free.JSON())
	}
	r, err := CheckInUse(b, readTestdata(t, "busy.yaml"), readTestdata(t, "busy-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "not allocatable: the claim needs 3 matching devices (NVIDIA: of one productName) on one node; the most is 2 on node node-g (3 more that would match are allocated to other claims)"
	if r.Allocatable || r.Placement != want {
		t.Errorf("%v %q\nwant %q", r.Allocatable, r.Placement, want)
	}
}

func TestEveryMatchingDeviceBusy(t *testing.T) {
	// One device, all six taken by one claim: none free, said so.
	var claims strings.Builder
	claims.WriteString("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: all, namespace: ml}\nstatus:\n  allocation:\n    devices:\n      results:\n")
	for _, node := range []string{"node-g", "node-h"} {
		for i := range 4 {
			claims.WriteString("      - {request: r, driver: gpu.nvidia.com, pool: " + node + ", device: gpu-" + itoa(i) + "}\n")
		}
	}
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 1, "NVIDIA H100 80GB HBM3")
	r, err := CheckInUse(b, readTestdata(t, "busy.yaml"), []byte(claims.String()))
	if err != nil {
		t.Fatal(err)
	}
	// node-h's gpu-2 and gpu-3 do not exist: two results ignored.
	want := "not allocatable: the claim needs a matching device and no free device matches (6 that would are allocated to other claims)"
	if r.Allocatable || r.Placement != want {
		t.Errorf("%v %q\nwant %q", r.Allocatable, r.Placement, want)
	}
	if !slices.Contains(r.Notes, "claim ml/all holds device gpu.nvidia.com/node-h/gpu-3, which is not in the slices: ignored") {
		t.Errorf("notes %q", r.Notes)
	}
}

func TestIgnoredResultsNotesBounded(t *testing.T) {
	// Eight results naming no device: five named, then "3 more".
	var claims strings.Builder
	claims.WriteString("kind: ResourceClaim\napiVersion: resource.k8s.io/v1\nmetadata: {name: far, namespace: x}\nstatus: {allocation: {devices: {results: [")
	for i := range 8 {
		if i > 0 {
			claims.WriteString(", ")
		}
		claims.WriteString("{driver: d, pool: p, device: dev-" + itoa(i) + "}")
	}
	claims.WriteString("]}}}\n")
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 1, "NVIDIA H100 80GB HBM3")
	r, err := CheckInUse(b, readTestdata(t, "busy.yaml"), []byte(claims.String()))
	if err != nil {
		t.Fatal(err)
	}
	ignored := 0
	for _, n := range r.Notes {
		if strings.HasSuffix(n, "which is not in the slices: ignored") {
			ignored++
		}
	}
	if ignored != maxIgnoredNotes || !slices.Contains(r.Notes, "3 more allocated devices are not in the slices: ignored") {
		t.Errorf("notes %q", r.Notes)
	}
}

// TestBadClaimsNameObjectAndField: a claims input that is not a claim list is an *Error whose
// message starts "claims:" and names the object and the field.
func TestBadClaimsNameObjectAndField(t *testing.T) {
	one := "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\nstatus:\n  allocation:\n    devices:\n      results:\n      - RESULT\n"
	cases := []struct{ name, in, want string }{
		{"empty", "\n", "claims: empty: paste the output of kubectl get resourceclaims -A -o yaml"},
		{"not yaml", "a: [1, 2\n", "claims: not YAML or JSON ("},
		{"slices pasted", string(readTestdata(t, "busy.yaml")),
			`claims: items[0]: kind: "ResourceSlice"; want ResourceClaim (kubectl get resourceclaims -A -o yaml)`},
		{"one slice pasted", goodSlice, `claims: the input: kind: "ResourceSlice"; want ResourceClaim or List (kubectl get resourceclaims -A -o yaml)`},
		{"plain text", "busy", "claims: the input: is a string; want a ResourceClaim or a List of them"},
		{"no namespace", strings.Replace(one, ", namespace: ns", "", 1),
			`claims: ResourceClaim "c": metadata.namespace: missing (kubectl get resourceclaims -A writes it)`},
		{"old api", strings.Replace(one, "resource.k8s.io/v1", "resource.k8s.io/v1alpha3", 1),
			`claims: ResourceClaim "ns/c": apiVersion: "resource.k8s.io/v1alpha3"; want resource.k8s.io/v1 (or v1beta2, v1beta1)`},
		{"result without device", strings.Replace(one, "RESULT", "{driver: d, pool: p}", 1),
			`claims: ResourceClaim "ns/c": status.allocation.devices.results[0].device: missing`},
		{"result pool a number", strings.Replace(one, "RESULT", "{driver: d, pool: 7, device: x}", 1),
			`claims: ResourceClaim "ns/c": status.allocation.devices.results[0].pool: is a number; want a string`},
		{"adminAccess a string", strings.Replace(one, "RESULT", "{driver: d, pool: p, device: x, adminAccess: \"yes\"}", 1),
			`claims: ResourceClaim "ns/c": status.allocation.devices.results[0].adminAccess: is a string; want true or false`},
		{"results a mapping", strings.Replace(one, "      - RESULT\n", "        a: b\n", 1),
			`claims: ResourceClaim "ns/c": status.allocation.devices.results: is a mapping; want a list`},
		{"too big", strings.Repeat("x", MaxInput+1), "claims: the input is over 5242880 bytes (5 MiB), the most that is read"},
	}
	for _, c := range cases {
		_, err := ParseClaims([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) || e.Input != "claims" {
			t.Errorf("%s: error %v, want a claims *Error", c.name, err)
			continue
		}
		if got := err.Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	// Bad claims beside good slices: CheckInUse says the claims' error.
	b := bounds(t, fit.DriverNVIDIA, 70, 1500, 1, "NVIDIA H100 80GB HBM3")
	if _, err := CheckInUse(b, readTestdata(t, "busy.yaml"), []byte("busy")); err == nil || !strings.HasPrefix(err.Error(), "claims: ") {
		t.Errorf("CheckInUse with bad claims: %v", err)
	}
}
