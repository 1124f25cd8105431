package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	v1helper "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// The workload's pod: cluster.Pod.Excludes against the scheduler's own rules for the nodes a
// pod can be scheduled to — nodeaffinity.GetRequiredNodeAffinity (the NodeAffinity filter:
// nodeSelector and required node affinity), v1helper.FindMatchingUntoleratedTaint over the
// NoSchedule and NoExecute taints (TaintToleration) and v1helper.TolerationsTolerateTaint of
// node.kubernetes.io/unschedulable on a cordoned node (NodeUnschedulable), all with the alpha
// comparison operators off, as the plugins run them by default — node by node, for every pod
// below on three sets of nodes; then the claim placed with the pod against the allocator run on
// exactly the nodes the scheduler's filters pass.

// podFits is whether the scheduler's NodeUnschedulable, TaintToleration and NodeAffinity
// filters (k8s.io/kubernetes v1.37.2 pkg/scheduler/framework/plugins) pass the node for the pod.
func podFits(pod *corev1.Pod, node *corev1.Node) bool {
	logger := klog.Background()
	const comparisonOperators = false // TaintTolerationComparisonOperators: alpha, off by default
	if node.Spec.Unschedulable && !v1helper.TolerationsTolerateTaint(logger, pod.Spec.Tolerations,
		&corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule}, comparisonOperators) {
		return false
	}
	doNotSchedule := func(t *corev1.Taint) bool { // helper.DoNotScheduleTaintsFilterFunc
		return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
	}
	if _, untolerated := v1helper.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, pod.Spec.Tolerations, doNotSchedule, comparisonOperators); untolerated {
		return false
	}
	match, _ := nodeaffinity.GetRequiredNodeAffinity(pod).Match(node) // the plugin ignores parse errors too
	return match
}

// decodePod reads the one pod spec of a workload as the API types spell it: a Pod, a
// Deployment-like object's spec.template, or a bare pod spec (no kind); other kinds are skipped.
func decodePod(data []byte) (*corev1.Pod, error) {
	var pod *corev1.Pod
	err := eachObject(data, func(raw []byte) error {
		var head struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return err
		}
		p := &corev1.Pod{}
		switch head.Kind {
		case "":
			if err := json.Unmarshal(raw, &p.Spec); err != nil {
				return err
			}
		case "Pod":
			if err := json.Unmarshal(raw, p); err != nil {
				return err
			}
		case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job":
			var w struct {
				Spec struct {
					Template corev1.PodTemplateSpec `json:"template"`
				} `json:"spec"`
			}
			if err := json.Unmarshal(raw, &w); err != nil {
				return err
			}
			p.Spec = w.Spec.Template.Spec
		default:
			return nil
		}
		if pod != nil {
			return fmt.Errorf("a second pod spec")
		}
		pod = p
		return nil
	})
	if err == nil && pod == nil {
		err = fmt.Errorf("no pod spec")
	}
	return pod, err
}

