package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/cluster"
)

// Devices other claims hold: cluster.ParseClaims and JudgeInUse against the allocator given the
// same claims as its allocated state (AllocatedState, as the scheduler builds it). Device for
// device and on the verdict, for the grid of claims over busy.yaml with its hand-written claims
// (busy-claims.yaml: held devices, an admin-access result, a pool not in the slices, a claim not
// allocated) and over every fixture, the fleet and busy.yaml with claims holding every third
// device (and admin access to others).

// heldEveryThird writes, as kubectl get resourceclaims -A -o yaml would, claims that hold every
// third device of the slices, admin access to the device after each, and one device of a pool
// the slices lack.
func heldEveryThird(t *testing.T, slices []*resourcev1.ResourceSlice) []byte {
	t.Helper()
	var items []any
	i := 0
	add := func(name string, r resourcev1.DeviceRequestAllocationResult) {
		c := resourcev1.ResourceClaim{
			TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "team-" + strconv.Itoa(i%2)},
			Spec: resourcev1.ResourceClaimSpec{Devices: resourcev1.DeviceClaim{Requests: []resourcev1.DeviceRequest{{
				Name: "r", Exactly: &resourcev1.ExactDeviceRequest{DeviceClassName: "any"}}}}},
			Status: resourcev1.ResourceClaimStatus{Allocation: &resourcev1.AllocationResult{
				Devices: resourcev1.DeviceAllocationResult{Results: []resourcev1.DeviceRequestAllocationResult{r}}}},
		}
		items = append(items, c)
	}
	for _, s := range slices {
		for _, d := range s.Spec.Devices {
			r := resourcev1.DeviceRequestAllocationResult{Request: "r", Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name}
			switch i % 3 {
			case 0:
				add("held-"+strconv.Itoa(i), r)
			case 1:
				r.AdminAccess = ptr.To(true)
				add("admin-"+strconv.Itoa(i), r)
			}
			i++
		}
	}
	add("elsewhere", resourcev1.DeviceRequestAllocationResult{Request: "r", Driver: "gpu.nvidia.com", Pool: "no-such-pool", Device: "gpu-0"})
	b, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestClusterInUseAgreesWithKubernetes(t *testing.T) {
	ctx := context.Background()
	matcher := NewMatcher()
	dir := filepath.Join(RepoDir, "cluster", "testdata")
	busy, err := os.ReadFile(filepath.Join(dir, "busy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	busyClaims, err := os.ReadFile(filepath.Join(dir, "busy-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ slices, claims []byte }
	pairs := map[string]pair{"busy × busy-claims.yaml": {busy, busyClaims}}
	fixtures := clusterFixtures(t)
	fixtures["busy"] = busy
	fixtures["fleet"] = fleetSlicesYAML(t, testFleet(t))
	for name, data := range fixtures {
		k8s, err := DecodeSlices(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pairs[name+" × every third held"] = pair{data, heldEveryThird(t, k8s)}
	}
	checked, allocatable, turned := 0, 0, 0
	for _, tg := range clusterTargets(true) {
		r, err := claim.Render(tg)
		if err != nil {
			continue // an NVIDIA target no catalog product meets
		}
		m, err := DecodeAndValidate([]byte(r.YAML))
		if err != nil {
			t.Fatal(err)
		}
		reqs, err := Requests(m)
		if err != nil || len(reqs) != 1 {
			t.Fatalf("requests %v %v", reqs, err)
		}
		for name, p := range pairs {
			what := name + " × " + claimLabel(tg)
			k8sSlices, err := DecodeSlices(p.slices)
			if err != nil {
				t.Fatalf("%s: Kubernetes decode: %v", what, err)
			}
			k8sClaims, err := DecodeClaims(p.claims)
			if err != nil {
				t.Fatalf("%s: Kubernetes decode of the claims: %v", what, err)
			}
			state := AllocatedState(k8sClaims)
			rep, err := cluster.CheckInUse(&r.Bounds, p.slices, p.claims)
			if err != nil {
				t.Fatalf("%s: cluster.CheckInUse: %v", what, err)
			}
			if err := agreeDevices(ctx, matcher, reqs[0].Alternatives, k8sSlices, rep, state.AllocatedDevices); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			byNode, err := AllocateSlicesInUse(ctx, m, k8sSlices, state)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			ok, err := agreeAllocation(byNode, rep)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			free, err := AllocateSlices(ctx, m, k8sSlices)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			freeOK := false
			for _, got := range free {
				freeOK = freeOK || got != nil
			}
			checked++
			if ok {
				allocatable++
			}
			if freeOK && !ok {
				turned++
			}
		}
	}
	// Both verdicts must occur, and some claims must fit only while the held devices are free,
	// or the agreement proves little.
	if checked == 0 || allocatable == 0 || allocatable == checked || turned == 0 {
		t.Fatalf("%d claim × cluster pairs, %d allocatable, %d turned unallocatable by the held devices", checked, allocatable, turned)
	}
	t.Logf("%d claim × cluster pairs agree (%d allocatable, %d not only because of devices other claims hold)", checked, allocatable, turned)
}
