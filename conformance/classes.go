package conformance

import (
	"fmt"

	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DeviceClasses are the classes a cluster has for each driver, named as the
// drivers' charts name them, each selecting its driver's devices. NVIDIA's
// class gpu.nvidia.com also selects only full GPUs (type "gpu"); MIG slices
// have their own class there.
var DeviceClasses = map[string]*resourcev1.DeviceClass{
	DriverLLMfit: deviceClass(DriverLLMfit, `device.driver == "llmfit.ai"`),
	DriverNVIDIA: deviceClass(DriverNVIDIA, `device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "gpu"`),
	DriverAMD:    deviceClass(DriverAMD, `device.driver == "gpu.amd.com"`),
	DriverIntel:  deviceClass(DriverIntel, `device.driver == "gpu.intel.com"`),
}

func deviceClass(name string, selectors ...string) *resourcev1.DeviceClass {
	c := &resourcev1.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
	for _, s := range selectors {
		c.Spec.Selectors = append(c.Spec.Selectors, resourcev1.DeviceSelector{CEL: &resourcev1.CELDeviceSelector{Expression: s}})
	}
	return c
}

// classLister serves DeviceClasses to the allocator.
type classLister map[string]*resourcev1.DeviceClass

func (l classLister) List() ([]*resourcev1.DeviceClass, error) {
	var out []*resourcev1.DeviceClass
	for _, c := range l {
		out = append(out, c)
	}
	return out, nil
}

func (l classLister) Get(name string) (*resourcev1.DeviceClass, error) {
	if c, ok := l[name]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("deviceclass %q not found", name)
}
