package cluster

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// zones judges zones.yaml for an llmfit.ai claim of count devices of ≥ 40 Gi and 1,000 GB/s
// (every device there has 48Gi and 2,000 GB/s), with zones-nodes.yaml when withNodes.
func zones(t *testing.T, count int, withNodes bool) Report {
	t.Helper()
	in := Inputs{}
	var err error
	if in.Slices, err = os.ReadFile("testdata/zones.yaml"); err != nil {
		t.Fatal(err)
	}
	if withNodes {
		if in.Nodes, err = os.ReadFile("testdata/zones-nodes.yaml"); err != nil {
			t.Fatal(err)
		}
	}
	r, err := CheckInputs(bounds(t, fit.DriverLlmfit, 40, 1000, count), in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const (
	zoneA  = "nodes matching topology.kubernetes.io/zone In (a)"
	zoneC  = "nodes matching topology.kubernetes.io/zone In (c), example.com/gpu Exists"
	rack   = "nodes matching example.com/rack Gt (3), example.com/gpu Exists"
	byName = "nodes matching metadata.name In (gpu-c)"
)

func TestZonesWithoutNodes(t *testing.T) {
	// Today's model: each selector is a group of nodes of its own, with the all-nodes s0 beside
	// it. The most on one group is zone a's z0, z1 and s0: 3.
	r := zones(t, 4, false)
	sameRows(t, r, []string{
		zoneA + "/z0: model", zoneA + "/z1: model", zoneC + "/c0: model", "gpu-a/a0: model", "all nodes/s0: model",
		byName + "/p0: model", rack + "/p1: model", "gone-node/p2: model",
	})
	if r.Allocatable || r.Placement != "not allocatable: the claim needs 4 matching devices on one node; the most is 3 on "+zoneA {
		t.Errorf("placement %q", r.Placement)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "without the cluster's nodes") }) {
		t.Errorf("no note on the selectors taken as groups: %q", r.Notes)
	}
	if r.Devices[0].Nodes != nil {
		t.Errorf("z0 lists nodes %q without the nodes given", r.Devices[0].Nodes)
	}
}

func TestZonesOnNodes(t *testing.T) {
	// With the nodes, per node: gpu-a has a0 + zone a's z0, z1 + s0 = 4; gpu-b z0, z1, s0 and p1
	// (rack 5 > 3) = 4; gpu-c s0 and p0 (by name) = 2; cpu-d s0 = 1. c0's selector selects no
	// node (no zone c), p2's node is not in the cluster.
	r := zones(t, 4, true)
	sameRows(t, r, []string{
		zoneA + "/z0: model", zoneA + "/z1: model",
		zoneC + "/c0: no: on no node: its node selector selects none of the 4 nodes given",
		"gpu-a/a0: model", "all nodes/s0: model", byName + "/p0: model", rack + "/p1: model",
		"gone-node/p2: no: on no node: node gone-node is not among the 4 nodes given",
	})
	allocatedAs(t, r, "allocatable on node gpu-a: model gets a0, z0, z1, s0")
	for _, c := range []struct {
		device string
		nodes  []string
	}{{"z0", []string{"gpu-a", "gpu-b"}}, {"c0", nil}, {"a0", nil}, {"s0", nil}, {"p0", []string{"gpu-c"}}, {"p1", []string{"gpu-b"}}} {
		i := slices.IndexFunc(r.Devices, func(d DeviceResult) bool { return d.Device == c.device })
		if got := r.Devices[i].Nodes; !slices.Equal(got, c.nodes) {
			t.Errorf("%s: nodes %q, want %q", c.device, got, c.nodes)
		}
	}
	if !strings.Contains(r.JSON(), `"nodes": [`+"\n"+`        "gpu-a",`) {
		t.Errorf("the JSON lacks z0's nodes:\n%s", r.JSON())
	}
	// Five: no node reaches five; gpu-a (first by name) and gpu-b have four.
	r = zones(t, 5, true)
	if r.Allocatable || r.Placement != "not allocatable: the claim needs 5 matching devices on one node; the most is 4 on node gpu-a" {
		t.Errorf("placement %q", r.Placement)
	}
	if !slices.Contains(r.Notes, "placed on the 4 nodes given: their labels and names resolve the slices' node selectors; the pod's own node selector, affinity and tolerations are not weighed (give the workload: --pod, the pod part or box)") {
		t.Errorf("notes %q", r.Notes)
	}
}

