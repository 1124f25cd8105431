package conformance

import (
	"fmt"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"
)

// DecodeClaims reads resource.k8s.io/v1 ResourceClaims as Kubernetes' decoders do (decodeStream).
func DecodeClaims(data []byte) ([]*resourcev1.ResourceClaim, error) {
	return decodeStream(data, func(obj runtime.Object) (*resourcev1.ResourceClaim, error) {
		c, ok := obj.(*resourcev1.ResourceClaim)
		if !ok {
			return nil, fmt.Errorf("%T, want a resource.k8s.io/v1 ResourceClaim", obj)
		}
		return c, nil
	})
}

// AllocatedState is the allocator's input for devices other claims hold, built as the
// scheduler's DRA plugin builds it (k8s.io/kubernetes pkg/scheduler/framework/plugins/
// dynamicresources/allocateddevices.go, foreachAllocatedDevice, v1.37.2): every result of every
// allocated claim by driver, pool and device, except results with adminAccess true. With
// DRAConsumableCapacity off (AllocatorFeatures), results with a shareID are dedicated too; the
// fixtures these tests read hold no shares. Package cluster models the gate on (on by default
// since 1.36): shared_test.go checks it with AllocatedStateShared and ConsumableFeatures.
func AllocatedState(claims []*resourcev1.ResourceClaim) structured.AllocatedState {
	state := structured.AllocatedState{AllocatedDevices: sets.New[structured.DeviceID]()}
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if ptr.Deref(r.AdminAccess, false) {
				continue
			}
			state.AllocatedDevices.Insert(structured.MakeDeviceID(r.Driver, r.Pool, r.Device))
		}
	}
	return state
}
