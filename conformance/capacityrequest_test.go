package conformance

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/kubernetes/pkg/api/resourceclaimspec"
	"k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/apis/resource/validation"
	"k8s.io/kubernetes/pkg/features"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// The target's capacityRequest (capacity.requests.memory: the memory floor a device, KEP-5075)
// against Kubernetes v1.37.2: the API server's validation, its dropping of the field with
// DRAConsumableCapacity off, and the allocator with the gate on and off.

// results allocates the manifest's claim on one node with the allocator's features, and returns
// its results (nil when it cannot be allocated).
func results(ctx context.Context, features structured.Features, m Manifest, k8s []*resourcev1.ResourceSlice, state structured.AllocatedState, node string) ([]resourcev1.DeviceRequestAllocationResult, error) {
	alloc, err := structured.NewAllocator(ctx, features, state, classLister(DeviceClasses), k8s, dracel.NewCache(64, dracel.Features{}))
	if err != nil {
		return nil, err
	}
	res, err := alloc.Allocate(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node}}, []*resourcev1.ResourceClaim{ClaimFor(m)})
	if err != nil || len(res) == 0 {
		return nil, err
	}
	return res[0].Devices.Results, nil
}

// only keeps the named device of the slices (and the slices' other fields).
func only(k8s []*resourcev1.ResourceSlice, device string) []*resourcev1.ResourceSlice {
	var out []*resourcev1.ResourceSlice
	for _, s := range k8s {
		c := s.DeepCopy()
		c.Spec.Devices = slices.DeleteFunc(c.Spec.Devices, func(d resourcev1.Device) bool { return d.Name != device })
		out = append(out, c)
	}
	return out
}

