package conformance

import (
	"context"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"
)

// AllocatorFeatures are the allocator features the test cluster has: the
// prioritized list (firstAvailable; GA and on by default since 1.34), device
// taints and partitionable devices (DRAPartitionableDevices: shared counters,
// which package cluster models; without it the allocator skips slices with
// sharedCounters or perDeviceNodeSelection and refuses devices that consume
// counters).
var AllocatorFeatures = structured.Features{PrioritizedList: true, DeviceTaints: true, PartitionableDevices: true}

// Allocated is one device of an allocation result.
type Allocated struct {
	Request, Driver, Pool, Device string
}

// Slices publishes the fleet as ResourceSlices: one pool and one slice per
// driver, available on all nodes.
func Slices(fleet Fleet) []*resourcev1.ResourceSlice {
	byDriver := map[string][]resourcev1.Device{}
	var drivers []string
	for _, d := range fleet {
		if _, ok := byDriver[d.Driver]; !ok {
			drivers = append(drivers, d.Driver)
		}
		byDriver[d.Driver] = append(byDriver[d.Driver], d.SliceDevice())
	}
	sort.Strings(drivers)
	var out []*resourcev1.ResourceSlice
	for _, drv := range drivers {
		name := strings.ReplaceAll(drv, ".", "-")
		out = append(out, &resourcev1.ResourceSlice{
			ObjectMeta: metav1.ObjectMeta{Name: name + "-slice"},
			Spec: resourcev1.ResourceSliceSpec{
				Driver:   drv,
				Pool:     resourcev1.ResourcePool{Name: name + "-pool", Generation: 1, ResourceSliceCount: 1},
				AllNodes: ptr.To(true),
				Devices:  byDriver[drv],
			},
		})
	}
	return out
}

// ClaimFor is the ResourceClaim the API server would hold for a (defaulted)
// manifest: the claim itself, or the claim the resourceclaim controller makes
// from a template.
func ClaimFor(m Manifest) *resourcev1.ResourceClaim {
	meta := metav1.ObjectMeta{Name: m.Name(), Namespace: Namespace, UID: types.UID("uid-" + m.Name())}
	if m.Template != nil {
		meta.Name += "-pod-0"
		return &resourcev1.ResourceClaim{ObjectMeta: meta, Spec: *m.Template.Spec.Spec.DeepCopy()}
	}
	c := m.Claim.DeepCopy()
	c.ObjectMeta = meta
	return c
}

// Allocate runs the scheduler's allocator for the manifest's claim against
// the fleet published as ResourceSlices, on one node, with DeviceClasses. It
// returns the allocated devices, or nil when the claim cannot be allocated.
// An error is a fatal problem (for example a CEL runtime error).
func Allocate(ctx context.Context, m Manifest, fleet Fleet) ([]Allocated, error) {
	alloc, err := structured.NewAllocator(ctx, AllocatorFeatures, structured.AllocatedState{},
		classLister(DeviceClasses), Slices(fleet), dracel.NewCache(64, dracel.Features{}))
	if err != nil {
		return nil, fmt.Errorf("NewAllocator: %w", err)
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}
	res, err := alloc.Allocate(ctx, node, []*resourcev1.ResourceClaim{ClaimFor(m)})
	if err != nil {
		return nil, fmt.Errorf("Allocate: %w", err)
	}
	if len(res) == 0 {
		return nil, nil
	}
	if len(res) != 1 {
		return nil, fmt.Errorf("Allocate: %d results for one claim", len(res))
	}
	var out []Allocated
	for _, r := range res[0].Devices.Results {
		out = append(out, Allocated{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device})
	}
	return out, nil
}

// AllocatorImplementation names the allocator implementation NewAllocator
// picks now (its Go type), so tests can show which one they exercised.
func AllocatorImplementation(ctx context.Context) (string, error) {
	alloc, err := structured.NewAllocator(ctx, AllocatorFeatures, structured.AllocatedState{},
		classLister(DeviceClasses), nil, dracel.NewCache(1, dracel.Features{}))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%T", alloc), nil
}
