package conformance

import (
	"fmt"
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/utils/ptr"
)

// Driver names (and the DeviceClass names fitclaim writes for them).
const (
	DriverLLMfit = "llmfit.ai"
	DriverNVIDIA = "gpu.nvidia.com"
	DriverAMD    = "gpu.amd.com"
	DriverIntel  = "gpu.intel.com"
	// DriverForeign is a driver with no DeviceClass in the test cluster.
	DriverForeign = "gpu.example.com"
)

// Variants of a fleet device. VariantComplete is the device as its driver
// publishes it; the others break one thing on purpose.
const (
	VariantComplete    = ""
	VariantUnqualified = "unqualified"    // llmfit.ai: same facts, names without domain, memory in bytes
	VariantUnhealthy   = "unhealthy"      // llmfit.ai: healthy=false
	VariantNoMemory    = "no-memory"      // llmfit.ai: capacity memory missing
	VariantNoBandwidth = "no-bandwidth"   // llmfit.ai: memoryBandwidthGBs missing
	VariantNoHealthy   = "no-healthy"     // llmfit.ai: healthy missing
	VariantForeign     = "foreign"        // llmfit.ai attributes published by a driver of no class
	VariantMIG         = "mig"            // gpu.nvidia.com: a MIG slice (type "mig")
	VariantNoMemoryAMD = "memory-zero"    // gpu.amd.com: memory 0 = unknown
	VariantTainted     = "tainted"        // real drivers: unhealthy, as a NoSchedule device taint
	VariantNoProduct   = "no-productname" // gpu.nvidia.com: productName missing
	VariantNoCapacity  = "no-capacity"    // real drivers: memory capacity missing
	VariantBoundary    = "boundary"       // synthetic, at or one step below a floor
)

// FakeDevice is one device of the fleet, with the facts it publishes kept
// beside the DRA representation so expectations never go through CEL.
type FakeDevice struct {
	Name    string // unique in the fleet, a DNS label
	Accel   *Accel // the accelerator it models; nil for synthetic devices
	Variant string
	Driver  string

	Attributes map[resourcev1.QualifiedName]resourcev1.DeviceAttribute
	Capacity   map[resourcev1.QualifiedName]resourcev1.DeviceCapacity

	// Facts in the llmfit.ai domain (Has* false = not published).
	HasMemory, HasBandwidth, HasHealthy bool
	MemoryMiB, BandwidthGBs             int64
	Healthy                             bool

	// Tainted: the device carries a NoSchedule taint (how real drivers say
	// unhealthy). Selectors do not see taints; the allocator must skip it.
	Tainted bool

	// Facts of a real driver's layout. Missing names the attribute or
	// capacity the device lacks ("productName", "memory"), "" for none.
	Missing     string
	ProductName string
	MemoryBytes int64 // as reported; 0 = unknown (AMD)
	Type        string
}

// CEL is the device as the DRA CEL evaluator sees it.
func (d FakeDevice) CEL() dracel.Device {
	return dracel.Device{Driver: d.Driver, Attributes: d.Attributes, Capacity: d.Capacity}
}

// SliceDevice is the device as it appears in a ResourceSlice.
func (d FakeDevice) SliceDevice() resourcev1.Device {
	dev := resourcev1.Device{Name: d.Name, Attributes: d.Attributes, Capacity: d.Capacity}
	if d.Tainted {
		dev.Taints = []resourcev1.DeviceTaint{{Key: d.Driver + "/unhealthy", Value: "true", Effect: resourcev1.DeviceTaintEffectNoSchedule}}
	}
	return dev
}

// Taint returns the device with a NoSchedule taint, as VariantTainted.
func (d FakeDevice) Taint() FakeDevice {
	d.Name += "-" + VariantTainted
	d.Variant = VariantTainted
	d.Tainted = true
	return d
}

// FitsLLMfit says, from the published facts alone, whether the device is an
// llmfit.ai device that meets the floors and is healthy: what a correct
// llmfit.ai selector (with the llmfit.ai DeviceClass) must match.
func (d FakeDevice) FitsLLMfit(memoryMi, minBandwidthGBs int64) bool {
	return d.Driver == DriverLLMfit && d.HasMemory && d.HasBandwidth && d.HasHealthy &&
		d.MemoryMiB >= memoryMi && d.BandwidthGBs >= minBandwidthGBs && d.Healthy
}

func qn(domain, id string) resourcev1.QualifiedName {
	if domain == "" {
		return resourcev1.QualifiedName(id)
	}
	return resourcev1.QualifiedName(domain + "/" + id)
}

func mib(n int64) resource.Quantity { return *resource.NewQuantity(n*1024*1024, resource.BinarySI) }

