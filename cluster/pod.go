package cluster

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Pod is what of the workload's pod decides which nodes it can be scheduled to: its
// nodeSelector, its required node affinity and its tolerations (the scheduler's NodeAffinity,
// TaintToleration and NodeUnschedulable filters). The DRA allocator runs only on the nodes these
// filters pass, so a device on another node is no use to the pod's claim.
type Pod struct {
	// Source names the object the pod spec came from (`Deployment "qwen3"`, `the pod spec`).
	Source string
	// Path is where the pod spec is in it ("spec.template.spec"; "" for a bare pod spec).
	Path         string
	NodeSelector map[string]string
	// Affinity is spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution (nil: none).
	Affinity    *NodeSelector
	Tolerations []Toleration
	// Unweighed names the fields read but not weighed (preferred affinity, pod affinity,
	// topology spread): the inputs cannot say what they would do.
	Unweighed []string
}

// Toleration is one of the pod's tolerations as core/v1 spells it (Operator "" is Equal).
type Toleration struct {
	Key, Operator, Value, Effect string
}

// tolerates is core/v1 Toleration.ToleratesTaint (k8s.io/api v0.37.2) with the alpha
// comparison operators off (ParsePod refuses them): an empty effect matches every effect, an
// empty key (with Exists) every key, Exists every value, Equal the same value.
func (t Toleration) tolerates(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", tolEqual:
		return t.Value == taint.Value
	case tolExists:
		return true
	}
	return false
}

// The toleration operators the API server takes with its default gates (Gt and Lt need the
// alpha gate TaintTolerationComparisonOperators).
const (
	tolEqual  = "Equal"
	tolExists = "Exists"
)

// unschedulableTaint is the taint the scheduler's NodeUnschedulable filter asks a pod to
// tolerate on a cordoned node (core/v1 TaintNodeUnschedulable, effect NoSchedule).
var unschedulableTaint = Taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}

// tolerated reports whether one of the pod's tolerations tolerates the taint.
func (p *Pod) tolerated(taint Taint) bool {
	for _, t := range p.Tolerations {
		if t.tolerates(taint) {
			return true
		}
	}
	return false
}

// Excludes says why the scheduler does not put the pod on the node, every reason (nil when it
// can): a cordon it does not tolerate (NodeUnschedulable), a NoSchedule or NoExecute taint it
// does not tolerate (TaintToleration), a nodeSelector label the node lacks and a required node
// affinity that does not select it (NodeAffinity: k8s' nodeaffinity.RequiredNodeAffinity).
func (p *Pod) Excludes(n *Node) []string {
	var why []string
	if n.Unschedulable && !p.tolerated(unschedulableTaint) {
		why = append(why, "cordoned (spec.unschedulable), and the pod does not tolerate node.kubernetes.io/unschedulable (NoSchedule)")
	}
	for _, t := range n.Taints {
		if t.Blocks() && !p.tolerated(t) {
			why = append(why, "tainted "+t.String()+", which the pod does not tolerate")
		}
	}
	for _, k := range sortedLabels(p.NodeSelector) {
		want := p.NodeSelector[k]
		if have, ok := n.Labels[k]; !ok {
			why = append(why, "no label "+k+" (the pod's nodeSelector wants "+k+"="+want+")")
		} else if have != want {
			why = append(why, "label "+k+"="+have+" (the pod's nodeSelector wants "+k+"="+want+")")
		}
	}
	if p.Affinity != nil && !p.Affinity.Matches(n) {
		why = append(why, "the pod's required node affinity does not select it ("+clipAt(p.Affinity.String(), maxAffinityText)+")")
	}
	return why
}

// maxAffinityText bounds the pod's affinity as a reason quotes it (for each node it keeps
// the pod off): whole for any a person writes, not a pasted megabyte.
const maxAffinityText = 300

func sortedLabels(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// PodKinds are the kinds whose pod spec ParsePod reads, and where it is (any other kind with a
// spec.template.spec is read there too, as a workload's pod template).
var PodKinds = []struct{ Kind, Path string }{
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
func ParsePod(data []byte) (*Pod, error) {
	p := podParser{}
	if err := eachDocument(data, "pod", "fitclaim deploy, or of kubectl get deployment NAME -o yaml", p.top); err != nil {
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
	for _, k := range PodKinds {
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

// podNotes say what of the pod the verdict does not weigh.
func podNotes(pod *Pod, r *reachability) []string {
	if pod == nil {
		return nil
	}
	var n []string
	if r == nil {
		n = append(n, "the pod's nodeSelector, required node affinity and tolerations are weighed against the cluster's nodes, which are not given (kubectl get nodes -o yaml)")
	}
	for _, f := range pod.Unweighed {
		switch f {
		case "nodeName":
			n = append(n, "the pod sets spec.nodeName, which bypasses the scheduler: nothing then allocates its claim (the kubelet waits for it); select the node with a nodeSelector on kubernetes.io/hostname instead")
		case "affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution":
			n = append(n, "the pod's preferred node affinity is not weighed: it only ranks the nodes it can be scheduled to")
		default:
			n = append(n, "the pod's "+f+" is not weighed: it depends on the pods already running, which the inputs do not give")
		}
	}
	return n
}
