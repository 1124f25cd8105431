package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/utils/ptr"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// The cluster's nodes: cluster.ParseNodes and the placement per real node against the allocator
// run on each of the same nodes (with their labels), on zones.yaml with zones-nodes.yaml — a
// selector slice over two nodes (zone a), one over none (zone c), a node's own slice, an
// all-nodes slice, perDeviceNodeSelection devices by name, by a Gt label and on a node that is
// not in the cluster. Device by device (the nodes each node-selector device is on, through
// nodeaffinity, the package the allocator's NodeMatches calls), every device alone on every
// node (the allocator given only that device), and claim by claim (one to six devices: the
// verdict and, where allocatable, that the node named is one the allocator allocates on).

// DecodeNodes reads core/v1 Nodes as kubectl writes them (a List, or `---` documents).
func DecodeNodes(data []byte) ([]*corev1.Node, error) {
	var out []*corev1.Node
	err := eachObject(data, func(raw []byte) error {
		n := &corev1.Node{}
		if err := json.Unmarshal(raw, n); err != nil {
			return err
		}
		if n.Kind != "Node" {
			return fmt.Errorf("kind %q, want Node", n.Kind)
		}
		out = append(out, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// nodesOf is the nodes (by name, sorted) that can use the device, as the allocator's
// GatherPools and NodeMatches decide it (a slice's nodeName, allNodes or nodeSelector, or with
// perDeviceNodeSelection the device's own), and whether a node selector decides it.
func nodesOf(s *resourcev1.ResourceSlice, dev resourcev1.Device, nodes []*corev1.Node) (on []string, selector bool, err error) {
	name, all, sel := ptr.Deref(s.Spec.NodeName, ""), ptr.Deref(s.Spec.AllNodes, false), s.Spec.NodeSelector
	if ptr.Deref(s.Spec.PerDeviceNodeSelection, false) {
		name, all, sel = ptr.Deref(dev.NodeName, ""), ptr.Deref(dev.AllNodes, false), dev.NodeSelector
	}
	for _, n := range nodes {
		ok := false
		switch {
		case name != "":
			ok = n.Name == name
		case all:
			ok = true
		case sel != nil:
			ns, err := nodeaffinity.NewNodeSelector(sel)
			if err != nil {
				return nil, false, err
			}
			ok = ns.Match(n)
		}
		if ok {
			on = append(on, n.Name)
		}
	}
	sort.Strings(on)
	return on, name == "" && !all && sel != nil, nil
}

func TestNodesAgreeWithKubernetes(t *testing.T) {
	ctx := context.Background()
	matcher := NewMatcher()
	dir := filepath.Join(RepoDir, "cluster", "testdata")
	data, err := os.ReadFile(filepath.Join(dir, "zones.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	nodesData, err := os.ReadFile(filepath.Join(dir, "zones-nodes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	k8s, err := DecodeSlices(data)
	if err != nil {
		t.Fatal(err)
	}
	// The same nodes with gpu-a tainted and gpu-b cordoned: the allocator does not look at them
	// (the scheduler's filters do), so the verdict stays; cluster places on the other nodes first.
	kept := strings.Replace(strings.Replace(string(nodesData), "  spec: {podCIDR: 10.244.1.0/24}",
		"  spec: {podCIDR: 10.244.1.0/24, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}", 1),
		"  spec: {podCIDR: 10.244.2.0/24}", "  spec: {podCIDR: 10.244.2.0/24, unschedulable: true}", 1)
	none := structured.AllocatedState{}
	claims, allocatable, alone, aloneOK := 0, 0, 0, 0
	for _, nodesData := range [][]byte{nodesData, []byte(kept)} {
		nodes, err := DecodeNodes(nodesData)
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) != 4 {
			t.Fatalf("%d nodes decoded, want 4", len(nodes))
		}
		for _, n := range []int{1, 2, 3, 4, 5, 6} {
			for _, size := range []struct {
				paramsB float64
				quant   string
			}{{7, "F16"}, {70, "Q4_K_M"}, {70, "F16"}} {
				tg := target.Default()
				tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.Count = size.paramsB, size.quant, 10, fit.DriverLlmfit, n
				r, m, alts, ok := oneRequestToCheck(t, tg)
				if !ok {
					continue
				}
				what := "zones × " + claimLabel(tg)
				rep, err := cluster.CheckInputs(&r.Bounds, cluster.Inputs{Slices: data, Nodes: nodesData})
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if err := agreeDevicesOnNodes(ctx, matcher, alts, k8s, rep, nil, nodes); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				byNode, err := AllocateOnNodes(ctx, m, k8s, none, nodes)
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
					// The node cluster names is one the allocator allocates on. Which devices it
					// picks there varies: it walks the node's pools in Go map order (GatherPools), so
					// only the counters tests, with one pool a node, compare the very devices.
					node, want := picked(rep.Placement)
					if byNode[node] == nil || len(want) != tg.Count {
						t.Fatalf("%s: cluster %q; the allocator on %s: %v", what, rep.Placement, node, byNode[node])
					}
				}
				if n != 1 {
					continue
				}
				// Every device alone: the allocator places it on exactly the nodes cluster says
				// reach it (a matching node-selector device on its Nodes, a named node's device on
				// that node, an all-nodes device everywhere), and nowhere when it does not match.
				for _, d := range rep.Devices {
					only := onlyDevice(k8s, d, func(string, string, string) bool { return false })
					got, err := AllocateOnNodes(ctx, m, only, none, nodes)
					if err != nil {
						t.Fatalf("%s, %s alone: %v", what, d.Device, err)
					}
					var on []string
					for _, node := range nodes {
						if got[node.Name] != nil {
							on = append(on, node.Name)
						}
					}
					sort.Strings(on)
					var want []string
					if d.Matches {
						switch {
						case d.Nodes != nil:
							want = d.Nodes
						case d.Node == cluster.AllNodes:
							for _, node := range nodes {
								want = append(want, node.Name)
							}
							sort.Strings(want)
						default:
							want = []string{d.Node}
						}
					}
					if !slices.Equal(on, want) {
						t.Fatalf("%s: %s alone: the allocator places it on %q, cluster on %q (matches %v, %q)", what, d.Device, on, want, d.Matches, d.Reasons)
					}
					alone++
					if len(on) > 0 {
						aloneOK++
					}
				}
			}
		}
	}
	// Both verdicts, and devices placed and not, must occur.
	if claims == 0 || allocatable == 0 || allocatable == claims || aloneOK == 0 || aloneOK == alone {
		t.Fatalf("%d claims (%d allocatable); %d devices alone (%d placed)", claims, allocatable, alone, aloneOK)
	}
	t.Logf("%d claims on 4 nodes (and with two of them kept off) agree (%d allocatable); %d devices alone agree (%d placed somewhere)", claims, allocatable, alone, aloneOK)
	readmeFigure(t, `([0-9,]+) claims and [0-9,]+ devices alone, on all 4 nodes`, claims)
	readmeFigure(t, `claims and ([0-9,]+) devices alone, on all 4 nodes`, alone)
}