// LLMfitDevice is the device the llmfit-dra driver publishes for an
// accelerator: capacity llmfit.ai/memory, attributes llmfit.ai/memoryBandwidthGBs
// (int) and llmfit.ai/healthy (bool), then broken as the variant says.
func LLMfitDevice(a Accel, variant string) FakeDevice {
	d := FakeDevice{
		Name: "llmfit-" + a.ID, Accel: &a, Variant: variant, Driver: DriverLLMfit,
		HasMemory: true, HasBandwidth: true, HasHealthy: true,
		MemoryMiB: a.MemoryMiB, BandwidthGBs: a.BandwidthInt(), Healthy: true,
	}
	if variant != VariantComplete {
		d.Name += "-" + variant
	}
	domain := DriverLLMfit
	mem := resource.MustParse(fmt.Sprintf("%dMi", a.MemoryMiB))
	switch variant {
	case VariantUnqualified:
		domain = "" // the driver's name is the default domain
		mem = mib(a.MemoryMiB)
	case VariantUnhealthy:
		d.Healthy = false
	case VariantNoMemory:
		d.HasMemory = false
	case VariantNoBandwidth:
		d.HasBandwidth = false
	case VariantNoHealthy:
		d.HasHealthy = false
	case VariantForeign:
		d.Driver = DriverForeign
	}
	d.Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{}
	d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{}
	if d.HasMemory {
		d.Capacity[qn(domain, "memory")] = resourcev1.DeviceCapacity{Value: mem}
	}
	if d.HasBandwidth {
		d.Attributes[qn(domain, "memoryBandwidthGBs")] = resourcev1.DeviceAttribute{IntValue: ptr.To(d.BandwidthGBs)}
	}
	if d.HasHealthy {
		d.Attributes[qn(domain, "healthy")] = resourcev1.DeviceAttribute{BoolValue: ptr.To(d.Healthy)}
	}
	return d
}

// LLMfitVariants are the llmfit.ai devices built for every accelerator.
var LLMfitVariants = []string{
	VariantComplete, VariantUnqualified, VariantUnhealthy,
	VariantNoMemory, VariantNoBandwidth, VariantNoHealthy, VariantForeign,
}

// nvidiaArch is (architecture, CUDA compute capability) per product family.
func nvidiaArch(a Accel) (string, string) {
	id := a.ID
	switch {
	case strings.Contains(id, "b200"), strings.Contains(id, "5090"), strings.Contains(id, "rtx-pro-6000"):
		return "Blackwell", "10.0.0"
	case strings.Contains(id, "h100"), strings.Contains(id, "h200"), strings.Contains(id, "gh200"):
		return "Hopper", "9.0.0"
	case strings.Contains(id, "l40"), id == "nvidia-l4", strings.Contains(id, "4090"), strings.Contains(id, "4080"), strings.Contains(id, "6000-ada"):
		return "Ada Lovelace", "8.9.0"
	case strings.Contains(id, "a100"):
		return "Ampere", "8.0.0"
	case strings.Contains(id, "a10"), strings.Contains(id, "a6000"), strings.Contains(id, "3090"):
		return "Ampere", "8.6.0"
	case strings.Contains(id, "t4"):
		return "Turing", "7.5.0"
	case strings.Contains(id, "v100"):
		return "Volta", "7.0.0"
	}
	return "Unknown", "0.0.0"
}

func str(s string) resourcev1.DeviceAttribute { return resourcev1.DeviceAttribute{StringValue: &s} }
func ver(s string) resourcev1.DeviceAttribute { return resourcev1.DeviceAttribute{VersionValue: &s} }

// NVIDIADevice is the layout of NVIDIA's DRA driver (gpu.nvidia.com):
// attributes type, uuid, productName, brand, architecture,
// cudaComputeCapability (semver), driverVersion (semver); capacity memory in
// bytes, as reported. VariantMIG gives a MIG slice of a third of the memory.
func NVIDIADevice(a Accel, variant string, index int) FakeDevice {
	arch, cc := nvidiaArch(a)
	d := FakeDevice{
		Name: "gpu-" + a.ID, Accel: &a, Variant: variant, Driver: DriverNVIDIA,
		ProductName: a.ProductName, MemoryBytes: a.MemoryMiB << 20, Type: "gpu",
	}
	if variant == VariantMIG {
		d.Name += "-mig"
		d.Type = "mig"
		d.MemoryBytes = (a.MemoryMiB / 3) << 20
	}
	brand := "Nvidia"
	if strings.Contains(a.ProductName, "GeForce") {
		brand = "GeForce"
	}
	d.Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
		"type":                  str(d.Type),
		"uuid":                  str(fmt.Sprintf("GPU-%08x-0000-4000-8000-%012x", index, index)),
		"productName":           str(a.ProductName),
		"brand":                 str(brand),
		"architecture":          str(arch),
		"cudaComputeCapability": ver(cc),
		"driverVersion":         ver("580.82.7"),
		"cudaDriverVersion":     ver("13.0.0"),
	}
	d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
		"memory": {Value: *resource.NewQuantity(d.MemoryBytes, resource.BinarySI)},
	}
	if a.NoMemory { // as the driver publishes it: no memory (MemoryBytes stays the catalog's, for the expectation)
		d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{}
	}
	return d
}

