package cluster

import (
	"slices"
	"strconv"
	"strings"
)

// A DeviceTaintRule (resource.k8s.io, DRADeviceTaintRules: GA and on by default since
// Kubernetes 1.37) taints devices without touching their ResourceSlices: the scheduler's
// slice tracker adds its taint to every device its selector picks before the allocator sees
// them (k8s.io/dynamic-resource-allocation resourceslice/tracker applyPatches). `kubectl get
// resourceslices` does not show those taints, so rules are read beside the slices, in the same
// paste: `kubectl get resourceslices,devicetaintrules -o yaml` prints one List of both kinds.

// TaintRule is one DeviceTaintRule: its taint, on the devices its selector picks (a field left
// out picks every driver, pool or device name; a rule without a selector picks none).
type TaintRule struct {
	Name                 string
	HasSelector          bool
	Driver, Pool, Device string // "" when the selector leaves the field out
	Taint                Taint
}

// picks reports whether the rule taints the device of the slice, as applyPatches decides it.
func (r *TaintRule) picks(s *Slice, device string) bool {
	return r.HasSelector && (r.Driver == "" || r.Driver == s.Driver) && (r.Pool == "" || r.Pool == s.Pool) &&
		(r.Device == "" || r.Device == device)
}

// taintRuleVersions are the apiVersions a DeviceTaintRule is read in: the selector is the same.
var taintRuleVersions = []string{"resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"}

// taintRule reads one DeviceTaintRule.
func (p *parser) taintRule(where string, m map[string]any) error {
	o := &object{name: where}
	if meta, ok := m["metadata"].(map[string]any); ok {
		if name, ok := meta["name"].(string); ok && name != "" {
			o.name = "DeviceTaintRule " + strconv.Quote(clip(name))
			if where != "the input" && !strings.HasPrefix(where, "document") {
				o.name += " (" + where + ")"
			}
		}
	}
	var r TaintRule
	if v, _ := m["apiVersion"].(string); !slices.Contains(taintRuleVersions, v) {
		return o.err("apiVersion", strconv.Quote(clip(v))+"; want resource.k8s.io/v1 (or v1beta2, v1alpha3)")
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		r.Name, _ = meta["name"].(string)
	}
	if r.Name == "" {
		return metaMissing(o, m, "name", "missing")
	}
	spec, err := mapping(o, "spec", m["spec"])
	if err != nil {
		return err
	}
	if sel := spec["deviceSelector"]; sel != nil {
		sm, err := mapping(o, "spec.deviceSelector", sel)
		if err != nil {
			return err
		}
		r.HasSelector = true
		for _, k := range sortedKeys(sm) {
			if k != "driver" && k != "pool" && k != "device" {
				// v1alpha3 (Kubernetes 1.33, 1.34) also selected by deviceClassName and CEL
				// selectors, which later versions dropped: such a rule is not read, rather than
				// applied to more devices than it picks.
				return o.err("spec.deviceSelector."+k, "not read: a rule selects by driver, pool and device (resource.k8s.io/v1); give the devices' driver, pool or name")
			}
		}
		for _, f := range []struct {
			name string
			to   *string
		}{{"driver", &r.Driver}, {"pool", &r.Pool}, {"device", &r.Device}} {
			if sm[f.name] == nil {
				continue
			}
			if *f.to, err = text(o, "spec.deviceSelector."+f.name, sm[f.name]); err != nil {
				return err
			}
		}
	}
	ts, err := taints(o, "spec", []any{spec["taint"]}, deviceTaintEffects)
	if err != nil {
		if e, ok := err.(*Error); ok { // the rule's one taint, not a list
			e.Field = "spec.taint" + strings.TrimPrefix(e.Field, "spec[0]")
		}
		return err
	}
	r.Taint = ts[0]
	r.Taint.Rule = r.Name
	p.rules = append(p.rules, r)
	return nil
}

// applyTaintRules adds each rule's taint to the devices it picks, as the scheduler's slice
// tracker does before the allocator reads them.
func applyTaintRules(slices []Slice, rules []TaintRule) {
	for i := range rules {
		r := &rules[i]
		for si := range slices {
			s := &slices[si]
			for di := range s.Devices {
				if r.picks(s, s.Devices[di].Name) {
					d := &s.Devices[di]
					d.Taints = append(d.Taints[:len(d.Taints):len(d.Taints)], r.Taint)
				}
			}
		}
	}
}
