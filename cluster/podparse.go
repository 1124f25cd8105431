package cluster

import (
	"slices"
	"strconv"
	"strings"
)

// podKinds are the kinds whose pod spec ParsePod reads, and where it is (any other kind with a
// spec.template.spec is read there too, as a workload's pod template).
var podKinds = []struct{ Kind, Path string }{
	{"Pod", "spec"},
	{"PodTemplate", "template.spec"},
	{"Deployment", "spec.template.spec"},
	{"StatefulSet", "spec.template.spec"},
	{"DaemonSet", "spec.template.spec"},
	{"ReplicaSet", "spec.template.spec"},
	{"Job", "spec.template.spec"},
	{"CronJob", "spec.jobTemplate.spec.template.spec"},
}

// podWant says what the pod input takes, for its errors.
const podWant = "paste the workload: a Deployment (fitclaim deploy's, or kubectl get deployment NAME -o yaml), a StatefulSet, Job, Pod or a bare pod spec"

// ParsePod reads the workload whose pod the claim is for: a Deployment (or StatefulSet,
// DaemonSet, ReplicaSet, Job, CronJob, PodTemplate, Pod, or any object with a
// spec.template.spec), alone, in a List or among other `---` documents (fitclaim deploy's
// output: its ResourceClaimTemplate and Service are skipped), or a bare pod spec (a mapping
// with neither kind nor apiVersion). Exactly one pod spec must be there. What it reads is
// checked as the API server validates it. Errors are *Error with Input "pod".
func ParsePod(data []byte) (*Pod, error) { return parsePodWithin(data, smallLimits) }

func parsePodWithin(data []byte, lim limits) (*Pod, error) {
	p := podParser{}
	if err := eachDocument(data, lim, "pod", "fitclaim deploy, or of kubectl get deployment NAME -o yaml", p.top); err != nil {
		return nil, err
	}
	if p.pod == nil {
		msg := "no pod spec in the input"
		if p.skipped != "" {
			msg += " (it has " + p.skipped + ")"
		}
		return nil, &Error{Input: "pod", Msg: msg + ": " + podWant}
	}
	return p.pod, nil
}

// podSpecKeys are the keys that make a mapping without kind a pod spec: a pod spec's
// containers, or what the check reads of it.
var podSpecKeys = []string{"containers", "nodeSelector", "affinity", "tolerations"}

type podParser struct {
	pod     *Pod
	skipped string // the first kind read that holds no pod spec, said when none is found
}

// top reads a document: a List of objects, one object, or a bare pod spec.
func (p *podParser) top(where string, v any) error {
	if where == "" {
		where = "the input"
	}
	o := &object{name: where, input: "pod"}
	m, ok := v.(map[string]any)
	if !ok {
		return o.err("", "is a "+typeName(v)+"; want a mapping: "+podWant)
	}
	if m["kind"] == nil && m["apiVersion"] == nil {
		if !slices.ContainsFunc(podSpecKeys, func(k string) bool { return m[k] != nil }) {
			return o.err("", "neither a Kubernetes object (no kind) nor a pod spec (none of "+strings.Join(podSpecKeys, ", ")+"): "+podWant)
		}
		return p.found(o, "", m)
	}
	if k, _ := m["kind"].(string); strings.HasSuffix(k, "List") {
		items, ok := m["items"].([]any)
		if !ok && m["items"] != nil {
			return o.err("items", "is a "+typeName(m["items"])+"; want a list")
		}
		for i, it := range items {
			if err := p.object("items["+strconv.Itoa(i)+"]", it); err != nil {
				return err
			}
		}
		return nil
	}
	return p.object(where, m)
}

