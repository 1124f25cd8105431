package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/dynamic-resource-allocation/structured"
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

// clusterPair is a cluster to judge a claim on: its ResourceSlices and the ResourceClaims
// already in it (nil: none).
type clusterPair struct{ slices, claims []byte }

// addEveryThirdHeld adds to pairs each cluster with heldEveryThird's claims in it.
func addEveryThirdHeld(t *testing.T, pairs map[string]clusterPair, clusters map[string][]byte) {
	t.Helper()
	for name, data := range clusters {
		k8s, err := DecodeSlices(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pairs[name+" × every third held"] = clusterPair{data, heldEveryThird(t, k8s)}
	}
}

// judgedInUse is one claim on one cluster, judged by package cluster and by the allocator given
// the same held devices.
type judgedInUse struct {
	slices      []*resourcev1.ResourceSlice // the pair's slices, as Kubernetes decodes them
	state       structured.AllocatedState   // the devices its claims hold, as the scheduler counts them
	rep         cluster.Report              // cluster.CheckInUse's verdict
	byNode      map[string][]Allocated      // the allocator's, node by node
	allocatable bool                        // the claim can be allocated: both say so (agreeAllocation)
}

// judgeInUse decodes the pair both ways, judges the claim with cluster.CheckInUse and with the
// allocator, and fails unless their verdicts on the claim as a whole agree.
func judgeInUse(ctx context.Context, m Manifest, r *claim.Result, p clusterPair) (judgedInUse, error) {
	var j judgedInUse
	var err error
	if j.slices, err = DecodeSlices(p.slices); err != nil {
		return j, fmt.Errorf("Kubernetes decode: %w", err)
	}
	claims, err := DecodeClaims(p.claims)
	if err != nil {
		return j, fmt.Errorf("Kubernetes decode of the claims: %w", err)
	}
	j.state = AllocatedState(claims)
	if j.rep, err = cluster.CheckInUse(&r.Bounds, p.slices, p.claims); err != nil {
		return j, fmt.Errorf("cluster.CheckInUse: %w", err)
	}
	if j.byNode, err = AllocateSlicesInUse(ctx, m, j.slices, j.state); err != nil {
		return j, err
	}
	j.allocatable, err = agreeAllocation(j.byNode, j.rep)
	return j, err
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
	pairs := map[string]clusterPair{"busy × busy-claims.yaml": {busy, busyClaims}}
	fixtures := clusterFixtures(t)
	delete(fixtures, "real-fleet.yaml") // counters: TestSharedCountersAgreeWithKubernetes holds its devices
	fixtures["busy"] = busy
	fixtures["fleet"] = fleetSlicesYAML(t, testFleet(t))
	addEveryThirdHeld(t, pairs, fixtures)
	checked, allocatable, turned := 0, 0, 0
	for _, tg := range clusterTargets(true) {
		r, m, alts, ok := oneRequestToCheck(t, tg)
		if !ok {
			continue
		}
		for name, p := range pairs {
			what := name + " × " + claimLabel(tg)
			j, err := judgeInUse(ctx, m, &r, p)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if err := agreeDevices(ctx, matcher, alts, j.slices, j.rep, j.state.AllocatedDevices); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			free, err := AllocateSlices(ctx, m, j.slices)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			freeOK := false
			for _, got := range free {
				freeOK = freeOK || got != nil
			}
			checked++
			if j.allocatable {
				allocatable++
			}
			if freeOK && !j.allocatable {
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
	readmeFigure(t, `\(([0-9,]+) pairs; [0-9,]+ refused only because other claims hold`, checked)
	readmeFigure(t, `pairs; ([0-9,]+) refused only because other claims hold`, turned)
	confFigure(t, `verdict \(([0-9,]+) claim × cluster pairs`, checked)
	confFigure(t, `pairs on the short grid, ([0-9,]+) of them`, turned)
}
