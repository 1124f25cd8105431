package cluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// zonesPod judges zones.yaml on nodes (zones-nodes.yaml's text, edited by the caller) for the
// pod given (nil: none), for an llmfit.ai claim of count devices of ≥ 40 Gi and 1,000 GB/s
// (every device there has 48Gi and 2,000 GB/s).
func zonesPod(t *testing.T, count int, nodes string, pod []byte) Report {
	t.Helper()
	in := Inputs{Slices: readTestdata(t, "zones.yaml"), Nodes: []byte(nodes), Pod: pod}
	r, err := CheckInputs(bounds(t, fit.DriverLlmfit, 40, 1000, count), in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// affinityText is zones-pod.yaml's required node affinity as reasons write it.
const affinityText = "the pod's required node affinity does not select it (topology.kubernetes.io/zone In (a), example.com/rack Lt (5) or metadata.name In (cpu-d))"

func TestPodKeepsTheClaimToItsNodes(t *testing.T) {
	// zones-pod.yaml's Deployment (among its ResourceClaimTemplate and Service) can go only to
	// gpu-a: gpu-b's rack 5 is not below 5 and it is not cpu-d, gpu-c is in zone b and not
	// cpu-d, cpu-d is selected by name but has no example.com/gpu label. On gpu-a: a0, zone a's
	// z0 and z1, the all-nodes s0: 4 devices. p0 (gpu-c's) and p1 (gpu-b's) are on no node it
	// can use; c0 and p2 on no node at all, as without the pod.
	nodes, pod := string(readTestdata(t, "zones-nodes.yaml")), readTestdata(t, "zones-pod.yaml")
	r := zonesPod(t, 4, nodes, pod)
	sameRows(t, r, []string{
		zoneA + "/z0: model", zoneA + "/z1: model",
		zoneC + "/c0: no: on no node: its node selector selects none of the 4 nodes given",
		"gpu-a/a0: model", "all nodes/s0: model",
		byName + "/p0: no: on no node the pod can be scheduled to: its node selector selects only gpu-c (" + affinityText + ")",
		rack + "/p1: no: on no node the pod can be scheduled to: its node selector selects only gpu-b (" + affinityText + ")",
		"gone-node/p2: no: on no node: node gone-node is not among the 4 nodes given",
	})
	allocatedAs(t, r, "allocatable on node gpu-a: model gets a0, z0, z1, s0")
	if got := r.Devices[0].Nodes; !slices.Equal(got, []string{"gpu-a"}) { // gpu-b is zone a's too, but out of the pod's reach
		t.Errorf("z0 on %q, want gpu-a alone", got)
	}
	wantNotes := []string{
		`placed on the 4 nodes given: their labels and names resolve the slices' node selectors, and the pod (Deployment "qwen-qwen3-8b-fit") is placed only where its nodeSelector, required node affinity and tolerations let the scheduler put it`,
		"the pod cannot be scheduled to 3 of the 4 nodes given, so the claim is not placed there: cpu-d (no label example.com/gpu (the pod's nodeSelector wants example.com/gpu=true)), gpu-b (" + affinityText + "), gpu-c (" + affinityText + ")",
	}
	for _, n := range wantNotes {
		if !slices.Contains(r.Notes, n) {
			t.Errorf("no note %q in %q", n, r.Notes)
		}
	}
	// The same three nodes, for a controller, in the JSON's excludedNodes.
	wantOut := []ExcludedNode{
		{"cpu-d", "no label example.com/gpu (the pod's nodeSelector wants example.com/gpu=true)"},
		{"gpu-b", affinityText},
		{"gpu-c", affinityText},
	}
	if !slices.Equal(r.ExcludedNodes, wantOut) {
		t.Errorf("excluded nodes %+v, want %+v", r.ExcludedNodes, wantOut)
	}
	if js := r.JSON(); !strings.Contains(js, `"excludedNodes": [
    {
      "node": "cpu-d",
      "why": "no label example.com/gpu (the pod's nodeSelector wants example.com/gpu=true)"
    },`) {
		t.Errorf("JSON without the excluded nodes:\n%s", js)
	}
	// Without the pod none is excluded, and the JSON is the contract's two fields as before.
	if r := zonesPod(t, 4, nodes, nil); r.ExcludedNodes != nil || strings.Contains(r.JSON(), "excludedNodes") {
		t.Errorf("excluded nodes without the pod: %+v", r.ExcludedNodes)
	}
	// Five: gpu-a's four are the most; without the pod gpu-b's four would be tried too, and
	// the nearest miss is the same node.
	r = zonesPod(t, 5, nodes, pod)
	if r.Allocatable || r.Placement != "not allocatable: the claim needs 5 matching devices on one node; the most is 4 on node gpu-a; the pod cannot be scheduled to 3 of the 4 nodes given (the notes say why)" {
		t.Errorf("placement %q", r.Placement)
	}
	// Two, with the pod's rack bound at 3 instead of 5: gpu-a (rack 2) still; at 2 none of
	// zone a's racks (2 and 5) is below, and no node is left.
	r = zonesPod(t, 2, nodes, []byte(strings.Replace(string(pod), `values: ["5"]`, `values: ["2"]`, 1)))
	if r.Allocatable || r.Placement != "not allocatable: no device is on a node the pod can be scheduled to (it cannot be scheduled to 4 of the 4 nodes given)" {
		t.Errorf("placement %q", r.Placement)
	}
	if d := r.Devices[4]; d.Device != "s0" || d.Matches || !slices.Equal(d.Reasons, []string{"on no node the pod can be scheduled to: it can be scheduled to none of the 4 nodes given"}) {
		t.Errorf("s0: %+v", d)
	}
}

// keptOffNodes is zones-nodes.yaml with gpu-a tainted nvidia.com/gpu=present (NoSchedule) and
// example.com/slow (PreferNoSchedule), and gpu-b cordoned.
func keptOffNodes(t *testing.T) string {
	nodes := string(readTestdata(t, "zones-nodes.yaml"))
	nodes = strings.Replace(nodes, "  spec: {podCIDR: 10.244.1.0/24}", "  spec:\n    podCIDR: 10.244.1.0/24\n    taints:\n    - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n    - {key: example.com/slow, effect: PreferNoSchedule}", 1)
	return strings.Replace(nodes, "  spec: {podCIDR: 10.244.2.0/24}", "  spec: {podCIDR: 10.244.2.0/24, unschedulable: true}", 1)
}

func TestPodTolerations(t *testing.T) {
	// Four devices on gpu-a (a0, z0, z1, s0) and gpu-b (z0, z1, s0, p1); gpu-c has two (s0,
	// p0), cpu-d one (s0). gpu-a is tainted nvidia.com/gpu=present (NoSchedule), gpu-b cordoned.
	// Without the pod, gpu-a is tried last and the claim placed there (TestZonesOnKeptOffNodes);
	// with a pod, its tolerations decide, and a node it does not tolerate is not tried at all.
	nodes := keptOffNodes(t)
	gpuA := "allocatable on node gpu-a: model gets a0, z0, z1, s0"
	gpuB := "allocatable on node gpu-b: model gets z0, z1, s0, p1"
	// gpu-a and gpu-b kept off, cpu-d without the nodeSelector's label: 3 of 4 out.
	short := "not allocatable: the claim needs 4 matching devices on one node; the most is 2 on node gpu-c; the pod cannot be scheduled to 3 of the 4 nodes given (the notes say why)"
	for _, c := range []struct {
		name, tolerations, want string
	}{
		{"none", "[]", short},
		{"the taint's key, Exists", "[{key: nvidia.com/gpu, operator: Exists}]", gpuA},
		{"its key and value, Equal", "[{key: nvidia.com/gpu, operator: Equal, value: present, effect: NoSchedule}]", gpuA},
		{"its key and value, no operator (Equal)", "[{key: nvidia.com/gpu, value: present}]", gpuA},
		{"another value", "[{key: nvidia.com/gpu, value: absent}]", short},
		{"Equal without a value, against a value", "[{key: nvidia.com/gpu, operator: Equal}]", short},
		{"another effect", "[{key: nvidia.com/gpu, operator: Exists, effect: NoExecute}]", short},
		{"PreferNoSchedule only", "[{key: example.com/slow, operator: Exists}]", short},
		// The cordon is tolerated as the taint node.kubernetes.io/unschedulable (NoSchedule):
		// gpu-b (by name after gpu-a, which stays out) gets z0, z1, s0 and p1 (rack 5 > 3).
		{"the cordon", "[{key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}]", gpuB},
		// Every taint, the cordon's too: both back, gpu-a first by name.
		{"every taint", "[{operator: Exists}]", gpuA},
	} {
		pod := "nodeSelector: {example.com/gpu: \"true\"}\ntolerations: " + c.tolerations + "\n"
		r := zonesPod(t, 4, nodes, []byte(pod))
		if r.Placement != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, r.Placement, c.want)
		}
		if c.want == short {
			// gpu-a's a0, only there, says why; cpu-d is out by the nodeSelector.
			if d := r.Devices[3]; d.Device != "a0" || !slices.Equal(d.Reasons, []string{"on no node the pod can be scheduled to: node gpu-a (tainted nvidia.com/gpu=present (NoSchedule), which the pod does not tolerate)"}) {
				t.Errorf("%s: a0 %+v", c.name, d)
			}
		}
	}
	// The cordon and the taint together, as the note lists them.
	r := zonesPod(t, 4, nodes, []byte("containers: []\n"))
	want := "the pod cannot be scheduled to 2 of the 4 nodes given, so the claim is not placed there: gpu-a (tainted nvidia.com/gpu=present (NoSchedule), which the pod does not tolerate), gpu-b (cordoned (spec.unschedulable), and the pod does not tolerate node.kubernetes.io/unschedulable (NoSchedule))"
	if !slices.Contains(r.Notes, want) {
		t.Errorf("notes %q\nwant %q", r.Notes, want)
	}
	if slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "tolerates nothing") }) {
		t.Errorf("the pod given, a note still assumes one that tolerates nothing: %q", r.Notes)
	}
}