// AMDDevice is the layout of AMD's DRA driver (gpu.amd.com): attributes type,
// deviceID, productName, driverVersion; capacity memory (bytes, 0 = unknown)
// and computeUnits. VariantNoMemoryAMD reports memory 0.
func AMDDevice(a Accel, variant string) FakeDevice {
	product := a.ProductName
	if product == "" {
		product = a.Name
	}
	d := FakeDevice{
		Name: "gpu-" + a.ID, Accel: &a, Variant: variant, Driver: DriverAMD,
		ProductName: product, MemoryBytes: a.MemoryMiB << 20, Type: "amdgpu",
	}
	if variant == VariantNoMemoryAMD {
		d.Name += "-" + variant
		d.MemoryBytes = 0
	}
	d.Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
		"type":          str(d.Type),
		"deviceID":      str("0x74a1"),
		"productName":   str(product),
		"driverVersion": ver("6.12.12"),
	}
	d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
		"memory":       {Value: *resource.NewQuantity(d.MemoryBytes, resource.BinarySI)},
		"computeUnits": {Value: *resource.NewQuantity(304, resource.DecimalSI)},
	}
	return d
}

// IntelDevice is the layout of Intel's DRA driver (gpu.intel.com): attributes
// model, family, sriov, health; capacity memory (in Mi) and millicores.
func IntelDevice(a Accel, variant string) FakeDevice {
	family := "Max"
	switch {
	case strings.Contains(a.Name, "Flex"):
		family = "Flex"
	case strings.Contains(a.Name, "Arc"):
		family = "Arc"
	}
	d := FakeDevice{
		Name: "gpu-" + a.ID, Accel: &a, Variant: variant, Driver: DriverIntel,
		ProductName: a.Name, MemoryBytes: a.MemoryMiB << 20, Type: "gpu",
	}
	d.Attributes = map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{
		"model":  str(a.Name),
		"family": str(family),
		"sriov":  {BoolValue: ptr.To(family != "Arc")},
		"health": str("Healthy"),
	}
	d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
		"memory":     {Value: resource.MustParse(fmt.Sprintf("%dMi", a.MemoryMiB))},
		"millicores": {Value: resource.MustParse("1000m")},
	}
	return d
}

// Drop drops one attribute or capacity of a real driver's device, as the
// variant VariantNoProduct or VariantNoCapacity.
func (d FakeDevice) Drop(name string) FakeDevice {
	attrs := map[resourcev1.QualifiedName]resourcev1.DeviceAttribute{}
	for k, v := range d.Attributes {
		if k != resourcev1.QualifiedName(name) {
			attrs[k] = v
		}
	}
	caps := map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{}
	for k, v := range d.Capacity {
		if k != resourcev1.QualifiedName(name) {
			caps[k] = v
		}
	}
	if len(attrs) == len(d.Attributes) && len(caps) == len(d.Capacity) {
		panic("Drop: device " + d.Name + " has no " + name)
	}
	d.Attributes, d.Capacity, d.Missing = attrs, caps, name
	d.Variant = VariantNoCapacity
	if name == "productName" {
		d.Variant = VariantNoProduct
	}
	d.Name += "-" + d.Variant
	return d
}

// Fleet is every fake device built from a list of accelerators.
type Fleet []FakeDevice

