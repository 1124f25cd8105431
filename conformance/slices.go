package conformance

import (
	"context"
	"errors"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	resourceapi "k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/utils/ptr"
)

// DecodeSlices reads ResourceSlices as Kubernetes' own decoders do (decodeStream); v1beta1 and
// v1beta2 objects are converted to v1 through the internal types, as the API server serves them.
func DecodeSlices(data []byte) ([]*resourcev1.ResourceSlice, error) {
	return decodeStream(data, toV1)
}

func toV1(obj runtime.Object) (*resourcev1.ResourceSlice, error) {
	if s, ok := obj.(*resourcev1.ResourceSlice); ok {
		return s, nil
	}
	internal := &resourceapi.ResourceSlice{}
	if err := scheme.Convert(obj, internal, nil); err != nil {
		return nil, fmt.Errorf("%T to internal: %w", obj, err)
	}
	s := &resourcev1.ResourceSlice{}
	if err := scheme.Convert(internal, s, nil); err != nil {
		return nil, fmt.Errorf("internal to v1: %w", err)
	}
	return s, nil
}

// SliceNodes are the nodes the slices name (sorted), or one node "node-1" when they name none.
func SliceNodes(slices []*resourcev1.ResourceSlice) []string {
	set := map[string]bool{}
	for _, s := range slices {
		if n := ptr.Deref(s.Spec.NodeName, ""); n != "" {
			set[n] = true
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	if len(out) == 0 {
		out = []string{"node-1"}
	}
	return out
}

// AllocateSlices runs the scheduler's allocator for the manifest's claim on each node of the
// slices, with DeviceClasses. It returns the allocation per node (nil where the claim cannot be
// allocated, also when the allocator says allocation failed on that node only); an error is a
// fatal problem (a CEL runtime error, for example).
func AllocateSlices(ctx context.Context, m Manifest, slices []*resourcev1.ResourceSlice) (map[string][]Allocated, error) {
	return AllocateSlicesInUse(ctx, m, slices, structured.AllocatedState{})
}

// AllocateSlicesInUse is AllocateSlices with devices already allocated to other claims (the
// scheduler's allocated state: AllocatedState of the cluster's claims).
func AllocateSlicesInUse(ctx context.Context, m Manifest, slices []*resourcev1.ResourceSlice, inUse structured.AllocatedState) (map[string][]Allocated, error) {
	var nodes []*corev1.Node
	for _, name := range SliceNodes(slices) {
		nodes = append(nodes, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}})
	}
	return AllocateOnNodes(ctx, m, slices, inUse, nodes)
}

// AllocateOnNodes is AllocateSlicesInUse on the given nodes (with their labels, which the
// slices' node selectors read), as the scheduler tries each node of the cluster.
func AllocateOnNodes(ctx context.Context, m Manifest, slices []*resourcev1.ResourceSlice, inUse structured.AllocatedState, nodes []*corev1.Node) (map[string][]Allocated, error) {
	return allocateWith(ctx, AllocatorFeatures, m, slices, inUse, nodes)
}

// allocateWith is AllocateOnNodes with the allocator's features given.
func allocateWith(ctx context.Context, features structured.Features, m Manifest, slices []*resourcev1.ResourceSlice, inUse structured.AllocatedState, nodes []*corev1.Node) (map[string][]Allocated, error) {
	alloc, err := structured.NewAllocator(ctx, features, inUse,
		classLister(DeviceClasses), slices, dracel.NewCache(64, dracel.Features{}))
	if err != nil {
		return nil, fmt.Errorf("NewAllocator: %w", err)
	}
	out := map[string][]Allocated{}
	for _, node := range nodes {
		name := node.Name
		res, err := alloc.Allocate(ctx, node, []*resourcev1.ResourceClaim{ClaimFor(m)})
		if errors.Is(err, structured.ErrFailedAllocationOnNode) {
			// Not this node (an invalid pool here, say); the scheduler tries the others.
			out[name] = nil
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("Allocate on %s: %w", name, err)
		}
		if len(res) == 0 {
			out[name] = nil
			continue
		}
		var got []Allocated
		for _, r := range res[0].Devices.Results {
			got = append(got, Allocated{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device})
		}
		out[name] = got
	}
	return out, nil
}

// SelectorVerdict evaluates one alternative's DeviceClass and request selectors on a slice
// device with the DRA CEL evaluator, as the allocator does: the class first (a device it
// rejects is never shown to the request's selectors), then every request selector.
func (m *Matcher) SelectorVerdict(ctx context.Context, alt Alternative, driver string, dev resourcev1.Device) (bool, error) {
	class, ok := m.Classes[alt.DeviceClassName]
	if !ok {
		return false, fmt.Errorf("no DeviceClass %q", alt.DeviceClassName)
	}
	d := dracel.Device{Driver: driver, Attributes: dev.Attributes, Capacity: dev.Capacity}
	for _, group := range [][]string{class.Selectors, alt.Selectors} {
		for _, e := range group {
			r, err := m.Compiler.Compile(e)
			if err != nil {
				return false, err
			}
			match, _, err := r.DeviceMatches(ctx, d)
			if err != nil || !match {
				return false, err
			}
		}
	}
	return true, nil
}
