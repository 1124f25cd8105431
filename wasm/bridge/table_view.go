package bridge

import (
	"sync"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// The page's form of the accelerator table (fitclaim.render(target, {columns: true})): the
// matches as columns instead of one object per accelerator, and each accelerator's own facts
// (name, vendor, memory, bandwidth: the same on every render) sent once, by
// fitclaim.accelerators(). The 129 match objects were 51 of a render's 55 KB of JSON, written in
// Go and parsed again in JavaScript on every keystroke, and the slow tail of the page's renders;
// as columns they are about a sixth of that, and a column of numbers parses into one array.

// Bits of the table's "flags" column.
const (
	flagFitsMemory    = 1
	flagFitsBandwidth = 2
	flagSelected      = 4
	flagSelectable    = 8
)

// AcceleratorsJSON is the catalog's accelerators in catalog order, as the matches of a render
// spell their facts: the table's "accelerator" column indexes this list. It never changes while
// the program runs, so it is written once.
var AcceleratorsJSON = sync.OnceValue(func() string {
	var w jsontext.Writer
	w.BeginArray()
	for i := range catalog.Accelerators() {
		writeAccelerator(&w, &catalog.Accelerators()[i])
	}
	w.EndArray()
	return w.String()
})

// writeAccelerator writes an accelerator's own facts as an object.
func writeAccelerator(w *jsontext.Writer, a *catalog.Accelerator) {
	w.BeginObject()
	writeAcceleratorFields(w, a)
	w.EndObject()
}

// writeAcceleratorFields writes an accelerator's own facts, also the first members of a match
// object.
func writeAcceleratorFields(w *jsontext.Writer, a *catalog.Accelerator) {
	str(w, "id", a.ID)
	str(w, "name", a.Name)
	str(w, "vendor", a.Vendor)
	str(w, "driver", a.Driver)
	str(w, "productName", a.ProductName)
	num(w, "memoryGiB", float64(a.MemoryMiB)/1024)
	boolean(w, "memoryExact", a.MemoryExact)
	num(w, "bandwidthGBs", a.BandwidthGBs)
}

// writeTable writes the matches as "table": columns of one entry per match, best first (the
// order of "matches"): accelerator (index into fitclaim.accelerators()), flags (fitsMemory 1,
// fitsBandwidth 2, selected 4, selectable 8), estTps, headroomPct, devicesNeeded, verdict
// (index into verdicts, the render's distinct verdicts), freeGi, why, and neededTps and
// neededMemoryGi and neededMemoryMi (0 where the match object leaves them out). The figures are the match
// objects' own: the speeds and headroom as printed (fit.RoundSpeed, fit.RoundHeadroom: the page
// prints them as they come), the rest unrounded.
func writeTable(w *jsontext.Writer, b *fit.Bounds, r *claim.Result) {
	ms := r.Matches
	used := b.Parts().Total()
	column := func(name string, each func(m *fit.Match)) {
		w.Key(name)
		w.BeginArray()
		for i := range ms {
			each(&ms[i])
		}
		w.EndArray()
	}
	w.Key("table")
	w.BeginObject()
	column("accelerator", func(m *fit.Match) { w.Int(int64(m.Index)) })
	column("flags", func(m *fit.Match) { w.Int(flags(b, m)) })
	minTps := b.Target.MinTps
	column("estTps", func(m *fit.Match) { w.Num(fit.RoundSpeed(m.EstTps, minTps)) })
	column("headroomPct", func(m *fit.Match) { w.Num(fit.RoundHeadroom(m.EstTps, minTps)) })
	column("devicesNeeded", func(m *fit.Match) { w.Int(int64(m.DevicesNeeded)) })
	// The verdicts are a handful of sentences ("fits on one device", "too slow"): each once.
	var verdicts []string
	column("verdict", func(m *fit.Match) {
		k := 0
		for k < len(verdicts) && verdicts[k] != m.Verdict {
			k++
		}
		if k == len(verdicts) {
			verdicts = append(verdicts, m.Verdict)
		}
		w.Int(int64(k))
	})
	w.Key("verdicts")
	w.Strs(verdicts)
	column("freeGi", func(m *fit.Match) { w.Num(float64(m.Accelerator.MemoryMiB)/1024 - used) })
	var why []byte
	column("why", func(m *fit.Match) {
		why = appendWhy(why[:0], b, m, b.Selectable(m.Accelerator))
		w.StrBytes(why)
	})
	column("neededTps", func(m *fit.Match) { w.Num(fit.RoundSpeed(m.NeededTps, minTps)) })
	column("neededMemoryGi", func(m *fit.Match) { w.Int(m.NeededMemoryGi) })
	column("neededMemoryMi", func(m *fit.Match) { w.Int(m.NeededMemoryMi) })
	w.EndObject()
}

func flags(b *fit.Bounds, m *fit.Match) int64 {
	var f int64
	if m.FitsMemory {
		f |= flagFitsMemory
	}
	if m.FitsBandwidth {
		f |= flagFitsBandwidth
	}
	if m.Selected {
		f |= flagSelected
	}
	if b.Selectable(m.Accelerator) {
		f |= flagSelectable
	}
	return f
}
