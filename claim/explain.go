package claim

import (
	"github.com/fitclaim/fitclaim/target"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// Explanation is a render result in words, for the page (through the bridge): the engine
// explains itself, so every surface says the same thing and the page writes no prose.
type Explanation struct {
	Summary string // "ResourceClaim x-fit: a device with ≥ 8 Gi of memory and ≥ 148 GB/s of bandwidth, from device class llmfit.ai."
	Verdict string // "12 of 40 catalog accelerators meet both floors; 1 of them is one this claim's driver can select."
	Split   *Split // when no accelerator meets the floors as asked: the fewest devices that would
	Lines   []Line // every number of the claim explained: the claim header's lines, unwrapped
	Matches string // what the table of accelerators shows
}

// Split proposes more devices of one product when nothing meets the floors as asked.
type Split struct {
	Count       int    // devices of Accelerator that would meet both floors
	Accelerator string // its name
	Text        string // "No single device meets both floors; 2 × NVIDIA L40S would."
}

// Line is one explained number: a label ("Memory floor") and its words.
type Line struct{ Label, Text string }

// lineLabels names the claim header's lines in words.
var lineLabels = map[string]string{
	"model": "Model", "params": "Parameter count", "kv": "KV cache", "fit": "Speed", "memory": "Memory floor", "split": "Split", "driver": "Driver",
}

// Explain puts a render result into words.
func Explain(r *Result) Explanation {
	b := &r.Bounds
	t := &b.Target
	kind := "ResourceClaim"
	if t.Template {
		kind = "ResourceClaimTemplate"
	}
	each := "a device with "
	if t.Count > 1 {
		each = strconv.Itoa(t.Count) + " devices, each with "
	}
	floors := "≥ " + b.MemoryFloorText() + " of memory and ≥ " + strconv.FormatInt(b.MinBandwidthGBs, 10) + " GB/s of bandwidth"
	if !b.Driver.Bandwidth && !b.Driver.ProductList && b.Driver.Name != fit.DriverAny { // as deviceLines says: the claim asks memory only
		floors = "≥ " + b.MemoryFloorText() + " of memory (the ≥ " + strconv.FormatInt(b.MinBandwidthGBs, 10) +
			" GB/s bandwidth floor is not enforced: " + b.Driver.Domain + " publishes no bandwidth)"
	}
	classes := "device class " + b.DeviceClass
	if alts := Alternatives(b); len(alts) > 1 { // driver any: firstAvailable, in order
		var names []string
		for _, a := range alts {
			names = append(names, a.DeviceClass)
		}
		classes = "device class " + strings.Join(names, ", else ")
	}
	e := Explanation{
		Summary: kind + " " + r.Name + ": " + each + floors + ", from " + classes + ".",
		Verdict: verdict(r.Matches, t.Count),
		Matches: "Every accelerator of the catalog, best first. Estimated tok/s is the speed on " + plural(t.Count, "device") +
			" of that product, whole at 10 and above and to a tenth below (an estimate: within ±25 % on 89 % of measured runs), " +
			"with more decimals only where they tell it from your target; headroom is how far that speed is above your " + compact(t.MinTps) +
			" tok/s; devices needed is the fewest of that product (up to " + strconv.Itoa(target.MaxCount) + ") that meet both floors.",
	}
	if p, ok := SplitProposal(r.Matches); ok {
		e.Split = &Split{Count: p.DevicesNeeded, Accelerator: p.Accelerator.Name,
			Text: "No " + devicesWord(t.Count) + " meets both floors; " + strconv.Itoa(p.DevicesNeeded) + " × " + p.Accelerator.Name + " would."}
	}
	for _, l := range explainLines(b) {
		label, text, _ := strings.Cut(l, ":")
		if words, ok := lineLabels[label]; ok {
			e.Lines = append(e.Lines, Line{Label: words, Text: strings.TrimSpace(text)})
		} else {
			e.Lines = append(e.Lines, Line{Text: l})
		}
	}
	return e
}

// verdict counts the accelerators that meet both floors, and those the claim's driver selects.
func verdict(matches []fit.Match, count int) string {
	fitting, selected := 0, 0
	for i := range matches {
		if matches[i].Fits() {
			fitting++
			if matches[i].Selected {
				selected++
			}
		}
	}
	s := strconv.Itoa(fitting) + " of " + strconv.Itoa(len(matches)) + " catalog accelerators meet both floors"
	if count > 1 {
		s += " with " + strconv.Itoa(count) + " devices"
	}
	if selected == fitting {
		return s + "."
	}
	if selected == 1 {
		return s + "; 1 of them is one this claim's driver can select."
	}
	return s + "; " + strconv.Itoa(selected) + " of them are ones this claim's driver can select."
}

// SplitProposal is the product the claim's driver can select that needs the fewest devices when
// none it can select meets the floors as asked; ok is false when one does, or when none would
// even with target.MaxCount.
func SplitProposal(matches []fit.Match) (best fit.Match, ok bool) {
	for _, m := range matches {
		if m.Selectable && m.Fits() {
			return fit.Match{}, false
		}
		if m.Selectable && m.DevicesNeeded > 0 && (!ok || m.DevicesNeeded < best.DevicesNeeded) {
			best, ok = m, true
		}
	}
	return best, ok
}

func devicesWord(count int) string {
	if count == 1 {
		return "single device"
	}
	return "set of " + strconv.Itoa(count) + " devices"
}
