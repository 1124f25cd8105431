package cluster

import (
	"maps"
	"slices"
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
