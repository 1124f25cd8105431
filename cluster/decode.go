package cluster

import (
	"encoding/json"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// versions are the apiVersions read, and whether their devices keep their fields under `basic`.
var versions = map[string]bool{
	"resource.k8s.io/v1":      false,
	"resource.k8s.io/v1beta2": false,
	"resource.k8s.io/v1beta1": true, // devices[].basic.{attributes,capacity,taints,…}
}

// object is one ResourceSlice being read, for messages that name it.
type object struct {
	name  string
	input string // Error.Input: "" for a slice, "claims" for a claim
}

func (o *object) err(field, msg string) error {
	return &Error{Input: o.input, Object: o.name, Field: field, Msg: msg}
}

// slice reads one ResourceSlice.
func (p *parser) slice(where string, v any) error {
	o := &object{name: where}
	m, ok := v.(map[string]any)
	if !ok {
		return o.err("", "is a "+typeName(v)+"; want a ResourceSlice")
	}
	if m["kind"] == "DeviceTaintRule" { // in a List beside the slices: kubectl get resourceslices,devicetaintrules
		return p.taintRule(where, m)
	}
	p.objects++
	if meta, ok := m["metadata"].(map[string]any); ok {
		if name, ok := meta["name"].(string); ok && name != "" {
			o.name = "ResourceSlice " + strconv.Quote(clip(name))
			if where != "the input" && !strings.HasPrefix(where, "document") {
				o.name += " (" + where + ")"
			}
		}
	}
	s := Slice{Name: o.name}
	kind, _ := m["kind"].(string)
	if kind != "ResourceSlice" {
		if kind == "" {
			return o.err("kind", "missing; want ResourceSlice")
		}
		return o.err("kind", strconv.Quote(clip(kind))+"; want ResourceSlice")
	}
	s.APIVersion, _ = m["apiVersion"].(string)
	basic, known := versions[s.APIVersion]
	if !known {
		return o.err("apiVersion", strconv.Quote(clip(s.APIVersion))+"; want resource.k8s.io/v1 (or v1beta2, v1beta1)")
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		s.Name, _ = meta["name"].(string)
	}
	if s.Name == "" {
		return metaMissing(o, m, "name", "missing")
	}
	spec, err := mapping(o, "spec", m["spec"])
	if err != nil {
		return err
	}
	if s.Driver, err = text(o, "spec.driver", spec["driver"]); err != nil {
		return err
	}
	pool, err := mapping(o, "spec.pool", spec["pool"])
	if err != nil {
		return err
	}
	if s.Pool, err = text(o, "spec.pool.name", pool["name"]); err != nil {
		return err
	}
	if s.Generation, err = integer(o, "spec.pool.generation", pool["generation"], 0); err != nil {
		return err
	}
	if s.SliceCount, err = integer(o, "spec.pool.resourceSliceCount", pool["resourceSliceCount"], 1); err != nil {
		return err
	}
	perDevice := false
	if s.Node, s.Selector, perDevice, err = placement(o, "spec", spec); err != nil {
		return err
	}
	if s.CounterSets, err = counterSets(o, "spec.sharedCounters", spec["sharedCounters"]); err != nil {
		return err
	}
	if s.Node == "" && !perDevice && len(s.CounterSets) == 0 {
		return o.err("spec", "names no node: one of nodeName, nodeSelector, allNodes or perDeviceNodeSelection is required")
	}
	devs, ok := spec["devices"].([]any)
	if !ok && spec["devices"] != nil {
		return o.err("spec.devices", "is a "+typeName(spec["devices"])+"; want a list")
	}
	for i, dv := range devs {
		if p.devices++; p.devices > p.maxDevices {
			return o.err("spec.devices", "more than "+strconv.Itoa(p.maxDevices)+" devices in the input")
		}
		d, err := device(o, "spec.devices["+strconv.Itoa(i)+"]", dv, basic, perDevice)
		if err != nil {
			return err
		}
		if d.Node == "" {
			d.Node, d.Selector = s.Node, s.Selector
		}
		s.Devices = append(s.Devices, d)
	}
	p.slices = append(p.slices, s)
	return nil
}

// placement reads where a slice's (or, with perDeviceNodeSelection, a device's) devices are:
// exactly one of nodeName, nodeSelector, allNodes (and perDeviceNodeSelection for a slice).
// node is the node's name, AllNodes, or "nodes matching …" with the selector read.
func placement(o *object, path string, m map[string]any) (node string, sel *NodeSelector, perDevice bool, err error) {
	set := 0
	if v, ok := m["nodeName"]; ok && v != nil {
		if node, err = text(o, path+".nodeName", v); err != nil {
			return "", nil, false, err
		}
		set++
	}
	if v, ok := m["allNodes"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return "", nil, false, o.err(path+".allNodes", "is a "+typeName(v)+"; want true")
		}
		if b {
			node = AllNodes
			set++
		}
	}
	if v, ok := m["nodeSelector"]; ok && v != nil {
		if sel, err = nodeSelector(o, path+".nodeSelector", v); err != nil {
			return "", nil, false, err
		}
		node = nodeSelectorWord + sel.Text()
		set++
	}
	if v, ok := m["perDeviceNodeSelection"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return "", nil, false, o.err(path+".perDeviceNodeSelection", "is a "+typeName(v)+"; want true")
		}
		if b {
			perDevice = true
			set++
		}
	}
	if set > 1 {
		return "", nil, false, o.err(path, "sets more than one of nodeName, nodeSelector, allNodes and perDeviceNodeSelection")
	}
	return node, sel, perDevice, nil
}