// object reads one object: its pod spec if it has one, else it is skipped.
func (p *podParser) object(where string, v any) error {
	o := &object{name: where, input: "pod"}
	m, ok := v.(map[string]any)
	if !ok {
		return o.err("", "is a "+typeName(v)+"; want an object")
	}
	kind, ok := m["kind"].(string)
	if !ok || kind == "" {
		if m["kind"] != nil {
			return o.err("kind", "is a "+typeName(m["kind"])+"; want a string")
		}
		return o.err("kind", "missing; want Deployment, Pod or another workload kind (or give a bare pod spec, without kind and apiVersion)")
	}
	if meta, _ := m["metadata"].(map[string]any); meta != nil {
		if name, _ := meta["name"].(string); name != "" {
			o.name = kind + " " + strconv.Quote(clip(name))
		}
	}
	if o.name == where {
		o.name = kind + " (" + where + ")"
	}
	for _, k := range podKinds {
		if k.Kind == kind { // a workload kind: its pod spec must be there
			spec, err := walk(o, m, k.Path)
			if err != nil {
				return err
			}
			return p.found(o, k.Path, spec)
		}
	}
	if spec, err := walk(o, m, "spec.template.spec"); err == nil {
		return p.found(o, "spec.template.spec", spec) // another workload kind's pod template
	}
	if p.skipped == "" {
		p.skipped = "a " + clip(kind)
	}
	return nil // a Service, a ResourceClaimTemplate, a ConfigMap: no pod here
}

// walk follows a dotted path of mappings to the last step's value, or says which step is
// absent or not a mapping.
func walk(o *object, m map[string]any, path string) (any, error) {
	steps := strings.Split(path, ".")
	for i, step := range steps[:len(steps)-1] {
		var err error
		if m, err = mapping(o, strings.Join(steps[:i+1], "."), m[step]); err != nil {
			return nil, err
		}
	}
	last := steps[len(steps)-1]
	if m[last] == nil {
		return nil, o.err(path, "missing")
	}
	return m[last], nil
}

// found reads the pod spec at path in o, unless one was read already.
func (p *podParser) found(o *object, path string, v any) error {
	switch {
	case o.name == "the input":
		o.name = "the pod spec"
	case path == "":
		o.name = "the pod spec in " + o.name
	}
	if p.pod != nil {
		return o.err("", "a second pod spec, beside "+p.pod.Source+"'s; give one workload")
	}
	pod, err := podSpec(o, path, v)
	if err != nil {
		return err
	}
	p.pod = pod
	return nil
}

// podSpec reads a pod spec's nodeSelector, affinity and tolerations.
func podSpec(o *object, path string, v any) (*Pod, error) {
	field := func(f string) string {
		if path == "" {
			return f
		}
		return path + "." + f
	}
	spec, err := mapping(o, path, v)
	if err != nil {
		return nil, err
	}
	pod := &Pod{Source: o.name, Path: path}
	if sv := spec["nodeSelector"]; sv != nil {
		sel, err := mapping(o, field("nodeSelector"), sv)
		if err != nil {
			return nil, err
		}
		pod.NodeSelector = map[string]string{}
		for _, k := range sortedKeys(sel) {
			s, ok := sel[k].(string)
			if !ok {
				hint := ""
				if _, isBool := sel[k].(bool); isBool {
					hint = " (quote it: \"true\")"
				}
				return nil, o.err(field("nodeSelector."+clip(k)), "is a "+typeName(sel[k])+"; want a string"+hint)
			}
			if !isLabelKey(k) { // the API server validates a nodeSelector as labels
				return nil, o.err(field("nodeSelector"), "key "+strconv.Quote(clip(k))+"; want "+labelKeyRule)
			}
			if !isLabelValue(s) {
				return nil, o.err(field("nodeSelector."+clip(k)), strconv.Quote(clip(s))+"; want "+labelValueRule)
			}
			pod.NodeSelector[k] = s
		}
	}
	if err := podAffinity(o, field("affinity"), spec["affinity"], pod); err != nil {
		return nil, err
	}
	if pod.Tolerations, err = tolerations(o, field("tolerations"), spec["tolerations"]); err != nil {
		return nil, err
	}
	if spec["topologySpreadConstraints"] != nil {
		pod.Unweighed = append(pod.Unweighed, "topologySpreadConstraints")
	}
	if name, ok := spec["nodeName"].(string); ok && name != "" {
		pod.Unweighed = append(pod.Unweighed, "nodeName")
	}
	return pod, nil
}

