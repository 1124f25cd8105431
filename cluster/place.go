package cluster

import (
	"sort"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
)

// nodeGroup is the devices one node can use: those published for it by name, and those for all
// nodes. A node selector's devices form their own group (the nodes' labels are not in the
// slices), as do all-nodes devices when no slice names a node.
type nodeGroup struct {
	name    string
	devices []int // indexes into the report's devices
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
func place(alts []claim.Alternative, devs []DeviceResult) (bool, string) {
	groups := nodeGroups(devs)
	if len(groups) == 0 {
		return false, "no devices in the slices"
	}
	bestN, bestAt := 0, ""
	for _, g := range groups {
		for i, alt := range alts {
			picked := pick(alt, i, g, devs)
			if len(picked) >= alt.Count {
				return true, "allocatable " + where(g.name) + ": " + alt.Request + " gets " + strings.Join(picked[:alt.Count], ", ")
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
	busy := 0
	for _, d := range devs {
		if d.busy {
			busy++
		}
	}
	if bestN == 0 && busy > 0 {
		return false, "not allocatable: the claim needs " + what + " and no free device matches (" + itoa(busy) + " that would are allocated to other claims)"
	}
	if bestN == 0 {
		return false, "not allocatable: the claim needs " + what + " and no device matches"
	}
	tail := ""
	if busy > 0 {
		tail = " (" + itoa(busy) + " more that would match are allocated to other claims)"
	}
	return false, "not allocatable: the claim needs " + what + "; the most is " + itoa(bestN) + " " + bestAt + tail
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

// pick lists the group's devices the alternative can take: the largest set sharing the
// MatchAttribute value when the alternative has one (a device without it cannot join).
func pick(alt claim.Alternative, i int, g nodeGroup, devs []DeviceResult) []string {
	if alt.MatchAttribute == "" {
		var out []string
		for _, k := range g.devices {
			if devs[k].Alternatives[i] {
				out = append(out, devs[k].Device)
			}
		}
		return out
	}
	domain, id, _ := strings.Cut(alt.MatchAttribute, "/")
	byValue := map[Attribute][]string{}
	var order []Attribute
	for _, k := range g.devices {
		d := &devs[k]
		if !d.Alternatives[i] {
			continue
		}
		v, ok := lookup(d.attributes, d.Driver, domain, id)
		if !ok {
			continue
		}
		if _, ok := byValue[v]; !ok {
			order = append(order, v)
		}
		byValue[v] = append(byValue[v], d.Device)
	}
	var best []string
	for _, v := range order {
		if len(byValue[v]) > len(best) {
			best = byValue[v]
		}
	}
	return best
}
