package bridge

import (
	"github.com/fitclaim/fitclaim/target"
	"math"
	"strconv"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// The parts of a render result only the page shows: the render in words (claim.Explain), the
// memory picture, and each accelerator's row in words. The page draws and writes them as they
// are; it computes no figure and writes no sentence of its own.

// writeDriverNote: for the llmfit.ai class (which no real cluster has) one line saying so, and
// the driver to switch to ("driverNote", "driverSwitch"; absent for the other drivers).
func writeDriverNote(w *jsontext.Writer, b *fit.Bounds) {
	if b.Driver.Name == fit.DriverLlmfit {
		str(w, "driverNote", "The llmfit.ai device class belongs to llmfit's own DRA driver, which clusters do not run; NVIDIA's driver (gpu.nvidia.com) is the one most have.")
		str(w, "driverSwitch", fit.DriverNVIDIA)
	}
}

// writeMemory writes "memory": what one device holds under the claim, in GiB, in the order the
// page stacks it; each match's freeGi is its memory left beside these.
func writeMemory(w *jsontext.Writer, b *fit.Bounds) {
	p := b.Parts()
	reserve := "runtime reserve"
	if b.Target.Sizing != target.SizingKV {
		reserve = "rest of llmfit's floor"
	}
	w.Key("memory")
	w.BeginObject()
	integer(w, "floorGi", b.MemoryGi)
	integer(w, "floorMi", b.MemoryMi)
	w.Key("parts")
	w.BeginArray()
	for _, part := range []struct {
		key, label string
		gi         float64
	}{{"weights", "weights", p.WeightsGiB}, {"kv", "KV cache", p.KVGiB}, {"reserve", reserve, p.ReserveGiB}} {
		w.BeginObject()
		str(w, "key", part.key)
		str(w, "label", part.label)
		num(w, "gi", part.gi)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
}

// writeMatchExtras writes a match's page-only fields: whether the claim's driver can select the
// product at all, why it falls short in words, its free memory under the claim, and for a
// product that needs more devices, the speed and per-device floor at that count. why is scratch
// space for the words, reused from match to match.
func writeMatchExtras(w *jsontext.Writer, b *fit.Bounds, m *fit.Match, used float64, why *[]byte) {
	a := m.Accelerator
	selectable := b.Selectable(a)
	boolean(w, "selectable", selectable)
	num(w, "freeGi", float64(a.MemoryMiB)/1024-used)
	*why = appendWhy((*why)[:0], b, m, selectable)
	w.Key("why")
	w.StrBytes(*why)
	if m.NeededTps > 0 {
		num(w, "neededTps", fit.RoundSpeed(m.NeededTps, b.Target.MinTps))
		integer(w, "neededMemoryGi", m.NeededMemoryGi)
		integer(w, "neededMemoryMi", m.NeededMemoryMi)
	}
}

// appendWhy appends why a product falls short, in words (nothing when nothing does): "needs
// 24 Gi, has 23.0; needs 1008 GB/s, has 936; the gpu.nvidia.com driver cannot select it". It
// writes into the caller's buffer: most rows of a demanding render fall short, and building
// each sentence from strings was a third of the bridge's time for such a render.
func appendWhy(dst []byte, b *fit.Bounds, m *fit.Match, selectable bool) []byte {
	start := len(dst)
	sep := func() {
		if len(dst) > start {
			dst = append(dst, "; "...)
		}
	}
	a := m.Accelerator
	if !m.FitsMemory {
		dst = append(dst, "needs "...)
		if b.MemoryWhole() {
			dst = strconv.AppendInt(dst, b.MemoryGi, 10)
			dst = append(dst, " Gi, has "...)
			// tenths rounded down, as the cluster check writes a device's memory: rounded, an RTX
			// 4080's 16,376 MiB read "needs 16 Gi, has 16.0"
			dst = strconv.AppendFloat(dst, math.Floor(float64(a.MemoryMiB)*10/1024)/10, 'f', 1, 64)
		} else { // a floor to the MiB (fit.MemoryFloorText), and the device's MiB beside it
			dst = append(dst, b.MemoryFloorText()...)
			dst = append(dst, ", has "...)
			dst = fit.AppendGrouped(dst, a.MemoryMiB)
			dst = append(dst, " Mi"...)
		}
	}
	if !m.FitsBandwidth {
		sep()
		dst = append(dst, "needs "...)
		dst = strconv.AppendInt(dst, b.BandwidthFloorFor(a), 10)
		dst = append(dst, " GB/s, has "...)
		dst = strconv.AppendFloat(dst, a.BandwidthGBs, 'f', -1, 64)
	}
	if !selectable {
		sep()
		dst = append(dst, "the "...)
		dst = append(dst, b.Driver.Domain...)
		dst = append(dst, " driver cannot select it"...)
	} else if m.FitsMemory && m.FitsBandwidth && !m.Selected {
		// the two ways a fitting device goes unpicked: the claim asks a memory share of a device
		// whose driver publishes no memory (the GB10), or NVIDIA's name for it is a slower
		// board's too (the RTX 3080's 10 and 12 GB) and the allow-list lists a name for its slowest
		if b.ShareUnavailable(a) {
			dst = append(dst, "its driver publishes no memory, so it cannot give the memory share the claim asks (capacityRequest)"...)
		} else {
			dst = append(dst, "its productName is a slower board's too, so the allow-list leaves it out"...)
		}
	}
	return dst
}
