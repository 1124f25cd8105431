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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Consumable capacity (KEP-5075): cluster's share model against the allocator with
// DRAConsumableCapacity on (ConsumableFeatures: beta and on by default since Kubernetes 1.36;
// NewAllocator then runs the incubating implementation), given the cluster's claims as the
// scheduler builds its state with the gate on (AllocatedStateShared). On shared.yaml — a shared
// device whose share takes its requestPolicy default (16Gi of 80Gi), one whose share takes all
// of it (no requestPolicy), a device one claim at a time — free, with shared-claims.yaml (shares
// holding 64Gi of the first and all of the second; and with 65Gi of the first, a Gi short of a
// share) and with every third device held whole: claim
// by claim (one to four devices: the verdict, and where allocatable the very devices picked,
// one pool on one node) and every device alone for a one-device claim.

// ConsumableFeatures are AllocatorFeatures with DRAConsumableCapacity on.
var ConsumableFeatures = func() structured.Features {
	f := AllocatorFeatures
	f.ConsumableCapacity = true
	return f
}()

// AllocatedStateShared is the allocator's input for the devices and shares other claims hold,
// as the scheduler's DRA plugin builds it with DRAConsumableCapacity on (k8s.io/kubernetes
// pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go, foreachAllocatedDevice,
// v1.37.2): a result with a shareID is a shared device ID and adds its consumedCapacity to the
// device's aggregated capacity; any other result (but admin access) holds the device whole.
func AllocatedStateShared(claims []*resourcev1.ResourceClaim) structured.AllocatedState {
	state := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if ptr.Deref(r.AdminAccess, false) {
				continue
			}
			id := structured.MakeDeviceID(r.Driver, r.Pool, r.Device)
			if r.ShareID != nil {
				state.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, r.ShareID))
				if r.ConsumedCapacity != nil {
					state.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, r.ConsumedCapacity))
				}
				continue
			}
			state.AllocatedDevices.Insert(id)
		}
	}
	return state
}

func TestSharedDevicesAgreeWithKubernetes(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(RepoDir, "cluster", "testdata")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	shared := read("shared.yaml")
	pairs := map[string]clusterPair{
		"shared free":                 {shared, nil},
		"shared × shared-claims.yaml": {shared, read("shared-claims.yaml")},
	}
	// A Gi more held of shared-0: 15Gi left, short of a 16Gi share by one Gi.
	more := strings.Replace(string(read("shared-claims.yaml")), "consumedCapacity: {memory: 48Gi}}", "consumedCapacity: {memory: 49Gi}}", 1)
	pairs["shared × a Gi more held"] = clusterPair{shared, []byte(more)}
	addEveryThirdHeld(t, pairs, map[string][]byte{"shared": shared})
	node := []*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "node-s"}}}
	claims, allocatable, alone, aloneOK, full, shareSeen := 0, 0, 0, 0, 0, 0
	for _, n := range []int{1, 2, 3, 4} {
		for _, size := range []struct {
			paramsB float64
			quant   string
		}{{7, "F16"}, {30, "Q4_K_M"}} {
			tg := target.Default()
			tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.Count = size.paramsB, size.quant, 10, fit.DriverLlmfit, n
			r, m, ok := claimToCheck(t, tg)
			if !ok {
				continue
			}
			for name, p := range pairs {
				what := name + " × " + claimLabel(tg)
				k8s, held, _ := p.decode(t)
				state := AllocatedStateShared(held)
				rep, err := cluster.CheckInUse(&r.Bounds, p.slices, p.claims)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				byNode, err := allocateWith(ctx, ConsumableFeatures, m, k8s, state, node)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				got := byNode["node-s"]
				if (got != nil) != rep.Allocatable {
					t.Fatalf("%s: allocator %v, cluster %q", what, got, rep.Placement)
				}
				claims++
				if got != nil {
					allocatable++
					_, want := picked(rep.Placement)
					var names []string
					for _, a := range got {
						names = append(names, a.Device)
					}
					if !slices.Equal(names, want) {
						t.Fatalf("%s: allocator picks %v, cluster %q", what, names, rep.Placement)
					}
				}
				for _, d := range rep.Devices {
					if d.Share != "" {
						shareSeen++
					}
				}
				if n != 1 {
					continue
				}
				// Devices held whole stay (they would draw on counters); a device other claims
				// share stays only as the device under test, or the allocator could pick it instead.
				isHeld := func(driver, pool, device string) bool {
					return state.AllocatedDevices.Has(structured.MakeDeviceID(driver, pool, device))
				}
				for _, d := range rep.Devices {
					if d.AllocatedTo != "" {
						continue
					}
					only := onlyDevice(k8s, d, isHeld)
					got, err := allocateWith(ctx, ConsumableFeatures, m, only, state, node)
					if err != nil {
						t.Fatalf("%s, %s alone: %v", what, d.Device, err)
					}
					ok := false
					for _, a := range got["node-s"] {
						ok = ok || a.Device == d.Device
					}
					if ok != d.Matches {
						t.Fatalf("%s: %s alone: allocator allocates %v, cluster matches %v (reasons %q)", what, d.Device, ok, d.Matches, d.Reasons)
					}
					alone++
					if ok {
						aloneOK++
					}
					for _, why := range d.Reasons {
						if strings.HasPrefix(why, "capacity ") {
							full++
						}
					}
				}
			}
		}
	}
	// Both verdicts, devices refused for the shares alone and shares named, must occur.
	if claims == 0 || allocatable == 0 || allocatable == claims || aloneOK == 0 || aloneOK == alone || full == 0 || shareSeen == 0 {
		t.Fatalf("%d claims (%d allocatable); %d devices alone (%d allocated, %d refused for the shares held); %d shares named", claims, allocatable, alone, aloneOK, full, shareSeen)
	}
	t.Logf("%d claim × cluster pairs agree (%d allocatable); %d devices alone agree (%d allocated, %d refused for the shares held)", claims, allocatable, alone, aloneOK, full)
	readmeFigure(t, `shared\.yaml: ([0-9,]+) claims`, claims)
	readmeFigure(t, `shared\.yaml: [0-9,]+ claims and ([0-9,]+) devices alone`, alone)
}