func TestZonesOnKeptOffNodes(t *testing.T) {
	// gpu-a tainted NoSchedule, gpu-b cordoned: a pod that tolerates nothing goes to neither.
	// Four devices: gpu-a and gpu-b reach four, gpu-c two, cpu-d one. The placement tries the
	// nodes such a pod can use first, then gpu-a, whose four fit: allocatable there, said so.
	data, nodes := readTestdata(t, "zones.yaml"), string(readTestdata(t, "zones-nodes.yaml"))
	nodes = strings.Replace(nodes, "  spec: {podCIDR: 10.244.1.0/24}", "  spec:\n    podCIDR: 10.244.1.0/24\n    taints:\n    - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n    - {key: example.com/slow, effect: PreferNoSchedule}", 1)
	nodes = strings.Replace(nodes, "  spec: {podCIDR: 10.244.2.0/24}", "  spec: {podCIDR: 10.244.2.0/24, unschedulable: true}", 1)
	b := bounds(t, fit.DriverLlmfit, 40, 1000, 4)
	r, err := CheckInputs(b, Inputs{Slices: data, Nodes: []byte(nodes)})
	if err != nil {
		t.Fatal(err)
	}
	allocatedAs(t, r, "allocatable on node gpu-a: model gets a0, z0, z1, s0; the node is tainted nvidia.com/gpu=present (NoSchedule): only a pod that tolerates it is scheduled there (fitclaim deploy's pods tolerate nothing)")
	if !slices.Contains(r.Notes, "2 of the 4 nodes given are cordoned or tainted NoSchedule or NoExecute: the claim is placed on the others first, as a pod that tolerates nothing (fitclaim deploy's) is scheduled only there") {
		t.Errorf("notes %q", r.Notes)
	}
	// Two devices: gpu-c (schedulable) has two (s0, p0), and is tried before gpu-a.
	b.Target.Count = 2
	r, err = CheckInputs(b, Inputs{Slices: data, Nodes: []byte(nodes)})
	if err != nil {
		t.Fatal(err)
	}
	allocatedAs(t, r, "allocatable on node gpu-c: model gets s0, p0")
	// gpu-a only cordoned: said as such.
	cordoned := strings.Replace(string(readTestdata(t, "zones-nodes.yaml")), "  spec: {podCIDR: 10.244.1.0/24}", "  spec: {podCIDR: 10.244.1.0/24, unschedulable: true}", 1)
	b.Target.Count = 4
	r, err = CheckInputs(b, Inputs{Slices: data, Nodes: []byte(cordoned)})
	if err != nil {
		t.Fatal(err)
	}
	allocatedAs(t, r, "allocatable on node gpu-b: model gets z0, z1, s0, p1")
}

