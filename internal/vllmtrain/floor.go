package vllmtrain

import (
	"fmt"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// FloorRow is the memory floor for one logged start-up: fit.VLLMFloorGiB for one request of the
// row's --max-model-len at its utilization, from its logged weights, against its logged device.
type FloorRow struct {
	Row      *Row
	FloorGiB float64
	// Agrees: a start-up that held a request of --max-model-len (status ok) had at least the
	// floor; one that failed for want of KV cache had less.
	Agrees bool
}

// Floors checks the claim's memory floor against every V1 start-up of one pipeline stage that
// logs its device, utilization, weights and --max-model-len, with a modelled KV layout.
func Floors(rows []Row) []FloorRow {
	var out []FloorRow
	for i := range rows {
		r := &rows[i]
		if !r.V1() || r.PP > 1 || !r.Arch.HasCache() || r.MaxModelLen == 0 {
			continue
		}
		in, ok := r.Input()
		if !ok {
			continue
		}
		f := fit.VLLMFloorGiB(in, r.MaxModelLen, 1)
		out = append(out, FloorRow{Row: r, FloorGiB: f, Agrees: (f <= r.Total) == (r.Status == "ok")})
	}
	return out
}

// FloorTable prints Floors and how many agree with their logs.
func FloorTable(fs []FloorRow) string {
	var b strings.Builder
	b.WriteString("memory floor (one request of --max-model-len, the row's utilization and logged weights) against the logged device:\n")
	ok := 0
	for _, f := range fs {
		mark := ""
		if f.Agrees {
			ok++
		} else {
			mark = "!"
		}
		fmt.Fprintf(&b, "  %-8s floor %6.2f GiB, device %6.2f GiB, util %.3f, max-model-len %6d: %s%s\n",
			f.Row.ID, f.FloorGiB, f.Row.Total, f.Row.Util, f.Row.MaxModelLen, short(f.Row.Status, 40), mark)
	}
	fmt.Fprintf(&b, "floor on the side of the log (started: floor ≤ device; failed: floor > device): %s\n", share(ok, len(fs)))
	return b.String()
}