// podAffinity reads affinity.nodeAffinity's required terms (as a node selector, which the API
// server validates alike); preferred terms and pod (anti-)affinity are noted, not weighed.
func podAffinity(o *object, path string, v any, pod *Pod) error {
	if v == nil {
		return nil
	}
	aff, err := mapping(o, path, v)
	if err != nil {
		return err
	}
	for _, k := range []string{"podAffinity", "podAntiAffinity"} {
		if aff[k] != nil {
			pod.Unweighed = append(pod.Unweighed, "affinity."+k)
		}
	}
	if aff["nodeAffinity"] == nil {
		return nil
	}
	na, err := mapping(o, path+".nodeAffinity", aff["nodeAffinity"])
	if err != nil {
		return err
	}
	if na["preferredDuringSchedulingIgnoredDuringExecution"] != nil {
		pod.Unweighed = append(pod.Unweighed, "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution")
	}
	if req := na["requiredDuringSchedulingIgnoredDuringExecution"]; req != nil {
		pod.Affinity, err = nodeSelector(o, path+".nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", req)
	}
	return err
}

// tolerationEffects are the effects a toleration may name ("" is every effect).
var tolerationEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}

// tolerations reads the pod's tolerations as core validation's ValidateTolerations checks them:
// operator Equal (or empty) or Exists; a key that is a label key, and an empty one only with
// Exists; Equal's value a label value, Exists without a value; tolerationSeconds only with NoExecute.
func tolerations(o *object, path string, v any) ([]Toleration, error) {
	return mappings(o, path, v, func(at string, m map[string]any) (t Toleration, err error) {
		for _, f := range []struct {
			name string
			into *string
		}{{"key", &t.Key}, {"operator", &t.Operator}, {"value", &t.Value}, {"effect", &t.Effect}} {
			if x := m[f.name]; x != nil {
				s, ok := x.(string)
				if !ok {
					return t, o.err(at+"."+f.name, "is a "+typeName(x)+"; want a string")
				}
				*f.into = s
			}
		}
		switch t.Operator {
		case "", tolEqual, tolExists:
		case "Gt", "Lt":
			return t, o.err(at+".operator", strconv.Quote(t.Operator)+"; want Equal or Exists (Gt and Lt need the alpha feature gate TaintTolerationComparisonOperators, off by default)")
		default:
			return t, o.err(at+".operator", strconv.Quote(clip(t.Operator))+"; want Equal or Exists")
		}
		if t.Key != "" && !isLabelKey(t.Key) {
			return t, o.err(at+".key", strconv.Quote(clip(t.Key))+"; want "+labelKeyRule)
		}
		if t.Operator != tolExists && !isLabelValue(t.Value) {
			return t, o.err(at+".value", strconv.Quote(clip(t.Value))+"; want "+labelValueRule)
		}
		if t.Key == "" && t.Operator != tolExists {
			return t, o.err(at+".operator", "must be Exists when key is empty (a toleration of every taint)")
		}
		if t.Operator == tolExists && t.Value != "" {
			return t, o.err(at+".value", strconv.Quote(clip(t.Value))+"; want none with operator Exists")
		}
		if t.Effect != "" && !contains(tolerationEffects, t.Effect) {
			return t, o.err(at+".effect", strconv.Quote(clip(t.Effect))+"; want NoSchedule, PreferNoSchedule, NoExecute or none (every effect)")
		}
		if s := m["tolerationSeconds"]; s != nil {
			if _, err := integer(o, at+".tolerationSeconds", s, -1<<63); err != nil {
				return t, err
			}
			if t.Effect != "NoExecute" {
				return t, o.err(at+".tolerationSeconds", "set with effect "+strconv.Quote(t.Effect)+"; want effect NoExecute")
			}
		}
		return t, nil
	})
}
