package cluster

import "math/big"

// Slice is one ResourceSlice, reduced to what matching and placement need.
type Slice struct {
	Name       string // metadata.name
	APIVersion string
	Driver     string
	Pool       string
	Generation int64
	SliceCount int64  // spec.pool.resourceSliceCount
	Node       string // where its devices are: see Placement
	// Selector is the slice's nodeSelector, when it has one (Node is then "nodes matching …").
	Selector *NodeSelector
	Devices  []Device
	// CounterSets are the shared counters the slice publishes for its pool (sharedCounters,
	// KEP-4815; in v1 a slice of its own beside the pool's device slices).
	CounterSets []CounterSet
}

// CounterSet is one named set of shared counters: a partitionable GPU's memory and
// multiprocessors, which its whole-GPU device and its partitions draw on.
type CounterSet struct {
	Name     string
	Counters map[string]Quantity
}

// CounterUse is what a device draws from one counter set of its pool when allocated.
type CounterUse struct {
	CounterSet string
	Counters   map[string]Quantity
}

// Device is one device of a slice. Attributes and capacities are keyed as the slice spells
// them: qualified ("gpu.nvidia.com/productName") or not ("productName", in the driver's domain).
type Device struct {
	Name string
	Node string // the slice's placement, or the device's own with perDeviceNodeSelection
	// Selector is the node selector behind Node when it is "nodes matching …".
	Selector   *NodeSelector
	Attributes map[string]Attribute
	Capacity   map[string]Quantity
	Taints     []Taint
	// ConsumesCounters: the device draws on a shared counter set (a partitionable device,
	// KEP-4815); Consumes says what it draws (see counters.go).
	ConsumesCounters bool
	Consumes         []CounterUse
	// AllowMultipleAllocations: several claims can share the device, each taking a share of its
	// capacity (KEP-5075 consumable capacity). Defaults are its capacities' requestPolicy.default:
	// what a share of a claim that asks for no capacity takes (without one, the whole capacity).
	AllowMultipleAllocations bool
	Defaults                 map[string]Quantity
	// Policies are its capacities' requestPolicy (those that have one): how a claim's capacity
	// request is rounded up, and the most it may ask.
	Policies map[string]RequestPolicy
}

// RequestPolicy is a capacity's requestPolicy as it bounds a capacity request (KEP-5075): a
// validRange (Min; Max and Step nil when not set) or validValues (ascending); Set when the
// capacity has a requestPolicy at all (with only a default, a request takes what it asks).
type RequestPolicy struct {
	Set            bool
	Min, Max, Step *big.Rat
	Values         []*big.Rat
}

// Attribute kinds, as the API spells the one field a DeviceAttribute sets.
const (
	KindInt     = "int"
	KindBool    = "bool"
	KindString  = "string"
	KindVersion = "version"
)

// Attribute is a device attribute: exactly one of int, bool, string or version.
type Attribute struct {
	Kind string
	Int  int64
	Bool bool
	Text string // string and version values
}

// Taint is a device taint. Effects NoSchedule and NoExecute keep the scheduler from allocating
// the device to a claim that does not tolerate them (fitclaim's claims tolerate none); None is
// informational.
type Taint struct {
	Key, Value, Effect string
	Rule               string // the DeviceTaintRule that puts it on the device; "" for the slice's own
}

// Blocks reports whether the taint prevents allocation.
func (t Taint) Blocks() bool { return t.Effect == "NoSchedule" || t.Effect == "NoExecute" }

func (t Taint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	if t.Rule != "" {
		return s + " (" + t.Effect + ", DeviceTaintRule " + clip(t.Rule) + ")"
	}
	return s + " (" + t.Effect + ")"
}

// Placement words for devices that are not on one named node.
const (
	AllNodes         = "all nodes"
	nodeSelectorWord = "nodes matching "
)

// lookup finds a device's attribute or capacity in a domain as DRA's CEL environment does:
// "domain/id", or the bare "id" when the domain is the device's driver.
func lookup[V any](m map[string]V, driver, domain, id string) (V, bool) {
	if v, ok := m[domain+"/"+id]; ok {
		return v, true
	}
	if domain == driver {
		v, ok := m[id]
		return v, ok
	}
	var zero V
	return zero, false
}