func TestPodAffinityOperators(t *testing.T) {
	// One device; the nodes: gpu-a (zone a, rack 2, gpu), gpu-b (zone a, rack 5, gpu), gpu-c
	// (zone b, rack 1, gpu), cpu-d (zone b, rack 9). The first node by name the pod can use,
	// tried with its devices' first in the slices' order, takes it: gpu-a's z0, gpu-b's z0,
	// gpu-c's s0 (the all-nodes slice comes before p0), cpu-d's s0; gpu-a's own a0 before z0.
	nodes := string(readTestdata(t, "zones-nodes.yaml"))
	for _, c := range []struct{ expr, want string }{
		{"{key: topology.kubernetes.io/zone, operator: In, values: [b]}", "on node cpu-d: model gets s0"},
		{"{key: topology.kubernetes.io/zone, operator: NotIn, values: [a]}", "on node cpu-d: model gets s0"},
		{"{key: example.com/gpu, operator: Exists}", "on node gpu-a: model gets a0"}, // its own device first
		{"{key: example.com/gpu, operator: DoesNotExist}", "on node cpu-d: model gets s0"},
		{`{key: example.com/rack, operator: Gt, values: ["2"]}`, "on node cpu-d: model gets s0"}, // 5 and 9; cpu-d first by name
		{`{key: example.com/rack, operator: Lt, values: ["2"]}`, "on node gpu-c: model gets s0"}, // 1
		{`{key: example.com/rack, operator: Gt, values: ["4"]}, {key: example.com/gpu, operator: Exists}`, "on node gpu-b: model gets z0"},
	} {
		pod := "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchExpressions: [" + c.expr + "]\n"
		allocatedAs(t, zonesPod(t, 1, nodes, []byte(pod)), "allocatable "+c.want)
	}
	// A nodeSelector and the affinity must both hold: zone b (gpu-c, cpu-d) and the gpu label.
	pod := "nodeSelector: {example.com/gpu: \"true\"}\naffinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [b]}]}]}}}\n"
	allocatedAs(t, zonesPod(t, 1, nodes, []byte(pod)), "allocatable on node gpu-c: model gets s0")
}

