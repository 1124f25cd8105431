package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"
)

// DecodeClaims reads resource.k8s.io/v1 ResourceClaims as Kubernetes' decoders do: a YAML or
// JSON stream, each document a List (items) or one object, each strictly decoded by the scheme.
func DecodeClaims(data []byte) ([]*resourcev1.ResourceClaim, error) {
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []*resourcev1.ResourceClaim
	for {
		var doc map[string]any
		if err := d.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		if doc == nil {
			continue
		}
		items := []any{doc}
		if doc["kind"] == "List" {
			items, _ = doc["items"].([]any)
		}
		for _, it := range items {
			raw, err := json.Marshal(it)
			if err != nil {
				return nil, err
			}
			obj, _, err := strictDecoder.Decode(raw, nil, nil)
			if err != nil {
				return nil, err
			}
			c, ok := obj.(*resourcev1.ResourceClaim)
			if !ok {
				return nil, fmt.Errorf("%T, want a resource.k8s.io/v1 ResourceClaim", obj)
			}
			out = append(out, c)
		}
	}
}

// AllocatedState is the allocator's input for devices other claims hold, built as the
// scheduler's DRA plugin builds it (k8s.io/kubernetes pkg/scheduler/framework/plugins/
// dynamicresources/allocateddevices.go, foreachAllocatedDevice, v1.37.2): every result of every
// allocated claim by driver, pool and device, except results with adminAccess true. With
// DRAConsumableCapacity off (AllocatorFeatures), results with a shareID are dedicated too.
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