// device reads one device: flat (v1, v1beta2) or under `basic` (v1beta1).
func device(o *object, path string, v any, basic, perDevice bool) (Device, error) {
	m, err := mapping(o, path, v)
	if err != nil {
		return Device{}, err
	}
	var d Device
	if d.Name, err = text(o, path+".name", m["name"]); err != nil {
		return Device{}, err
	}
	path = path + " (" + strconv.Quote(clip(d.Name)) + ")"
	fields := m
	fpath := path
	if basic {
		if m["basic"] == nil {
			return Device{}, o.err(path+".basic", "missing (resource.k8s.io/v1beta1 devices keep their fields under basic)")
		}
		if fields, err = mapping(o, path+".basic", m["basic"]); err != nil {
			return Device{}, err
		}
		fpath = path + ".basic"
	}
	if perDevice {
		if d.Node, d.Selector, _, err = placement(o, fpath, fields); err != nil {
			return Device{}, err
		}
		if d.Node == "" {
			return Device{}, o.err(fpath, "names no node: with perDeviceNodeSelection each device sets nodeName, nodeSelector or allNodes")
		}
	}
	if d.Attributes, err = named(o, fpath+".attributes", fields["attributes"], attribute); err != nil {
		return Device{}, err
	}
	if d.Capacity, err = named(o, fpath+".capacity", fields["capacity"], capacity); err != nil {
		return Device{}, err
	}
	if d.Taints, err = taints(o, fpath+".taints", fields["taints"], deviceTaintEffects); err != nil {
		return Device{}, err
	}
	if d.Consumes, err = counterUses(o, fpath+".consumesCounters", fields["consumesCounters"]); err != nil {
		return Device{}, err
	}
	d.ConsumesCounters = len(d.Consumes) > 0
	if v := fields["allowMultipleAllocations"]; v != nil {
		b, ok := v.(bool)
		if !ok {
			return Device{}, o.err(fpath+".allowMultipleAllocations", "is a "+typeName(v)+"; want true or false")
		}
		d.AllowMultipleAllocations = b
	}
	if d.Defaults, err = named(o, fpath+".capacity", fields["capacity"], capacityDefault); err != nil {
		return Device{}, err
	}
	for name, q := range d.Defaults {
		if q.value == nil { // no requestPolicy.default: a share takes the whole capacity
			delete(d.Defaults, name)
		}
	}
	if d.Policies, err = named(o, fpath+".capacity", fields["capacity"], capacityPolicy); err != nil {
		return Device{}, err
	}
	for name, p := range d.Policies {
		if !p.Set { // no requestPolicy: a capacity request takes what it asks
			delete(d.Policies, name)
		}
	}
	return d, nil
}

// named decodes a map of named entries (a device's attributes or capacity) in name order, each
// by one at its own path.
func named[T any](o *object, path string, v any, one func(o *object, at string, v any) (T, error)) (map[string]T, error) {
	if v == nil {
		return nil, nil
	}
	m, err := mapping(o, path, v)
	if err != nil {
		return nil, err
	}
	out := make(map[string]T, len(m))
	for _, name := range sortedKeys(m) {
		x, err := one(o, path+"."+name, m[name])
		if err != nil {
			return nil, err
		}
		out[name] = x
	}
	return out, nil
}