// A shared device that draws on shared counters (KEP-4815 and KEP-5075 together): mig.yaml with
// its whole gpu-1 shared (a share takes a 20Gi default of its 80Gi). A share held of gpu-1 has
// drawn gpu-1's counters (all of them: 80Gi and 132 multiprocessors), so gpu-1's partitions are
// short, while a further share of gpu-1 draws none and fits; with a partition of gpu-1 held
// whole instead, gpu-1 is short of counters like any whole GPU. Claim by claim, the verdict and
// the devices picked.
func TestSharedPartitionableAgreesWithKubernetes(t *testing.T) {
	ctx := context.Background()
	mig, err := os.ReadFile(filepath.Join(RepoDir, "cluster", "testdata", "mig.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(mig)
	at := strings.Index(s, "    - name: gpu-1\n")
	mem := at + strings.Index(s[at:], "memory: {value: 80Gi}")
	if at < 0 || mem < at {
		t.Fatal("mig.yaml's gpu-1 not found")
	}
	s = s[:mem] + "memory: {value: 80Gi, requestPolicy: {default: 20Gi}}" + s[mem+len("memory: {value: 80Gi}"):]
	s = strings.Replace(s, "    - name: gpu-1\n", "    - name: gpu-1\n      allowMultipleAllocations: true\n", 1)
	holding := func(device, share string) []byte {
		return []byte(`apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: holder, namespace: ml}
  spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu.nvidia.com}}]}}
  status: {allocation: {devices: {results: [{request: r, driver: gpu.nvidia.com, pool: node-m, device: ` + device + share + `}]}}}
`)
	}
	pairs := map[string]clusterPair{
		"gpu-1 shared, free":                 {[]byte(s), nil},
		"gpu-1 shared, a share held":         {[]byte(s), holding("gpu-1", ", shareID: 5a0c3e7b-1d2f-4b6a-9c8e-7f1a2b3c4d5e, consumedCapacity: {memory: 20Gi}")},
		"gpu-1 shared, a full share held":    {[]byte(s), holding("gpu-1", ", shareID: 5a0c3e7b-1d2f-4b6a-9c8e-7f1a2b3c4d5e, consumedCapacity: {memory: 61Gi}")},
		"gpu-1 shared, a partition held":     {[]byte(s), holding("gpu-1-mig-3g40gb-0", "")},
		"gpu-1 shared, held whole, no share": {[]byte(s), holding("gpu-1", "")},
	}
	node := []*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "node-m"}}}
	claims, allocatable, onShared := 0, 0, 0
	for _, drv := range []string{fit.DriverNVIDIA, fit.DriverAny} {
		for _, n := range []int{1, 2, 3} {
			tg := target.Default()
			tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.Count = 30, "Q4_K_M", 10, drv, n
			r, m, ok := claimToCheck(t, tg)
			if !ok {
				continue
			}
			for name, p := range pairs {
				what := name + " × " + claimLabel(tg)
				k8s, held, _ := p.decode(t)
				rep, err := cluster.CheckInUse(&r.Bounds, p.slices, p.claims)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				byNode, err := allocateWith(ctx, ConsumableFeatures, m, k8s, AllocatedStateShared(held), node)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				got := byNode["node-m"]
				var names []string
				for _, a := range got {
					names = append(names, a.Device)
				}
				_, want := picked(rep.Placement)
				if (got != nil) != rep.Allocatable || (got != nil && !slices.Equal(names, want)) {
					t.Fatalf("%s: allocator %v, cluster %q", what, names, rep.Placement)
				}
				claims++
				if got != nil {
					allocatable++
					if slices.Contains(names, "gpu-1") && p.claims != nil {
						onShared++
					}
				}
			}
		}
	}
	if claims == 0 || allocatable == 0 || allocatable == claims || onShared == 0 {
		t.Fatalf("%d claims, %d allocatable, %d on gpu-1 beside a held share", claims, allocatable, onShared)
	}
	t.Logf("%d claim × cluster pairs agree (%d allocatable, %d with a share of gpu-1 beside a held one)", claims, allocatable, onShared)
	readmeFigure(t, `partitions: ([0-9,]+) claims, down to`, claims)
}