func readCluster(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RepoDir, "cluster", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A 7B F16 claim (17Gi a device) that asks its floor, device by device on shared.yaml and
// capacity-policies.yaml: what the allocator records as the share's consumedCapacity (nothing
// for a device not shared), or that it skips the device; and cluster's verdict on each.
func TestCapacityRequestShares(t *testing.T) {
	ctx := context.Background()
	tg := target.Default()
	tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.CapacityRequest = 7, "F16", 10, fit.DriverLlmfit, true
	r, m, ok := claimToCheck(t, tg) // decoded, defaulted and validated as the API server does
	if !ok || r.Bounds.MemoryGi != 17 {
		t.Fatalf("claim %v, %d Gi", ok, r.Bounds.MemoryGi)
	}
	if got := m.Claim.Spec.Devices.Requests[0].Exactly.Capacity; got == nil || !got.Requests[claim.CapacityName].Equal(apiresource.MustParse("17Gi")) {
		t.Fatalf("capacity %+v", got)
	}
	tg.CapacityRequest = false
	_, plain, _ := claimToCheck(t, tg)
	// consumed is each device's share with the request and without ("-": the allocator skips
	// the device; "": allocated whole, no consumedCapacity).
	for _, c := range []struct {
		file, node string
		consumed   map[string][2]string
	}{
		{"shared.yaml", "node-s", map[string][2]string{
			"shared-0": {"17Gi", "16Gi"}, // validRange min 1Gi, step 1Gi: 1 + 16 × 1 = 17Gi; else the 16Gi default
			"shared-1": {"17Gi", "48Gi"}, // no requestPolicy: what is asked; else all of it
			"whole-0":  {"", ""},
		}},
		{"capacity-policies.yaml", "node-p", map[string][2]string{
			"round-0":  {"18Gi", "10Gi"}, // 2 + ceil(15 / 4) × 4 = 18Gi
			"low-0":    {"20Gi", "20Gi"}, // raised to its min
			"values-0": {"24Gi", "8Gi"},  // first of 8, 24, 80 ≥ 17
			"capped-0": {"-", "8Gi"},     // above max 16Gi: skipped
			"few-0":    {"-", "8Gi"},     // above every validValue: skipped
			"plain-0":  {"17Gi", "48Gi"},
			"named-0":  {"-", ""}, // llmfit.ai/memory: the selector reads it, the request's name is not it
			"whole-0":  {"", ""},
		}},
	} {
		k8s, err := DecodeSlices(readCluster(t, c.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, sl := range k8s { // the fixture is one the API server accepts
			var in resource.ResourceSlice
			if err := scheme.Convert(sl.DeepCopy(), &in, nil); err != nil {
				t.Fatal(err)
			}
			if errs := validation.ValidateResourceSlice(&in); len(errs) > 0 {
				t.Fatalf("%s: %v", c.file, errs)
			}
		}
		rep, err := cluster.Check(&r.Bounds, readCluster(t, c.file))
		if err != nil {
			t.Fatal(err)
		}
		for dev, want := range c.consumed {
			for i, man := range []Manifest{m, plain} {
				got, err := results(ctx, ConsumableFeatures, man, only(k8s, dev), structured.AllocatedState{}, c.node)
				if err != nil {
					t.Fatalf("%s %s: %v", c.file, dev, err)
				}
				share := "-"
				if len(got) == 1 {
					share = ""
					if q, ok := got[0].ConsumedCapacity[claim.CapacityName]; ok {
						share = q.String()
					}
					if (got[0].ShareID != nil) != (share != "") {
						t.Errorf("%s %s: shareID %v, consumed %q", c.file, dev, got[0].ShareID, share)
					}
				}
				if share != want[i] {
					t.Errorf("%s %s (request %v): allocator's share %q, want %q", c.file, dev, i == 0, share, want[i])
				}
			}
			for _, d := range rep.Devices {
				if d.Device == dev && d.Matches != (want[0] != "-") {
					t.Errorf("%s %s: cluster matches %v (%q), allocator's share %q", c.file, dev, d.Matches, d.Reasons, want[0])
				}
			}
		}
	}
}

// The request, claim by claim (every driver, one and two devices, two sizes), with the gate on:
// cluster's verdict and the allocator's agree on the shared fixtures (free and with shares
// held) and on the ordinary clusters, where the request changes neither verdict nor devices.
func TestCapacityRequestAgreesWithKubernetes(t *testing.T) {
	ctx := context.Background()
	pairs := map[string]clusterPair{
		"shared free":                  {readCluster(t, "shared.yaml"), nil},
		"shared × shared-claims.yaml":  {readCluster(t, "shared.yaml"), readCluster(t, "shared-claims.yaml")},
		"capacity-policies.yaml":       {readCluster(t, "capacity-policies.yaml"), nil},
		"mig.yaml × mig-claims.yaml":   {readCluster(t, "mig.yaml"), readCluster(t, "mig-claims.yaml")},
		"busy.yaml × busy-claims.yaml": {readCluster(t, "busy.yaml"), readCluster(t, "busy-claims.yaml")},
		"halves.yaml":                  {readCluster(t, "halves.yaml"), nil},
	}
	ordinary := map[string]bool{}
	for name, data := range clusterFixtures(t) {
		pairs[name], ordinary[name] = clusterPair{data, nil}, true
	}
	for _, name := range []string{"mig.yaml × mig-claims.yaml", "busy.yaml × busy-claims.yaml", "halves.yaml"} {
		ordinary[name] = true
	}
	targets := clusterTargets(true)
	for _, size := range []struct {
		paramsB float64
		quant   string
	}{{7, "F16"}, {30, "Q4_K_M"}} {
		for _, n := range []int{1, 2, 3} {
			tg := target.Default()
			tg.ParamsB, tg.Quant, tg.MinTps, tg.Count = size.paramsB, size.quant, 10, n
			targets = append(targets, tg)
		}
	}
	checked, allocatable, differ, shared, named := 0, 0, 0, 0, 0
	for _, tg := range targets {
		tg.CapacityRequest = true
		r, m, ok := claimToCheck(t, tg)
		if !ok {
			continue
		}
		plainTarget := tg
		plainTarget.CapacityRequest = false
		_, plain, _ := claimToCheck(t, plainTarget)
		for name, p := range pairs {
			what := name + " × " + claimLabel(tg)
			k8s, held, nodes := p.decode(t)
			state := AllocatedStateShared(held)
			byNode, ok := agreeOnPair(ctx, t, what, r, m, p, k8s, state, nodes)
			checked++
			if ok {
				allocatable++
			}
			before, err := allocateWith(ctx, ConsumableFeatures, plain, k8s, state, nodes)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			// On ordinary devices the request changes the allocation only where a device
			// spells its memory "<domain>/memory": the allocator skips it for a request
			// named "memory", the selector reads it either way.
			plainMemory := map[Allocated]bool{}
			for _, s := range k8s {
				for _, d := range s.Spec.Devices {
					_, ok := d.Capacity[resourcev1.QualifiedName(claim.CapacityName)]
					plainMemory[Allocated{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: d.Name}] = ok
				}
			}
			for node, got := range byNode {
				if slices.Equal(got, before[node]) {
					continue
				}
				differ++
				for _, a := range before[node] {
					gone := !slices.ContainsFunc(got, func(b Allocated) bool { return b.Device == a.Device && b.Pool == a.Pool })
					if gone && plainMemory[Allocated{Driver: a.Driver, Pool: a.Pool, Device: a.Device}] {
						if ordinary[name] {
							t.Errorf("%s on %s: the request changes the allocation on ordinary devices: %v, without %v", what, node, got, before[node])
						} else {
							shared++
						}
					} else if gone {
						named++
					}
				}
			}
		}
	}
	if checked == 0 || allocatable == 0 || allocatable == checked || shared == 0 || named == 0 {
		t.Fatalf("%d claim × cluster pairs, %d allocatable, %d node allocations changed by the request (%d devices shared, %d naming memory otherwise)", checked, allocatable, differ, shared, named)
	}
	t.Logf("%d claim × cluster pairs agree (%d allocatable); the request changes %d node allocations: %d devices lost are shared ones, %d spell their memory <domain>/memory", checked, allocatable, differ, shared, named)
	readmeFigure(t, `and agrees with it on ([0-9,]+) claim × cluster pairs`, checked)
	confFigure(t, `claim by claim \(([0-9,]+) and [0-9,]+ pairs\)`, checked)
}

// With DRAConsumableCapacity off: the API server drops the request on create (as for every
// field behind a gate off, so the claim is accepted as if it asked for no capacity), and an
// allocator with the gate off refuses the claim with an error (a scheduler behind an API server
// that kept it).
func TestCapacityRequestGateOff(t *testing.T) {
	tg := target.Default()
	tg.ParamsB, tg.Quant, tg.MinTps, tg.CapacityRequest, tg.Driver, tg.Count = 7, "F16", 10, true, fit.DriverAny, 2
	_, m, ok := claimToCheck(t, tg)
	if !ok {
		t.Fatal("no claim")
	}
	spec := func() *resource.ResourceClaimSpec {
		var in resource.ResourceClaim // the conversion shares memory: convert a copy
		if err := scheme.Convert(m.Claim.DeepCopy(), &in, nil); err != nil {
			t.Fatal(err)
		}
		return &in.Spec
	}
	asks := func(s *resource.ResourceClaimSpec) int {
		n := 0
		for _, sub := range s.Devices.Requests[0].FirstAvailable {
			if sub.Capacity != nil {
				n++
			}
		}
		return n
	}
	on := spec()
	resourceclaimspec.DropDisabledFields(on, nil)
	if asks(on) != len(fit.AnyAlternatives()) {
		t.Fatalf("gate on: %d alternatives keep the request", asks(on))
	}
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.DRAConsumableCapacity, false)
	off := spec()
	resourceclaimspec.DropDisabledFields(off, nil)
	if asks(off) != 0 {
		t.Fatalf("gate off: %d alternatives keep the request", asks(off))
	}
	if errs := validation.ValidateResourceClaim(&resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: Namespace}, Spec: *off}); len(errs) > 0 {
		t.Fatalf("gate off, dropped: %v", errs)
	}
	k8s, err := DecodeSlices(readCluster(t, "shared.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Kubernetes 1.37's other defaults (DRADeviceBindingConditions and
	// DRAResourceClaimDeviceStatus on: DeviceBindingAndStatus) pick the incubating allocator,
	// which refuses the claim.
	withBinding := AllocatorFeatures
	withBinding.DeviceBindingAndStatus = true
	_, refused := results(context.Background(), withBinding, m, k8s, structured.AllocatedState{}, "node-s")
	if refused == nil || !strings.Contains(refused.Error(), "has capacity requests, but the DRAConsumableCapacity feature is disabled") {
		t.Fatalf("allocator, gate off: %v", refused)
	}
	// With those off too, the stable allocator, which knows no capacity, ignores the request:
	// a shared device is allocated whole, with no share.
	got, err := results(context.Background(), AllocatorFeatures, m, k8s, structured.AllocatedState{}, "node-s")
	if err != nil || len(got) != 2 || got[0].ShareID != nil || got[0].ConsumedCapacity != nil || got[1].ShareID != nil {
		t.Fatalf("stable allocator, gate off: %+v, %v", got, err)
	}
	t.Logf("gate off: the API server drops the request; the incubating allocator: %v; the stable one allocates %s and %s whole", refused, got[0].Device, got[1].Device)
}

// qualifiedShared is shared.yaml and shared-claims.yaml with every device's memory spelled
// llmfit.ai/memory, and the shares held consuming it under that name.
func qualifiedShared(t *testing.T) (slices, claims []byte) {
	t.Helper()
	s := strings.ReplaceAll(string(readCluster(t, "shared.yaml")), "      capacity:\n        memory:", "      capacity:\n        llmfit.ai/memory:")
	c := strings.ReplaceAll(string(readCluster(t, "shared-claims.yaml")), "{memory: ", "{llmfit.ai/memory: ")
	if strings.Count(s, "llmfit.ai/memory:") != 3 || strings.Count(c, "llmfit.ai/memory: ") != 4 {
		t.Fatalf("qualifiedShared: the edits did not apply:\n%s\n%s", s, c)
	}
	return []byte(s), []byte(c)
}

// capacityName qualified: the claim asks capacity.requests["<domain>/memory"] in each alternative.
// It passes the API server's validation; device by device (capacity-policies.yaml, shared.yaml
// and its qualified spelling), the allocator takes exactly the devices cluster matches, with the
// share cluster says; claim by claim (llmfit and any, one and two devices, two sizes) the
// verdicts agree, on those clusters with and without the shares held and on the ordinary ones.
func TestCapacityNameQualifiedAgreesWithKubernetes(t *testing.T) {
	ctx := context.Background()
	qs, qc := qualifiedShared(t)
	tg := target.Default()
	tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.CapacityRequest, tg.CapacityName = 7, "F16", 10, fit.DriverLlmfit, true, target.CapacityQualified
	r, m, ok := claimToCheck(t, tg) // decoded, defaulted and validated as the API server does
	if !ok || r.Bounds.MemoryGi != 17 {
		t.Fatalf("claim %v, %d Gi", ok, r.Bounds.MemoryGi)
	}
	const name = "llmfit.ai/memory"
	if got := m.Claim.Spec.Devices.Requests[0].Exactly.Capacity; got == nil || !got.Requests[name].Equal(apiresource.MustParse("17Gi")) || len(got.Requests) != 1 {
		t.Fatalf("capacity %+v", got)
	}
	// consumed: the allocator's share of each device alone ("-": skipped; "": allocated whole).
	for _, c := range []struct {
		label, node string
		slices      []byte
		consumed    map[string]string
	}{
		{"capacity-policies.yaml", "node-p", readCluster(t, "capacity-policies.yaml"), map[string]string{
			"round-0": "-", "low-0": "-", "values-0": "-", "capped-0": "-", "few-0": "-", "plain-0": "-", "whole-0": "-", // memory, not llmfit.ai/memory
			"named-0": "", // llmfit.ai/memory, not shared: whole
		}},
		{"shared.yaml", "node-s", readCluster(t, "shared.yaml"), map[string]string{"shared-0": "-", "shared-1": "-", "whole-0": "-"}},
		{"shared.yaml spelled llmfit.ai/memory", "node-s", qs, map[string]string{
			"shared-0": "17Gi", // validRange min 1Gi, step 1Gi: 1 + 16 × 1 = 17Gi
			"shared-1": "17Gi", // no requestPolicy: what is asked
			"whole-0":  "",
		}},
	} {
		k8s, err := DecodeSlices(c.slices)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := cluster.Check(&r.Bounds, c.slices)
		if err != nil {
			t.Fatal(err)
		}
		for dev, want := range c.consumed {
			got, err := results(ctx, ConsumableFeatures, m, only(k8s, dev), structured.AllocatedState{}, c.node)
			if err != nil {
				t.Fatalf("%s %s: %v", c.label, dev, err)
			}
			share := "-"
			if len(got) == 1 {
				share = ""
				if q, ok := got[0].ConsumedCapacity[name]; ok {
					share = q.String()
				}
			}
			if share != want {
				t.Errorf("%s %s: allocator's share %q, want %q", c.label, dev, share, want)
			}
			i := slices.IndexFunc(rep.Devices, func(d cluster.DeviceResult) bool { return d.Device == dev })
			if d := rep.Devices[i]; d.Matches != (want != "-") || (want != "" && want != "-" && !strings.Contains(d.Share, name+" the "+want+" the claim asks")) {
				t.Errorf("%s %s: cluster matches %v, share %q (%q); the allocator's share %q", c.label, dev, d.Matches, d.Share, d.Reasons, want)
			}
		}
	}

	pairs := map[string]clusterPair{
		"capacity-policies.yaml":        {readCluster(t, "capacity-policies.yaml"), nil},
		"shared × shared-claims.yaml":   {readCluster(t, "shared.yaml"), readCluster(t, "shared-claims.yaml")},
		"qualified shared free":         {qs, nil},
		"qualified shared × its claims": {qs, qc},
	}
	for name, data := range clusterFixtures(t) {
		pairs[name] = clusterPair{data, nil}
	}
	checked, allocatable := 0, 0
	for _, drv := range []string{fit.DriverLlmfit, fit.DriverAny} {
		for _, size := range []struct {
			paramsB float64
			quant   string
		}{{7, "F16"}, {30, "Q4_K_M"}} {
			for _, n := range []int{1, 2} {
				tg := target.Default()
				tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.Count = size.paramsB, size.quant, 10, drv, n
				tg.CapacityRequest, tg.CapacityName = true, target.CapacityQualified
				r, m, ok := claimToCheck(t, tg)
				if !ok {
					continue
				}
				for pairName, p := range pairs {
					what := pairName + " × " + claimLabel(tg) + " capn=qualified"
					k8s, held, nodes := p.decode(t)
					_, ok := agreeOnPair(ctx, t, what, r, m, p, k8s, AllocatedStateShared(held), nodes)
					checked++
					if ok {
						allocatable++
					}
				}
			}
		}
	}
	if checked == 0 || allocatable == 0 || allocatable == checked {
		t.Fatalf("%d claim × cluster pairs, %d allocatable: both verdicts must occur", checked, allocatable)
	}
	t.Logf("capacityName qualified: %d claim × cluster pairs agree with the allocator (%d allocatable)", checked, allocatable)
	readmeFigure(t, `and on ([0-9,]+) claim × cluster pairs\.`, checked)
	confFigure(t, `claim by claim \([0-9,]+ and ([0-9,]+) pairs\)`, checked)
}

// decode is the pair as the allocator takes it: its slices, the claims holding devices, and a
// bare Node for each node the slices name.
func (p clusterPair) decode(t *testing.T) ([]*resourcev1.ResourceSlice, []*resourcev1.ResourceClaim, []*corev1.Node) {
	t.Helper()
	k8s, err := DecodeSlices(p.slices)
	if err != nil {
		t.Fatal(err)
	}
	held, err := DecodeClaims(p.claims)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*corev1.Node
	for _, n := range SliceNodes(k8s) {
		nodes = append(nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n}})
	}
	return k8s, held, nodes
}

// agreeOnPair checks the pair against r's claim with package cluster and with the allocator
// (consumable capacity on, the pair's claims holding their devices) and fails the test where
// they disagree; it returns the allocator's devices by node and whether the claim is allocatable.
func agreeOnPair(ctx context.Context, t *testing.T, what string, r claim.Result, m Manifest, p clusterPair,
	k8s []*resourcev1.ResourceSlice, state structured.AllocatedState, nodes []*corev1.Node) (map[string][]Allocated, bool) {
	t.Helper()
	rep, err := cluster.CheckInUse(&r.Bounds, p.slices, p.claims)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	byNode, err := allocateWith(ctx, ConsumableFeatures, m, k8s, state, nodes)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	ok, err := agreeAllocation(byNode, rep)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return byNode, ok
}
