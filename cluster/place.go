package cluster

import (
	"sort"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
)

// nodeGroup is the devices one node can use: those published for it by name, and those for all
// nodes. Without the cluster's nodes, a node selector's devices form their own group (the nodes'
// labels are not in the slices), as do all-nodes devices when no slice names a node; with them,
// reachability.groups places every device on the real nodes it reaches.
type nodeGroup struct {
	name    string
	devices []int  // indexes into the report's devices
	keptOff string // why a pod without tolerations is not scheduled there ("" when it is)
}

func nodeGroups(devs []DeviceResult) []nodeGroup {
	var all []int
	byNode := map[string][]int{}
	for i, d := range devs {
		if d.Node == AllNodes {
			all = append(all, i)
		} else {
			byNode[d.Node] = append(byNode[d.Node], i)
		}
	}
	names := make([]string, 0, len(byNode))
	for n := range byNode {
		names = append(names, n)
	}
	sort.Strings(names) // named nodes first, then "nodes matching …"
	var out []nodeGroup
	for _, n := range names {
		out = append(out, nodeGroup{name: n, devices: append(append([]int{}, byNode[n]...), all...)})
	}
	if len(out) == 0 && len(all) > 0 {
		out = append(out, nodeGroup{name: AllNodes, devices: all})
	}
	return out
}

// place decides whether the claim can be allocated: for some node, the first alternative (in
// order) that finds Count free devices there, all sharing the MatchAttribute value when it has one.
// It says where, or the nearest miss, in words.
func place(alts []claim.Alternative, devs []DeviceResult, groups []nodeGroup, reach *reachability) (ok bool, placement string, cut bool) {
	if len(groups) == 0 && reach != nil && len(devs) > 0 {
		if n := reach.excludedCount(); n > 0 {
			return false, "not allocatable: no device is on a node the pod can be scheduled to (it cannot be scheduled to " + itoa(n) + " of " + reach.given() + ")", false
		}
		return false, "not allocatable: no device is on any of " + reach.given(), false
	}
	if len(groups) == 0 {
		return false, "no devices in the slices", false
	}
	bestN, bestAt := 0, ""
	steps := 0 // the search's budget is for the whole placement, every node and alternative
	for _, g := range groups {
		for i, alt := range alts {
			picked, c := pick(alt, i, g, devs, &steps)
			cut = cut || c
			if len(picked) >= alt.Count {
				placed := "allocatable " + where(g.name) + ": " + alt.Request + " gets " + strings.Join(picked[:alt.Count], ", ")
				if g.keptOff != "" {
					placed += "; the node is " + g.keptOff + ": only a pod that tolerates it is scheduled there (fitclaim deploy's pods tolerate nothing)"
				}
				return true, placed, cut
			}
			if len(picked) > bestN {
				bestN, bestAt = len(picked), where(g.name)
			}
		}
	}
	count := alts[0].Count
	what := "a matching device"
	if count > 1 {
		what = itoa(count) + " matching devices"
		if alts[len(alts)-1].MatchAttribute != "" || alts[0].MatchAttribute != "" {
			what += " (NVIDIA: of one productName)"
		}
		what += " on one node"
	}
	busy, spent, full := 0, 0, 0
	for _, d := range devs {
		if d.busy {
			busy++
		}
		if d.spent {
			spent++
		}
		if d.full {
			full++
		}
	}
	spentTail := ""
	if reach != nil && reach.excludedCount() > 0 { // said first: it is the pod's choice, not the cluster's
		spentTail = "; the pod cannot be scheduled to " + itoa(reach.excludedCount()) + " of " + reach.given() + " (the notes say why)"
	}
	if spent > 0 {
		spentTail = " (" + itoa(spent) + " more that would match have their shared counters used up by devices other claims hold)"
	}
	if full > 0 {
		spentTail += " (" + itoa(full) + " more that would match are shared devices whose capacity other claims' shares have taken)"
	}
	if bestN == 0 && busy > 0 {
		return false, "not allocatable: the claim needs " + what + " and no free device matches (" + itoa(busy) + " that would are allocated to other claims)" + spentTail, cut
	}
	if bestN == 0 {
		return false, "not allocatable: the claim needs " + what + " and no device matches" + spentTail, cut
	}
	tail := ""
	if busy > 0 {
		tail = " (" + itoa(busy) + " more that would match are allocated to other claims)"
	}
	return false, "not allocatable: the claim needs " + what + "; the most is " + itoa(bestN) + " " + bestAt + tail + spentTail, cut
}