// podsToCheck are pod specs that take each rule's branches on zones-nodes.yaml's nodes (gpu-a:
// zone a, rack 2; gpu-b: zone a, rack 5; gpu-c: zone b, rack 1; all three example.com/gpu;
// cpu-d: zone b, rack 9, no gpu label) and the taints nodeSets adds.
func podsToCheck(t *testing.T) map[string]string {
	zonesPod, err := os.ReadFile(filepath.Join(RepoDir, "cluster", "testdata", "zones-pod.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	affinity := func(terms string) string {
		return "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: " + terms + "}}}\n"
	}
	return map[string]string{
		"nothing":                  "containers: []\n",
		"selector gpu":             "nodeSelector: {example.com/gpu: \"true\"}\n",
		"selector zone b rack 1":   "nodeSelector: {topology.kubernetes.io/zone: b, example.com/rack: \"1\"}\n",
		"selector empty value":     "nodeSelector: {example.com/gpu: \"\"}\n",
		"In":                       affinity("[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a, c]}]}]"),
		"NotIn":                    affinity("[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: NotIn, values: [a]}]}]"),
		"NotIn absent label":       affinity("[{matchExpressions: [{key: example.com/gpu, operator: NotIn, values: [\"true\"]}]}]"),
		"Exists":                   affinity("[{matchExpressions: [{key: example.com/gpu, operator: Exists}]}]"),
		"DoesNotExist":             affinity("[{matchExpressions: [{key: example.com/gpu, operator: DoesNotExist}]}]"),
		"Gt":                       affinity("[{matchExpressions: [{key: example.com/rack, operator: Gt, values: [\"2\"]}]}]"),
		"Lt":                       affinity("[{matchExpressions: [{key: example.com/rack, operator: Lt, values: [\"5\"]}]}]"),
		"Gt zero":                  affinity("[{matchExpressions: [{key: example.com/rack, operator: Gt, values: [\"0\"]}]}]"),
		"Gt on a word":             affinity("[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: Gt, values: [\"0\"]}]}]"),
		"terms ORed":               affinity("[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [b]}, {key: example.com/gpu, operator: DoesNotExist}]}, {matchFields: [{key: metadata.name, operator: In, values: [gpu-a]}]}]"),
		"field NotIn":              affinity("[{matchFields: [{key: metadata.name, operator: NotIn, values: [gpu-a]}]}]"),
		"empty term beside one":    affinity("[{}, {matchExpressions: [{key: example.com/rack, operator: In, values: [\"5\", \"9\"]}]}]"),
		"only an empty term":       affinity("[{}]"),
		"selector and affinity":    "nodeSelector: {example.com/gpu: \"true\"}\n" + affinity("[{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [b]}]}]"),
		"tolerates everything":     "tolerations: [{operator: Exists}]\n",
		"tolerates the gpu taint":  "tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]\n",
		"gpu taint's value":        "tolerations: [{key: nvidia.com/gpu, value: present}]\n",
		"gpu taint, other value":   "tolerations: [{key: nvidia.com/gpu, operator: Equal, value: absent}]\n",
		"gpu taint, no value":      "tolerations: [{key: nvidia.com/gpu, operator: Equal}]\n",
		"gpu taint, NoExecute":     "tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoExecute}]\n",
		"the cordon":               "tolerations: [{key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}]\n",
		"every NoSchedule":         "tolerations: [{operator: Exists, effect: NoSchedule}]\n",
		"maintenance, for a while": "tolerations: [{key: example.com/maint, operator: Exists, effect: NoExecute, tolerationSeconds: 30}]\n",
		"maintenance value":        "tolerations: [{key: example.com/maint, value: \"1\", effect: NoExecute}]\n",
		"prefer only":              "tolerations: [{key: example.com/slow, operator: Exists, effect: PreferNoSchedule}]\n",
		"gpu and cordon, zone a":   "nodeSelector: {topology.kubernetes.io/zone: a}\ntolerations: [{key: nvidia.com/gpu, operator: Exists}, {key: node.kubernetes.io/unschedulable, operator: Exists}]\n",
		"zones-pod.yaml":           string(zonesPod),
		"a Pod":                    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {topology.kubernetes.io/zone: a}\n  tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n",
	}
}

// nodeSets are zones-nodes.yaml as is; with gpu-a tainted nvidia.com/gpu=present (NoSchedule)
// and example.com/slow (PreferNoSchedule) and gpu-b cordoned; and with gpu-c tainted
// example.com/maint=1 (NoExecute) and cpu-d tainted nvidia.com/gpu without a value (NoSchedule).
func nodeSets(t *testing.T) map[string]string {
	data, err := os.ReadFile(filepath.Join(RepoDir, "cluster", "testdata", "zones-nodes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	plain := string(data)
	kept := strings.Replace(strings.Replace(plain, "  spec: {podCIDR: 10.244.1.0/24}",
		"  spec: {podCIDR: 10.244.1.0/24, taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}, {key: example.com/slow, effect: PreferNoSchedule}]}", 1),
		"  spec: {podCIDR: 10.244.2.0/24}", "  spec: {podCIDR: 10.244.2.0/24, unschedulable: true}", 1)
	maint := strings.Replace(strings.Replace(plain, "      example.com/rack: \"1\"\n      example.com/gpu: \"true\"\n",
		"      example.com/rack: \"1\"\n      example.com/gpu: \"true\"\n  spec: {taints: [{key: example.com/maint, value: \"1\", effect: NoExecute}]}\n", 1),
		"      example.com/rack: \"9\"\n", "      example.com/rack: \"9\"\n  spec: {taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}\n", 1)
	if kept == plain || maint == plain || strings.Count(maint, "taints") != 2 {
		t.Fatal("nodeSets: an edit did not apply")
	}
	return map[string]string{"plain": plain, "kept off": kept, "maintenance": maint}
}

func TestPodExcludesAsTheScheduler(t *testing.T) {
	pods, sets := podsToCheck(t), nodeSets(t)
	fits, out := 0, 0
	for setName, nodesText := range sets {
		k8sNodes, err := DecodeNodes([]byte(nodesText))
		if err != nil {
			t.Fatal(err)
		}
		ours, err := cluster.ParseNodes([]byte(nodesText))
		if err != nil {
			t.Fatal(err)
		}
		if len(ours) != len(k8sNodes) {
			t.Fatalf("%s: %d nodes, Kubernetes %d", setName, len(ours), len(k8sNodes))
		}
		for podName, podText := range pods {
			k8sPod, err := decodePod([]byte(podText))
			if err != nil {
				t.Fatalf("%s: %v", podName, err)
			}
			pod, err := cluster.ParsePod([]byte(podText))
			if err != nil {
				t.Fatalf("%s: %v", podName, err)
			}
			for i, n := range k8sNodes {
				want := podFits(k8sPod, n)
				why := pod.Excludes(&ours[i])
				if ours[i].Name != n.Name || want != (len(why) == 0) {
					t.Errorf("%s, pod %q on %s: the scheduler's filters pass it %v; cluster excludes it for %q", setName, podName, n.Name, want, why)
				}
				if want {
					fits++
				} else {
					out++
				}
			}
		}
	}
	if fits == 0 || out == 0 {
		t.Fatalf("%d fits, %d excluded: both must occur", fits, out)
	}
	t.Logf("%d pods on 3 sets of 4 nodes: %d fits and %d exclusions agree with the scheduler's filters", len(pods), fits, out)
	readmeFigure(t, `([0-9,]+) pods on 3 sets of 4 nodes`, len(pods))
	readmeFigure(t, `([0-9,]+) node verdicts`, fits+out)
	confFigure(t, `comparison operators off: ([0-9,]+) verdicts`, fits+out)
}

func TestPodPlacementAgreesWithKubernetes(t *testing.T) {
	ctx := context.Background()
	matcher := NewMatcher()
	slicesData, err := os.ReadFile(filepath.Join(RepoDir, "cluster", "testdata", "zones.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	k8sSlices, err := DecodeSlices(slicesData)
	if err != nil {
		t.Fatal(err)
	}
	none := structured.AllocatedState{}
	claims, allocatable := 0, 0
	for setName, nodesText := range nodeSets(t) {
		nodes, err := DecodeNodes([]byte(nodesText))
		if err != nil {
			t.Fatal(err)
		}
		for podName, podText := range podsToCheck(t) {
			k8sPod, err := decodePod([]byte(podText))
			if err != nil {
				t.Fatal(err)
			}
			allowed := []*corev1.Node{} // the nodes the scheduler runs the allocator on: never nil
			for _, n := range nodes {
				if podFits(k8sPod, n) {
					allowed = append(allowed, n)
				}
			}
			for _, n := range []int{1, 2, 4} {
				tg := target.Default()
				tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.Count = 7, "F16", 10, fit.DriverLlmfit, n
				r, m, alts, ok := oneRequestToCheck(t, tg)
				if !ok {
					t.Fatal("no claim for " + claimLabel(tg))
				}
				what := setName + " × pod " + podName + " × " + claimLabel(tg)
				rep, err := cluster.CheckInputs(&r.Bounds, cluster.Inputs{Slices: slicesData, Nodes: []byte(nodesText), Pod: []byte(podText)})
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				// Device by device on the nodes the pod can go to: a device no such node reaches
				// does not match, and a node-selector device lists those nodes only.
				if err := agreeDevicesOnNodes(ctx, matcher, alts, k8sSlices, rep, nil, allowed); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				byNode, err := AllocateOnNodes(ctx, m, k8sSlices, none, allowed)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				ok, err = agreeAllocation(byNode, rep)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				claims++
				if ok {
					allocatable++
					if node, _ := picked(rep.Placement); byNode[node] == nil {
						t.Fatalf("%s: cluster %q; the allocator on the pod's nodes: %v", what, rep.Placement, byNode)
					}
				}
			}
		}
	}
	if allocatable == 0 || allocatable == claims {
		t.Fatalf("%d claims, %d allocatable: both verdicts must occur", claims, allocatable)
	}
	t.Logf("%d claims with a pod on 3 sets of 4 nodes agree with the allocator on the nodes the scheduler's filters pass (%d allocatable)", claims, allocatable)
	readmeFigure(t, `filters pass \(([0-9,]+) claims\)`, claims)
	confFigure(t, `claim by claim \(([0-9,]+) claims\)`, claims)
}
