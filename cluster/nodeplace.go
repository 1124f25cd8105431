package cluster

import (
	"sort"
	"strconv"
	"strings"
)

// maxListedNodes bounds DeviceResult.Nodes: a selector over a large cluster's nodes, written out
// for each of its devices, would swamp the report.
const maxListedNodes = 100

// reachability is the nodes given, and which of them each device is on: its nodeName's node,
// every node for allNodes, and the nodes its node selector selects (by their labels and name,
// as the allocator's GatherPools and NodeMatches do). Without it, each selector is a group of
// nodes of its own (nodeGroups).
type reachability struct {
	nodes  []Node                  // by name
	byName map[string]int          // index into nodes
	sels   map[*NodeSelector][]int // the nodes (indexes) each selector selects, computed once
	// pod is the workload's pod, when given; excluded[i] then says why it cannot be scheduled
	// to node i ("" when it can), and the claim is placed only on the other nodes.
	pod      *Pod
	excluded []string
	outCount int                     // how many of excluded are not ""
	podSels  map[*NodeSelector][]int // selects less those nodes, computed once
}

func newReachability(nodes []Node, pod *Pod) *reachability {
	r := &reachability{nodes: append([]Node{}, nodes...), byName: map[string]int{}, sels: map[*NodeSelector][]int{}, pod: pod, podSels: map[*NodeSelector][]int{}}
	sort.Slice(r.nodes, func(i, j int) bool { return r.nodes[i].Name < r.nodes[j].Name })
	for i, n := range r.nodes {
		r.byName[n.Name] = i
	}
	if pod != nil {
		r.excluded = make([]string, len(r.nodes))
		for i := range r.nodes {
			r.excluded[i] = strings.Join(pod.Excludes(&r.nodes[i]), "; ")
			if r.excluded[i] != "" {
				r.outCount++
			}
		}
	}
	return r
}

// out says whether the pod cannot be scheduled to node i.
func (r *reachability) out(i int) bool { return r.excluded != nil && r.excluded[i] != "" }

// keptOff says why a pod that tolerates nothing is not scheduled to node i, when the pod is
// not given ("" when it is, or the pod is given: its own tolerations decide, in excluded).
func (r *reachability) keptOff(i int) string {
	if r.pod != nil {
		return ""
	}
	return r.nodes[i].keepsOff()
}

// excludedNodes are the nodes the pod cannot be scheduled to, with why; nil without the nodes
// or the pod.
func (r *reachability) excludedNodes() []ExcludedNode {
	if r == nil || r.outCount == 0 {
		return nil
	}
	out := make([]ExcludedNode, 0, r.outCount)
	for i := range r.nodes {
		if r.out(i) {
			out = append(out, ExcludedNode{Node: r.nodes[i].Name, Why: r.excluded[i]})
		}
	}
	return out
}

// excludedCount is how many of the nodes the pod cannot be scheduled to.
func (r *reachability) excludedCount() int { return r.outCount }

// maxExcludedNoted bounds the nodes the report's note lists with why the pod is kept off them.
const maxExcludedNoted = 20

// maxExcludedListed bounds the nodes a message lists with why the pod is kept off them.
const maxExcludedListed = 3

// whyNot lists nodes (indexes) the pod cannot be scheduled to, each with why: "gpu-a
// (tainted …), gpu-b (…) and 2 more".
func (r *reachability) whyNot(nodes []int, most int) string {
	var parts []string
	for _, i := range nodes[:min(len(nodes), most)] {
		parts = append(parts, r.nodes[i].Name+" ("+r.excluded[i]+")")
	}
	s := strings.Join(parts, ", ")
	if len(nodes) > most {
		s += " and " + strconv.Itoa(len(nodes)-most) + " more"
	}
	return s
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

// selectsForPod is selects less the nodes the pod cannot be scheduled to, computed once.
func (r *reachability) selectsForPod(s *NodeSelector) []int {
	on := r.selects(s)
	if r.outCount == 0 {
		return on
	}
	if got, ok := r.podSels[s]; ok {
		return got
	}
	got := []int{}
	for _, i := range on {
		if !r.out(i) {
			got = append(got, i)
		}
	}
	r.podSels[s] = got
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
		in := r.selectsForPod(d.Selector) // the selected nodes the pod can be scheduled to
		if len(in) == 0 {
			return nil, podNowhere + ": its node selector selects only " + r.whyNot(on, maxExcludedListed)
		}
		for _, i := range in[:min(len(in), maxListedNodes)] {
			names = append(names, r.nodes[i].Name)
		}
		return names, ""
	case d.Node == AllNodes:
		if len(r.nodes) == 0 {
			return nil, "on no node: the nodes given are none"
		}
		if r.excludedCount() == len(r.nodes) {
			return nil, podNowhere + ": it can be scheduled to none of " + r.given()
		}
		return nil, ""
	}
	i, ok := r.byName[d.Node]
	switch {
	case !ok:
		return nil, "on no node: node " + d.Node + " is not among " + r.given()
	case r.out(i):
		return nil, podNowhere + ": node " + r.whyNot([]int{i}, 1)
	}
	return nil, ""
}

// podNowhere begins the reason of a device on no node the pod can be scheduled to.
const podNowhere = "on no node the pod can be scheduled to"

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
			if (r.keptOff(n) != "") == keptOff && !r.out(n) { // never a node the pod is kept off
				order = append(order, n)
			}
		}
	}
	tried := map[string]bool{}
	var out []nodeGroup
	for _, n := range order {
		node := &r.nodes[n]
		keptOff := r.keptOff(n)
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
	if r != nil && r.pod != nil {
		n := []string{"placed on " + r.given() + ": their labels and names resolve the slices' node selectors, and the pod (" + r.pod.Source + ") is placed only where its nodeSelector, required node affinity and tolerations let the scheduler put it"}
		var out []int
		for i := range r.nodes {
			if r.out(i) {
				out = append(out, i)
			}
		}
		if len(out) > 0 {
			n = append(n, "the pod cannot be scheduled to "+itoa(len(out))+" of "+r.given()+", so the claim is not placed there: "+r.whyNot(out, maxExcludedNoted))
		}
		return n
	}
	if r != nil {
		n := []string{"placed on " + r.given() + ": their labels and names resolve the slices' node selectors; the pod's own node selector, affinity and tolerations are not weighed (give the workload: --pod, the pod part or box)"}
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