func TestPodWithoutNodes(t *testing.T) {
	// Without the nodes, the pod's constraints cannot be weighed: the verdict is the one
	// without it, and a note says so.
	r, err := CheckInputs(bounds(t, fit.DriverLlmfit, 40, 1000, 1), Inputs{Slices: readTestdata(t, "zones.yaml"), Pod: readTestdata(t, "zones-pod.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Allocatable || !slices.Contains(r.Notes, "the pod's nodeSelector, required node affinity and tolerations are weighed against the cluster's nodes, which are not given (kubectl get nodes -o yaml)") {
		t.Errorf("%v %q: notes %q", r.Allocatable, r.Placement, r.Notes)
	}
}

func TestPodUnweighedFieldsNoted(t *testing.T) {
	pod := `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeName: gpu-a
  affinity:
    podAntiAffinity: {}
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution: []
  topologySpreadConstraints: []
  containers: []
`
	r := zonesPod(t, 1, string(readTestdata(t, "zones-nodes.yaml")), []byte(pod))
	for _, want := range []string{
		"the pod's affinity.podAntiAffinity is not weighed: it depends on the pods already running, which the inputs do not give",
		"the pod's preferred node affinity is not weighed: it only ranks the nodes it can be scheduled to",
		"the pod's topologySpreadConstraints is not weighed: it depends on the pods already running, which the inputs do not give",
		"the pod sets spec.nodeName, which bypasses the scheduler: nothing then allocates its claim (the kubelet waits for it); select the node with a nodeSelector on kubernetes.io/hostname instead",
	} {
		if !slices.Contains(r.Notes, want) {
			t.Errorf("no note %q in %q", want, r.Notes)
		}
	}
}

func TestParsePodFindsTheWorkload(t *testing.T) {
	for _, c := range []struct{ name, input, source string }{
		{"fitclaim deploy's stream", string(readTestdata(t, "zones-pod.yaml")), `Deployment "qwen-qwen3-8b-fit"`},
		{"a bare pod spec", "nodeSelector: {a: b}\n", "the pod spec"},
		{"a Pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeSelector: {a: b}}\n", `Pod "p"`},
		{"a CronJob", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {jobTemplate: {spec: {template: {spec: {nodeSelector: {a: b}}}}}}\n", `CronJob "c"`},
		{"a List with a Service", `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {}}, {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "st"}, "spec": {"template": {"spec": {"nodeSelector": {"a": "b"}}}}}]}`, `StatefulSet "st"`},
		{"another workload kind", "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: Rollout\nmetadata: {name: r}\nspec: {template: {spec: {nodeSelector: {a: b}}}}\n", `Rollout "r"`},
	} {
		p, err := ParsePod([]byte(c.input))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if p.Source != c.source || (c.name != "fitclaim deploy's stream" && p.NodeSelector["a"] != "b") {
			t.Errorf("%s: %+v", c.name, p)
		}
	}
}

func TestBadPods(t *testing.T) {
	deploy := string(readTestdata(t, "zones-pod.yaml"))
	tol := "{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}"
	d := `pod: Deployment "qwen-qwen3-8b-fit": spec.template.spec.`
	for _, c := range []struct{ name, pod, want string }{
		{"empty", "\n", "pod: empty: paste the output of fitclaim deploy, or of kubectl get deployment NAME -o yaml"},
		{"no workload", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {}\n", "pod: no pod spec in the input (it has a Service): " + podWant},
		{"nodes pasted", string(readTestdata(t, "zones-nodes.yaml")), "pod: no pod spec in the input (it has a Node): " + podWant},
		{"not a pod spec", "foo: bar\n", "pod: the input: neither a Kubernetes object (no kind) nor a pod spec (none of containers, nodeSelector, affinity, tolerations): " + podWant},
		{"a list", "- a\n- b\n", "pod: the input: is a list; want a mapping: " + podWant},
		{"two workloads", deploy + "\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: []}\n", `pod: Pod "p": a second pod spec, beside Deployment "qwen-qwen3-8b-fit"'s; give one workload`},
		{"Deployment without a template", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: 1}\n", `pod: Deployment "x": spec.template: missing`},
		{"template a string", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {template: x}\n", `pod: Deployment "x": spec.template: is a string; want a mapping`},
		{"no kind", "apiVersion: v1\nmetadata: {name: x}\n", `pod: the input: kind: missing; want Deployment, Pod or another workload kind (or give a bare pod spec, without kind and apiVersion)`},
		{"nodeSelector a boolean", strings.Replace(deploy, `example.com/gpu: "true"`, "example.com/gpu: true", 1), d + `nodeSelector.example.com/gpu: is a boolean; want a string (quote it: "true")`},
		{"nodeSelector a list", strings.Replace(deploy, "      nodeSelector:\n        example.com/gpu: \"true\"", "      nodeSelector: [a]", 1), d + "nodeSelector: is a list; want a mapping"},
		{"affinity operator", strings.Replace(deploy, "operator: Lt", "operator: Below", 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].operator: "Below"; want In, NotIn, Exists, DoesNotExist, Gt or Lt`},
		{"affinity Lt not a number", strings.Replace(deploy, `values: ["5"]`, `values: ["five"]`, 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values[0]: "five"; want a whole number for Gt and Lt`},
		{"affinity Gt negative", strings.Replace(deploy, `values: ["5"]`, `values: ["-1"]`, 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values[0]: "-1"; want a whole number without a sign for Gt and Lt (a label value)`},
		{"affinity value not a label value", strings.Replace(deploy, "values: [a]", "values: [\"zone a\"]", 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]: "zone a"; want ` + labelValueRule},
		{"affinity key not a label key", strings.Replace(deploy, "{key: topology.kubernetes.io/zone,", "{key: Topology.io/zone,", 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: "Topology.io/zone"; want ` + labelKeyRule},
		{"nodeSelector value not a label value", strings.Replace(deploy, `example.com/gpu: "true"`, `example.com/gpu: "-yes"`, 1), d + `nodeSelector.example.com/gpu: "-yes"; want ` + labelValueRule},
		{"nodeSelector key not a label key", strings.Replace(deploy, `example.com/gpu: "true"`, `"a/b/c": "true"`, 1), d + `nodeSelector: key "a/b/c"; want ` + labelKeyRule},
		{"affinity no terms", strings.Replace(deploy, "requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n", "requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}\n          ignored:\n            nodeSelectorTerms:\n", 1), d + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: missing; want at least one term of matchExpressions or matchFields"},
		{"matchFields not the name", strings.Replace(deploy, "{key: metadata.name, operator: In, values: [cpu-d]}", "{key: spec.nodeName, operator: In, values: [cpu-d]}", 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[0].key: "spec.nodeName"; want metadata.name (the one node field a selector reads)`},
		{"matchFields not a node name", strings.Replace(deploy, "values: [cpu-d]", "values: [Cpu_D]", 1), d + `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[0].values[0]: "Cpu_D"; want a node name: lower-case letters, digits, '-' and '.', at most 253`},
		{"nodeAffinity a string", strings.Replace(deploy, "        nodeAffinity:\n", "        nodeAffinity: x\n        y:\n", 1), d + "affinity.nodeAffinity: is a string; want a mapping"},
		{"tolerations a mapping", strings.Replace(deploy, "      - "+tol, "        a: b", 1), d + "tolerations: is a mapping; want a list"},
		{"toleration operator", strings.Replace(deploy, tol, "{key: nvidia.com/gpu, operator: Matches}", 1), d + `tolerations[0].operator: "Matches"; want Equal or Exists`},
		{"toleration Gt", strings.Replace(deploy, tol, `{key: nvidia.com/gpu, operator: Gt, value: "3"}`, 1), d + `tolerations[0].operator: "Gt"; want Equal or Exists (Gt and Lt need the alpha feature gate TaintTolerationComparisonOperators, off by default)`},
		{"toleration effect", strings.Replace(deploy, tol, "{key: nvidia.com/gpu, operator: Exists, effect: Never}", 1), d + `tolerations[0].effect: "Never"; want NoSchedule, PreferNoSchedule, NoExecute or none (every effect)`},
		{"toleration no key, Equal", strings.Replace(deploy, tol, "{value: x}", 1), d + "tolerations[0].operator: must be Exists when key is empty (a toleration of every taint)"},
		{"toleration Exists with a value", strings.Replace(deploy, tol, "{key: k, operator: Exists, value: v}", 1), d + `tolerations[0].value: "v"; want none with operator Exists`},
		{"toleration key not a label key", strings.Replace(deploy, tol, "{key: \"-k\", operator: Exists}", 1), d + `tolerations[0].key: "-k"; want ` + labelKeyRule},
		{"toleration value not a label value", strings.Replace(deploy, tol, "{key: k, value: \"a b\"}", 1), d + `tolerations[0].value: "a b"; want ` + labelValueRule},
		{"toleration value a number", strings.Replace(deploy, tol, "{key: k, value: 3}", 1), d + "tolerations[0].value: is a number; want a string"},
		{"tolerationSeconds without NoExecute", strings.Replace(deploy, tol, "{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 30}", 1), d + `tolerations[0].tolerationSeconds: set with effect "NoSchedule"; want effect NoExecute`},
		{"tolerationSeconds a string", strings.Replace(deploy, tol, "{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: soon}", 1), d + "tolerations[0].tolerationSeconds: is a string; want a whole number"},
	} {
		_, err := CheckInputs(bounds(t, fit.DriverLlmfit, 40, 1000, 1), Inputs{Slices: readTestdata(t, "zones.yaml"), Nodes: readTestdata(t, "zones-nodes.yaml"), Pod: []byte(c.pod)})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %s", c.name, err, c.want)
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("%s: %T, want *Error", c.name, err)
		}
	}
}