func TestNodeSelectorMatchesAsKubernetes(t *testing.T) {
	// labels.Requirement.Matches: NotIn and DoesNotExist hold without the label; Gt and Lt need
	// a whole-number label; terms are ORed, an empty term selects nothing; matchFields read the name.
	n := &Node{Name: "n1", Labels: map[string]string{"zone": "a", "gpus": "8", "odd": "x"}}
	req := func(key, op string, values ...string) NodeRequirement { return NodeRequirement{key, op, values} }
	for _, c := range []struct {
		sel  NodeSelector
		want bool
	}{
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("zone", "In", "a", "b")}}}}, true},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("zone", "NotIn", "a")}}}}, false},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("rack", "NotIn", "a")}}}}, true},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("rack", "DoesNotExist")}}}}, true},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("zone", "Exists"), req("gpus", "Gt", "7")}}}}, true},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("gpus", "Lt", "8")}}}}, false},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("odd", "Gt", "0")}}}}, false},
		{NodeSelector{[]NodeSelectorTerm{{}}}, false},
		{NodeSelector{[]NodeSelectorTerm{{}, {MatchFields: []NodeRequirement{req("metadata.name", "In", "n1")}}}}, true},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("zone", "In", "a")}, MatchFields: []NodeRequirement{req("metadata.name", "NotIn", "n1")}}}}, false},
		{NodeSelector{[]NodeSelectorTerm{{MatchExpressions: []NodeRequirement{req("zone", "In", "b")}}, {MatchExpressions: []NodeRequirement{req("gpus", "In", "8")}}}}, true},
	} {
		if got := c.sel.Matches(n); got != c.want {
			t.Errorf("%s: %v, want %v", c.sel.Text(), got, c.want)
		}
	}
}