// attribute decodes one device attribute: exactly one of int, bool, string, version.
func attribute(o *object, at string, v any) (Attribute, error) {
	am, err := mapping(o, at, v)
	if err != nil {
		return Attribute{}, err
	}
	var a Attribute
	set := 0
	for _, k := range sortedKeys(am) {
		val := am[k]
		switch k {
		case KindInt:
			if a.Int, err = integer(o, at+".int", val, -1<<63); err != nil {
				return Attribute{}, err
			}
		case KindBool:
			b, ok := val.(bool)
			if !ok {
				return Attribute{}, o.err(at+".bool", "is a "+typeName(val)+"; want true or false")
			}
			a.Bool = b
		case KindString: // may be empty: AMD's partitionProfile is "" on unpartitioned GPUs
			str, ok := val.(string)
			if !ok {
				return Attribute{}, o.err(at+".string", "is a "+typeName(val)+"; want a string")
			}
			a.Text = str
		case KindVersion:
			if a.Text, err = text(o, at+".version", val); err != nil {
				return Attribute{}, err
			}
		default:
			return Attribute{}, o.err(at, "unknown value type "+strconv.Quote(clip(k))+"; want one of int, bool, string, version")
		}
		a.Kind = k
		set++
	}
	if set != 1 {
		return Attribute{}, o.err(at, "sets "+strconv.Itoa(set)+" of int, bool, string, version; want exactly one")
	}
	return a, nil
}

// capacity decodes one device capacity: {value: QUANTITY}.
func capacity(o *object, at string, v any) (Quantity, error) {
	cm, err := mapping(o, at, v)
	if err != nil {
		return Quantity{}, o.err(at, "is a "+typeName(v)+"; want {value: QUANTITY}")
	}
	val, ok := cm["value"]
	if !ok {
		return Quantity{}, o.err(at+".value", "missing")
	}
	return quantity(o, at+".value", val)
}

// quantity reads a quantity written as a string ("80Gi") or a number.
func quantity(o *object, at string, val any) (Quantity, error) {
	var s string
	switch x := val.(type) {
	case string:
		s = x
	case json.Number:
		s = x.String()
	default:
		return Quantity{}, o.err(at, "is a "+typeName(val)+"; want a quantity such as 80Gi")
	}
	q, ok := ParseQuantity(s)
	if !ok {
		return Quantity{}, o.err(at, strconv.Quote(clip(s))+" is not a Kubernetes quantity (such as 81559Mi, 80Gi or 85899345920)")
	}
	return q, nil
}

// capacityDefault reads a capacity's requestPolicy.default (KEP-5075), the zero Quantity when it
// has none. The policy's validValues and validRange bound what a claim may ask; a claim that asks
// for nothing takes the default, which the API requires to be valid, so they are not read.
func capacityDefault(o *object, at string, v any) (Quantity, error) {
	cm, _ := v.(map[string]any) // capacity() has checked the mapping
	if cm["requestPolicy"] == nil {
		return Quantity{}, nil
	}
	pm, err := mapping(o, at+".requestPolicy", cm["requestPolicy"])
	if err != nil {
		return Quantity{}, err
	}
	if pm["default"] == nil {
		return Quantity{}, nil
	}
	return quantity(o, at+".requestPolicy.default", pm["default"])
}

// capacityPolicy reads a capacity's requestPolicy beyond its default (KEP-5075): validRange
// (min, max, step) or validValues, which round up what a claim's capacity request asks (and
// refuse it above them). The API requires validRange's min; its checks of the rest (ascending
// values, a default within them) are the API server's.
func capacityPolicy(o *object, at string, v any) (RequestPolicy, error) {
	cm, _ := v.(map[string]any) // capacity() has checked the mapping
	if cm["requestPolicy"] == nil {
		return RequestPolicy{}, nil
	}
	at += ".requestPolicy"
	pm, err := mapping(o, at, cm["requestPolicy"]) // capacityDefault has checked it
	if err != nil {
		return RequestPolicy{}, err
	}
	p := RequestPolicy{Set: true}
	if r := pm["validRange"]; r != nil {
		rm, err := mapping(o, at+".validRange", r)
		if err != nil {
			return RequestPolicy{}, err
		}
		for _, b := range []struct {
			name string
			to   **big.Rat
		}{{"min", &p.Min}, {"max", &p.Max}, {"step", &p.Step}} {
			if rm[b.name] == nil {
				continue
			}
			q, err := quantity(o, at+".validRange."+b.name, rm[b.name])
			if err != nil {
				return RequestPolicy{}, err
			}
			*b.to = q.value
		}
		if p.Min == nil {
			return RequestPolicy{}, o.err(at+".validRange.min", "missing: a validRange needs its min")
		}
		if p.Step != nil && p.Step.Sign() <= 0 {
			return RequestPolicy{}, o.err(at+".validRange.step", counterText(p.Step)+" is not positive")
		}
	}
	if vv := pm["validValues"]; vv != nil {
		list, ok := vv.([]any)
		if !ok {
			return RequestPolicy{}, o.err(at+".validValues", "is a "+typeName(vv)+"; want a list of quantities")
		}
		for i, x := range list {
			q, err := quantity(o, at+".validValues["+strconv.Itoa(i)+"]", x)
			if err != nil {
				return RequestPolicy{}, err
			}
			p.Values = append(p.Values, q.value)
		}
	}
	return p, nil
}

