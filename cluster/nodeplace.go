package cluster

import (
	"sort"
	"strconv"
)

// maxListedNodes bounds DeviceResult.Nodes: a selector over a large cluster's nodes, written out
// for each of its devices, would swamp the report.
const maxListedNodes = 100

// reachability is the nodes given, and which of them each device is on: its nodeName's node,
// every node for allNodes, and the nodes its node selector selects (by their labels and name,
// as the allocator's GatherPools and NodeMatches do). Without it, each selector is a group of
// nodes of its own (nodeGroups).
type reachability struct {
	nodes  []Node // by name
	byName map[string]bool
	sels   map[*NodeSelector][]int // the nodes (indexes) each selector selects, computed once
}

func newReachability(nodes []Node) *reachability {
	r := &reachability{nodes: append([]Node{}, nodes...), byName: map[string]bool{}, sels: map[*NodeSelector][]int{}}
	sort.Slice(r.nodes, func(i, j int) bool { return r.nodes[i].Name < r.nodes[j].Name })
	for _, n := range r.nodes {
		r.byName[n.Name] = true
	}
	return r
}

// selects is the nodes the selector selects, as indexes into r.nodes.
func (r *reachability) selects(s *NodeSelector) []int {
	if got, ok := r.sels[s]; ok {
		return got
	}
	got := []int{}
	for i := range r.nodes {
		if s.Matches(&r.nodes[i]) {
			got = append(got, i)
		}
	}
	r.sels[s] = got
	return got
}

// given says "the N nodes given" (or "the one node given").
func (r *reachability) given() string {
	if len(r.nodes) == 1 {
		return "the one node given"
	}
	return "the " + strconv.Itoa(len(r.nodes)) + " nodes given"
}

// of is the nodes a selector device is on (nil for other devices), and why no node given
// reaches the device ("" when one does).
func (r *reachability) of(d *Device) (names []string, nowhere string) {
	switch {
	case d.Selector != nil:
		on := r.selects(d.Selector)
		if len(on) == 0 {
			return nil, "on no node: its node selector selects none of " + r.given()
		}
		for _, i := range on[:min(len(on), maxListedNodes)] {
			names = append(names, r.nodes[i].Name)
		}
		return names, ""
	case d.Node == AllNodes:
		if len(r.nodes) == 0 {
			return nil, "on no node: the nodes given are none"
		}
		return nil, ""
	case !r.byName[d.Node]:
		return nil, "on no node: node " + d.Node + " is not among " + r.given()
	}
	return nil, ""
}

// groups are the devices each node given can use, as the allocator gathers them for that node:
// those published for it by name, then those for all nodes and those whose node selector
// selects it. Nodes a pod without tolerations can be scheduled to come first, then the
// cordoned and tainted ones (the allocator does not look at them, the scheduler's filters
// keep such a pod off them), each by name. Nodes without devices of their own that reach the
// same selectors, and are alike kept off or not, can use the same devices: only the first of
// them is tried.
func (r *reachability) groups(devs []DeviceResult) []nodeGroup {
	own := map[string][]int{}
	var floating []int // allNodes and node-selector devices
	var sels []*NodeSelector
	selIndex := map[*NodeSelector]int{}
	for i, d := range devs {
		switch {
		case d.selector != nil:
			floating = append(floating, i)
			if _, ok := selIndex[d.selector]; !ok {
				selIndex[d.selector] = len(sels)
				sels = append(sels, d.selector)
			}
		case d.Node == AllNodes:
			floating = append(floating, i)
		default:
			own[d.Node] = append(own[d.Node], i)
		}
	}
	// selected[k][n]: selector k selects node n.
	selected := make([]map[int]bool, len(sels))
	for k, s := range sels {
		selected[k] = map[int]bool{}
		for _, n := range r.selects(s) {
			selected[k][n] = true
		}
	}
	order := make([]int, 0, len(r.nodes)) // schedulable nodes first, each part by name
	for _, keptOff := range []bool{false, true} {
		for n := range r.nodes {
			if (r.nodes[n].keepsOff() != "") == keptOff {
				order = append(order, n)
			}
		}
	}
	tried := map[string]bool{}
	var out []nodeGroup
	for _, n := range order {
		node := &r.nodes[n]
		keptOff := node.keepsOff()
		sig := make([]byte, len(sels), len(sels)+1)
		for k := range sels {
			if selected[k][n] {
				sig[k] = 1
			}
		}
		if keptOff != "" {
			sig = append(sig, 1)
		}
		if len(own[node.Name]) == 0 {
			if tried[string(sig)] {
				continue
			}
			tried[string(sig)] = true
		}
		devices := append([]int{}, own[node.Name]...)
		for _, i := range floating {
			if s := devs[i].selector; s == nil || sig[selIndex[s]] == 1 {
				devices = append(devices, i)
			}
		}
		if len(devices) > 0 {
			out = append(out, nodeGroup{name: node.Name, devices: devices, keptOff: keptOff})
		}
	}
	return out
}

// nodeNotes say how the devices were placed on nodes.
func nodeNotes(devs []DeviceResult, r *reachability) []string {
	if r != nil {
		n := []string{"placed on " + r.given() + ": their labels and names resolve the slices' node selectors; the pod's own node selector and affinity are not weighed"}
		kept := 0
		for i := range r.nodes {
			if r.nodes[i].keepsOff() != "" {
				kept++
			}
		}
		if kept > 0 {
			n = append(n, itoa(kept)+" of "+r.given()+" are cordoned or tainted NoSchedule or NoExecute: the claim is placed on the others first, as a pod that tolerates nothing (fitclaim deploy's) is scheduled only there")
		}
		return n
	}
	for _, d := range devs {
		if d.selector != nil {
			return []string{"without the cluster's nodes (kubectl get nodes -o yaml), each node selector's devices are taken as a group of nodes of their own, and every node a slice names is taken to exist"}
		}
	}
	return nil
}