// NewFleet builds, for every accelerator, the llmfit.ai device and its
// variants (LLMfitVariants), and the device of the accelerator's real driver
// in that driver's layout (plus a MIG slice for NVIDIA, a memory-unknown
// device for AMD, a tainted twin for each real driver, and twins lacking the
// memory capacity and, for NVIDIA, the productName attribute).
func NewFleet(accels []Accel) (Fleet, error) {
	var f Fleet
	seen := map[string]bool{}
	add := func(d FakeDevice) error {
		if seen[d.Name] {
			return fmt.Errorf("fleet: duplicate device name %q", d.Name)
		}
		seen[d.Name] = true
		f = append(f, d)
		return nil
	}
	for i, a := range accels {
		for _, v := range LLMfitVariants {
			if err := add(LLMfitDevice(a, v)); err != nil {
				return nil, err
			}
		}
		var real []FakeDevice
		switch a.Driver {
		case DriverNVIDIA:
			d := NVIDIADevice(a, VariantComplete, i)
			if a.NoMemory { // no memory to drop, and no MIG (the GB10)
				real = []FakeDevice{d, d.Taint(), d.Drop("productName")}
			} else {
				real = []FakeDevice{d, NVIDIADevice(a, VariantMIG, i), d.Taint(), d.Drop("productName"), d.Drop("memory")}
			}
		case DriverAMD:
			d := AMDDevice(a, VariantComplete)
			real = []FakeDevice{d, AMDDevice(a, VariantNoMemoryAMD), d.Taint(), d.Drop("memory")}
		case DriverIntel:
			d := IntelDevice(a, VariantComplete)
			real = []FakeDevice{d, d.Taint(), d.Drop("memory")}
		case "": // no DRA driver publishes it (Apple silicon): only the llmfit.ai device
		default:
			return nil, fmt.Errorf("fleet: accelerator %s: unknown driver %q", a.ID, a.Driver)
		}
		for _, d := range real {
			if err := add(d); err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}

// BoundaryDevices are synthetic llmfit.ai devices at the floors of one claim:
// exactly at both floors (must match), one MiB below the memory floor, and
// one GB/s below the bandwidth floor (must not match).
func BoundaryDevices(memoryMi, minBandwidthGBs int64) Fleet {
	mk := func(name string, memMiB, bw int64) FakeDevice {
		d := LLMfitDevice(Accel{ID: name, MemoryMiB: memMiB, BandwidthGBs: float64(bw)}, VariantComplete)
		d.Name = "boundary-" + name
		d.Accel = nil
		d.Variant = VariantBoundary
		d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{
			qn(DriverLLMfit, "memory"): {Value: mib(memMiB)},
		}
		return d
	}
	return Fleet{
		mk("at-floors", memoryMi, minBandwidthGBs),
		mk("memory-below", memoryMi-1, minBandwidthGBs),
		mk("bandwidth-below", memoryMi, minBandwidthGBs-1),
	}
}

// RealBoundaryDevices are synthetic devices of the real drivers at the memory
// floor (exactly memoryMi Mi as the driver reports it) and one step below it
// (one byte; one Mi for Intel, which reports Mi), for NVIDIA with a listed
// product (the first of products, if any) and with an unlisted one.
func RealBoundaryDevices(memoryMi int64, products []string) Fleet {
	var f Fleet
	nv := func(name, product string, bytes int64) {
		d := NVIDIADevice(Accel{ID: "b", Name: product, ProductName: product, MemoryMiB: 0}, VariantComplete, 0)
		d.Name, d.Accel, d.Variant = "boundary-nvidia-"+name, nil, VariantBoundary
		d.MemoryBytes = bytes
		d.Capacity = map[resourcev1.QualifiedName]resourcev1.DeviceCapacity{"memory": {Value: *resource.NewQuantity(bytes, resource.BinarySI)}}
		f = append(f, d)
	}
	if len(products) > 0 {
		nv("at-floor", products[0], memoryMi*(1<<20))
		nv("below-floor", products[0], memoryMi*(1<<20)-1)
	}
	nv("unlisted", "NVIDIA Unlisted GPU", memoryMi*(1<<20)*2)
	for _, name := range []string{"at-floor", "below-floor"} {
		bytes := memoryMi * (1 << 20)
		if name == "below-floor" {
			bytes--
		}
		a := AMDDevice(Accel{ID: "b", Name: "AMD Boundary"}, VariantComplete)
		a.Name, a.Accel, a.Variant, a.MemoryBytes = "boundary-amd-"+name, nil, VariantBoundary, bytes
		a.Capacity["memory"] = resourcev1.DeviceCapacity{Value: *resource.NewQuantity(bytes, resource.BinarySI)}
		f = append(f, a)

		miB := memoryMi
		if name == "below-floor" {
			miB--
		}
		i := IntelDevice(Accel{ID: "b", Name: "Intel Boundary", MemoryMiB: miB}, VariantComplete)
		i.Name, i.Accel, i.Variant = "boundary-intel-"+name, nil, VariantBoundary
		f = append(f, i)
	}
	return f
}

// Replicate returns n copies of every device (names suffixed -0 … -(n-1)),
// so a claim for n devices of one product can be allocated.
func (f Fleet) Replicate(n int) Fleet {
	if n <= 1 {
		return f
	}
	out := make(Fleet, 0, len(f)*n)
	for _, d := range f {
		for i := range n {
			c := d
			c.Name = fmt.Sprintf("%s-%d", d.Name, i)
			out = append(out, c)
		}
	}
	return out
}

// Without returns the devices of f for which drop is false.
func (f Fleet) Without(drop func(FakeDevice) bool) Fleet {
	var out Fleet
	for _, d := range f {
		if !drop(d) {
			out = append(out, d)
		}
	}
	return out
}