func TestBadNodesAndSelectors(t *testing.T) {
	slices, err := os.ReadFile("testdata/zones.yaml")
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := os.ReadFile("testdata/zones-nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := bounds(t, fit.DriverLlmfit, 40, 1000, 1)
	sel := "{key: topology.kubernetes.io/zone, operator: In, values: [a]}"
	for _, c := range []struct{ name, slices, nodes, want string }{
		{"bad operator", strings.Replace(string(slices), sel, "{key: topology.kubernetes.io/zone, operator: Near, values: [a]}", 1), "",
			`slices: ResourceSlice "zone-a-llmfit.ai-k2j4d" (items[0]): spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator: "Near"; want In, NotIn, Exists, DoesNotExist, Gt or Lt`},
		{"In without values", strings.Replace(string(slices), sel, "{key: topology.kubernetes.io/zone, operator: In}", 1), "",
			`slices: ResourceSlice "zone-a-llmfit.ai-k2j4d" (items[0]): spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values: empty; want at least one value for In and NotIn`},
		{"Gt not a number", strings.Replace(string(slices), `values: ["3"]`, `values: ["three"]`, 1), "",
			`slices: ResourceSlice "per-device-llmfit.ai-h5g6f" (items[4]): spec.devices[1] ("p1").nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]: "three"; want a whole number for Gt and Lt`},
		{"Exists with values", strings.Replace(string(slices), "{key: example.com/gpu, operator: Exists}", "{key: example.com/gpu, operator: Exists, values: [x]}", 1), "",
			`slices: ResourceSlice "zone-c-llmfit.ai-p9q8r" (items[1]): spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[1].values: 1 values; want none for Exists and DoesNotExist`},
		{"field not the name", strings.Replace(string(slices), "{key: metadata.name, operator: In, values: [gpu-c]}", "{key: spec.unschedulable, operator: In, values: [gpu-c]}", 1), "",
			`slices: ResourceSlice "per-device-llmfit.ai-h5g6f" (items[4]): spec.devices[0] ("p0").nodeSelector.nodeSelectorTerms[0].matchFields[0].key: "spec.unschedulable"; want metadata.name (the one node field a selector reads)`},
		{"field Exists", strings.Replace(string(slices), "{key: metadata.name, operator: In, values: [gpu-c]}", "{key: metadata.name, operator: Exists}", 1), "",
			`slices: ResourceSlice "per-device-llmfit.ai-h5g6f" (items[4]): spec.devices[0] ("p0").nodeSelector.nodeSelectorTerms[0].matchFields[0].operator: "Exists"; want In or NotIn (matchFields)`},
		{"no terms", strings.Replace(string(slices), "      nodeSelectorTerms:\n      - matchExpressions:\n        - "+sel+"\n", "      nodeSelectorTerms: []\n", 1), "",
			`slices: ResourceSlice "zone-a-llmfit.ai-k2j4d" (items[0]): spec.nodeSelector.nodeSelectorTerms: missing; want at least one term of matchExpressions or matchFields`},
		{"a pod, not a node", string(slices), strings.Replace(string(nodes), "kind: Node", "kind: Pod", 1), `nodes: items[0]: kind: "Pod"; want Node (kubectl get nodes -o yaml)`},
		{"node twice", string(slices), strings.Replace(string(nodes), "name: gpu-b", "name: gpu-a", 1), `nodes: Node "gpu-a" (items[1]): metadata.name: "gpu-a" appears twice; give each node once`},
		{"label a number", string(slices), strings.Replace(string(nodes), `example.com/rack: "2"`, "example.com/rack: 2", 1), `nodes: Node "gpu-a" (items[0]): metadata.labels.example.com/rack: is a number; want a string`},
		{"node apiVersion", string(slices), strings.Replace(string(nodes), "- apiVersion: v1\n  kind: Node", "- apiVersion: v2\n  kind: Node", 1), `nodes: Node "gpu-a" (items[0]): apiVersion: "v2"; want v1`},
		{"empty nodes", string(slices), " \n", "nodes: empty: paste the output of kubectl get nodes -o yaml"},
		{"taint effect", string(slices), strings.Replace(string(nodes), "  spec: {podCIDR: 10.244.1.0/24}", "  spec: {taints: [{key: k, effect: Never}]}", 1),
			`nodes: Node "gpu-a" (items[0]): spec.taints[0].effect: "Never"; want NoSchedule, PreferNoSchedule or NoExecute`},
		{"unschedulable a string", string(slices), strings.Replace(string(nodes), "  spec: {podCIDR: 10.244.1.0/24}", "  spec: {unschedulable: \"yes\"}", 1),
			`nodes: Node "gpu-a" (items[0]): spec.unschedulable: is a string; want true or false`},
		// A name or metadata of the wrong type is said so, not called missing.
		{"name a number", string(slices), strings.Replace(string(nodes), "name: gpu-a", "name: 7", 1), `nodes: items[0]: metadata.name: is a number; want a string`},
		{"metadata a string", string(slices), "apiVersion: v1\nkind: Node\nmetadata: gpu-a\n", `nodes: the input: metadata: is a string; want a mapping`},
		{"slice name a list", strings.Replace(string(slices), "metadata: {name: zone-a-llmfit.ai-k2j4d}", "metadata: {name: [zone-a]}", 1), "", `slices: items[0]: metadata.name: is a list; want a string`},
		{"slices for nodes", string(slices), string(slices), `nodes: items[0]: kind: "ResourceSlice"; want Node (kubectl get nodes -o yaml)`},
	} {
		in := Inputs{Slices: []byte(c.slices)}
		if c.nodes != "" {
			in.Nodes = []byte(c.nodes)
		}
		_, err := CheckInputs(b, in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %s", c.name, err, c.want)
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("%s: %T, want *Error", c.name, err)
		}
	}
}

func TestEmptyNodeList(t *testing.T) {
	// kubectl get nodes -o yaml of a cluster without nodes: a List with no items. No device is
	// on a node.
	data, err := os.ReadFile("testdata/zones.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := CheckInputs(bounds(t, fit.DriverLlmfit, 40, 1000, 1), Inputs{Slices: data, Nodes: []byte("apiVersion: v1\nitems: []\nkind: List\n")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allocatable || r.Placement != "not allocatable: no device is on any of the 0 nodes given" {
		t.Errorf("placement %q", r.Placement)
	}
	if d := r.Devices[4]; d.Device != "s0" || d.Matches || !slices.Contains(d.Reasons, "on no node: the nodes given are none") {
		t.Errorf("s0: %+v", d)
	}
}