// The effects a taint may have, as the API validates them: a device's (resource.k8s.io
// DeviceTaint) and a node's (core/v1 Taint).
var (
	deviceTaintEffects = []string{"NoSchedule", "NoExecute", "None"}
	nodeTaintEffects   = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}
)

// taints reads a device's or a node's taints: [{key, value (optional, may be empty), effect}],
// each effect one of effects.
func taints(o *object, path string, v any, effects []string) ([]Taint, error) {
	return mappings(o, path, v, func(at string, m map[string]any) (t Taint, err error) {
		if t.Key, err = text(o, at+".key", m["key"]); err != nil {
			return t, err
		}
		if v := m["value"]; v != nil {
			s, ok := v.(string)
			if !ok {
				return t, o.err(at+".value", "is a "+typeName(v)+"; want a string")
			}
			t.Value = s
		}
		if t.Effect, err = text(o, at+".effect", m["effect"]); err != nil {
			return t, err
		}
		if !slices.Contains(effects, t.Effect) {
			last := len(effects) - 1
			return t, o.err(at+".effect", strconv.Quote(clip(t.Effect))+"; want "+strings.Join(effects[:last], ", ")+" or "+effects[last])
		}
		return t, nil
	})
}

// mappings reads an optional list of mappings (absent: none), each by read, which is given the
// item's path (path[i]) for its errors.
func mappings[T any](o *object, path string, v any, read func(at string, m map[string]any) (T, error)) ([]T, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, o.err(path, "is a "+typeName(v)+"; want a list")
	}
	var out []T
	for i, item := range list {
		at := path + "[" + strconv.Itoa(i) + "]"
		m, err := mapping(o, at, item)
		if err != nil {
			return nil, err
		}
		x, err := read(at, m)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// metaMissing says what is wrong with an object's metadata.<field> where reading it as a string
// found none: metadata not a mapping, the field not a string, or (missing, in which case missing
// is the message) absent or empty.
func metaMissing(o *object, m map[string]any, field, missing string) error {
	meta, ok := m["metadata"].(map[string]any)
	if !ok && m["metadata"] != nil {
		return o.err("metadata", "is a "+typeName(m["metadata"])+"; want a mapping")
	}
	if v := meta[field]; v != nil {
		if _, ok := v.(string); !ok {
			return o.err("metadata."+field, "is a "+typeName(v)+"; want a string")
		}
	}
	return o.err("metadata."+field, missing)
}

// mapping, text and integer read one field, or say what is wrong with it.

func mapping(o *object, path string, v any) (map[string]any, error) {
	if v == nil {
		return nil, o.err(path, "missing")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, o.err(path, "is a "+typeName(v)+"; want a mapping")
	}
	return m, nil
}

func text(o *object, path string, v any) (string, error) {
	if v == nil {
		return "", o.err(path, "missing")
	}
	s, ok := v.(string)
	if !ok {
		return "", o.err(path, "is a "+typeName(v)+"; want a string")
	}
	if s == "" {
		return "", o.err(path, "empty")
	}
	return s, nil
}

func integer(o *object, path string, v any, min int64) (int64, error) {
	if v == nil {
		return 0, o.err(path, "missing")
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, o.err(path, "is a "+typeName(v)+"; want a whole number")
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		return 0, o.err(path, strconv.Quote(clip(n.String()))+" is not a whole number in the int64 range")
	}
	if i < min {
		return 0, o.err(path, strconv.FormatInt(i, 10)+"; want at least "+strconv.FormatInt(min, 10))
	}
	return i, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
