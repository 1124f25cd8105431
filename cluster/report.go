package cluster

import (
	"encoding/json"
	"strings"
	"text/tabwriter"
)

// JSON is the report as `fitclaim check --json` and POST /api/v1/check print it:
// {"allocatable": bool, "devices": [{"node", "driver", "pool", "device", "matches", "request",
// "reasons"}]}, indented, with a final newline; with the workload's pod given, also
// "excludedNodes": [{"node", "why"}], the nodes it cannot be scheduled to.
func (r *Report) JSON() string {
	b, err := json.MarshalIndent(struct {
		Allocatable   bool           `json:"allocatable"`
		Devices       []DeviceResult `json:"devices"`
		ExcludedNodes []ExcludedNode `json:"excludedNodes,omitempty"`
	}{r.Allocatable, r.Devices, r.ExcludedNodes}, "", "  ")
	if err != nil { // strings, bools and slices of them always marshal
		panic("cluster: " + err.Error())
	}
	return string(b) + "\n"
}

// Table is the report for a person: one row per device, then the verdict and the assumptions.
func (r *Report) Table() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	w.Write([]byte("NODE\tDRIVER\tPOOL\tDEVICE\tMATCH\tREQUEST OR WHY NOT\n"))
	for _, d := range r.Devices {
		match, why := "no", strings.Join(d.Reasons, "; ")
		if d.Matches {
			match, why = "yes", d.Request
			if d.Share != "" {
				why += "; " + d.Share
			}
		}
		w.Write([]byte(tabSafe(nodeCell(d)) + "\t" + tabSafe(d.Driver) + "\t" + tabSafe(d.Pool) + "\t" + tabSafe(d.Device) + "\t" + match + "\t" + tabSafe(why) + "\n"))
	}
	w.Flush()
	b.WriteString("\n" + r.Placement + "\n")
	for _, n := range r.Notes {
		b.WriteString("note: " + n + "\n")
	}
	return b.String()
}

// tabSafe keeps a value from a pasted slice on its own cell and line.
func tabSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r < ' ' {
			return ' '
		}
		return r
	}, s)
}

// nodeCell is the NODE column: where the device is published, and for a node-selector device
// placed on the nodes given, the first of those nodes ("nodes matching zone In (a): gpu-a, gpu-b").
func nodeCell(d DeviceResult) string {
	const shown = 3
	if len(d.Nodes) == 0 {
		return d.Node
	}
	s := d.Node + ": " + strings.Join(d.Nodes[:min(len(d.Nodes), shown)], ", ")
	if len(d.Nodes) > shown {
		s += " and " + itoa(len(d.Nodes)-shown) + " more"
	}
	return s
}