func where(group string) string {
	if group == AllNodes {
		return "on any node"
	}
	if strings.HasPrefix(group, nodeSelectorWord) {
		return "on " + group
	}
	return "on node " + group
}

// pick lists the group's devices the alternative takes: Count of them when it can, else as many
// as it can, all sharing the MatchAttribute value when it has one (a device without it cannot
// join), and none drawing more from a pool's shared counters than they have left. cut says the
// search stopped at its step budget.
func pick(alt claim.Alternative, i int, g nodeGroup, devs []DeviceResult, steps *int) (picked []string, cut bool) {
	var cands []int
	for _, k := range g.devices {
		if devs[k].Alternatives[i] {
			cands = append(cands, k)
		}
	}
	if alt.MatchAttribute == "" {
		return search(devs, cands, alt.Count, steps)
	}
	domain, id, _ := strings.Cut(alt.MatchAttribute, "/")
	byValue := map[Attribute][]int{}
	var order []Attribute
	for _, k := range cands {
		d := &devs[k]
		v, ok := lookup(d.attributes, d.Driver, domain, id)
		if !ok {
			continue
		}
		if _, ok := byValue[v]; !ok {
			order = append(order, v)
		}
		byValue[v] = append(byValue[v], k)
	}
	var best []string
	for _, v := range order {
		got, c := search(devs, byValue[v], alt.Count, steps)
		cut = cut || c
		if len(got) >= alt.Count {
			return got, cut
		}
		if len(got) > len(best) {
			best = got
		}
	}
	return best, cut
}

// maxSearchSteps bounds the placement search: devices tried, over all backtracking, nodes and
// alternatives (the scheduler bounds the allocator by time instead). 100,000 tries take about
// 0.3 s natively on a loaded machine; only counter-consuming devices that cannot all fit
// together make the search branch at all.
const maxSearchSteps = 100000

// search picks need of the candidates (device indexes, in the allocator's order) as the
// allocator does: each in turn if the shared counters left cover it after the earlier picks,
// backtracking when a later pick finds none, so it finds the first combination in that order
// that fits. Without one it returns the most it found. Devices that consume no counters always
// fit, so without counters this is the first need candidates.
func search(devs []DeviceResult, cands []int, need int, steps *int) (picked []string, cut bool) {
	var cur, best []int
	spent := drawn{}
	var try func(from int) bool
	try = func(from int) bool {
		if len(cur) > len(best) {
			best = append(best[:0], cur...)
		}
		if len(cur) >= need {
			return true
		}
		for j := from; j < len(cands); j++ {
			if len(cur)+len(cands)-j <= len(best) { // cannot beat the best, which is short of need
				return false
			}
			if *steps++; *steps > maxSearchSteps {
				cut = true
				return false
			}
			d := &devs[cands[j]]
			if d.counters.short(d.pool, d.consumes, spent) != "" {
				continue
			}
			spent.add(d.pool, d.consumes)
			cur = append(cur, cands[j])
			if try(j + 1) {
				return true
			}
			cur = cur[:len(cur)-1]
			spent.remove(d.pool, d.consumes)
			if cut {
				return false
			}
		}
		return false
	}
	try(0)
	for _, k := range best {
		picked = append(picked, devs[k].Device)
	}
	return picked, cut
}
