package fit

import (
	"cmp"
	"github.com/fitclaim/fitclaim/target"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/internal/smallsort"
)

// Match is one accelerator of the catalog judged against the bounds.
type Match struct {
	// The catalog's own entry (catalog.Accelerators()[Index]), shared and never written: a
	// render judges every accelerator, and a copy of each was most of what a render allocated.
	Accelerator   *catalog.Accelerator
	Index         int     // its place in catalog.Accelerators()
	FitsMemory    bool    // reported memory ≥ the memory floor (as the scheduler compares it)
	FitsBandwidth bool    // bandwidth ≥ the bandwidth floor
	Selected      bool    // the rendered claim's selector would pick this device
	Selectable    bool    // the claim's driver can select this product at all (Bounds.Selectable)
	EstTps        float64 // estimated decode tok/s (per sequence) on Count devices of this product
	HeadroomPct   float64 // EstTps over MinTps, minus 100 %
	DevicesNeeded int     // fewest devices of this product (≤ 8) that hold the model at the speed; 0 = none
	Verdict       string  // in words

	// When more devices than Count are needed: the speed on DevicesNeeded of them and the memory
	// floor of each (0 otherwise).
	NeededTps      float64
	NeededMemoryGi int64 // that floor rounded up to whole Gi
	NeededMemoryMi int64 // that floor (Bounds.MemoryMi)
}

// Fits reports whether the device meets both floors.
func (m *Match) Fits() bool { return m.FitsMemory && m.FitsBandwidth }

// fitsMemory compares in bytes, exactly as quantity.compareTo does in the scheduler:
// bytes ≥ memoryMi × 2^20, written as memoryMi ≤ the device's MiB (drivers publish whole MiB; the
// catalog keeps them) so that a huge floor cannot overflow the product and wrap around to "fits".
func fitsMemory(a *catalog.Accelerator, memoryMi int64) bool {
	return memoryMi <= a.MemoryBytes()>>20
}

// fitsBandwidth: the device meets the bandwidth floor it is judged on (Match.FitsBandwidth).
func (b *Bounds) fitsBandwidth(a *catalog.Accelerator) bool {
	return a.BandwidthGBs >= float64(b.BandwidthFloorFor(a))
}

// AnySelectableFits reports whether some accelerator the claim's driver can select meets both
// floors as asked: whether Matches(b) holds a Match that is Selectable and Fits, found without
// judging the whole catalog (no speed, no split, no verdict; it stops at the first). The
// claim's warnings read no more of the matches than this unless nothing fits (then they
// propose a device count, claim.SplitProposal); the API serves them on every answer, and all
// the matches were the largest part of a request in the edge worker.
func (b *Bounds) AnySelectableFits() bool {
	accs := catalog.Accelerators()
	for i := range accs {
		if a := &accs[i]; fitsMemory(a, b.MemoryMi) && b.fitsBandwidth(a) && b.Selectable(a) {
			return true
		}
	}
	return false
}

// Matches judges every accelerator of the catalog, best first: fitting devices before others,
// then by estimated speed.
func Matches(b Bounds) []Match { return AppendMatches(nil, b) }

// AppendMatches is Matches written into dst's array (from dst[:0]) when it holds the catalog's
// accelerators, else into a new one. The page's renders write their matches out and drop them:
// a fresh array each was half of what a render allocated (~10 of 26 KB), so Go collected twice
// as often, and a collection in a fresh page's render, its code not yet optimized, made some of
// the slowest (issue 10 §3).
func AppendMatches(dst []Match, b Bounds) []Match {
	accs := catalog.Accelerators()
	// First the sort keys only (fits, speed), then each Match built straight into its sorted
	// place: the Match structs (strings and all) are allocated once and never moved, where
	// building them in catalog order and copying into a sorted slice allocated them twice.
	type key struct {
		fitsMemory, fitsBandwidth bool
		estTps                    float64
	}
	// On the stack for the catalog's accelerators (144 now), with room to grow.
	var keysBuf [256]key
	var orderBuf [256]int
	keys, order := keysBuf[:0], orderBuf[:0]
	if len(accs) > len(keysBuf) {
		keys, order = make([]key, 0, len(accs)), make([]int, 0, len(accs))
	}
	keys, order = keys[:len(accs)], order[:len(accs)]
	for i := range accs {
		a := &accs[i]
		keys[i] = key{fitsMemory(a, b.MemoryMi), b.fitsBandwidth(a), b.estTps(a, b.Target.Count)}
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if fx, fy := keys[x].fitsMemory && keys[x].fitsBandwidth, keys[y].fitsMemory && keys[y].fitsBandwidth; fx != fy {
			if fx {
				return -1
			}
			return 1
		}
		return cmp.Compare(keys[y].estTps, keys[x].estTps)
	})
	out := slices.Grow(dst[:0], len(accs))[:len(accs)]
	clear(out)         // a Match sets NeededTps and NeededMemory* only when more devices are needed
	var scratch Bounds // floors' copy of the bounds, on the stack (1.3 KB a render on the heap)
	floors := splitFloors{scratch: &scratch}
	for pos, i := range order {
		a := &accs[i]
		m := &out[pos]
		m.Accelerator, m.Index = a, i
		m.FitsMemory, m.FitsBandwidth, m.EstTps = keys[i].fitsMemory, keys[i].fitsBandwidth, keys[i].estTps
		m.Selectable = b.Selectable(a)
		m.Selected = m.Selectable && b.selects(i, a, m.FitsMemory, m.FitsBandwidth)
		m.HeadroomPct = (m.EstTps/b.Target.MinTps - 1) * 100
		m.DevicesNeeded = b.devicesNeeded(a, &floors)
		m.Verdict = verdict(m, b.Target.Count, b.Target.MinTps)
		if n := m.DevicesNeeded; n > b.Target.Count {
			m.NeededTps = b.estTps(a, n)
			m.NeededMemoryMi, _, _ = floors.get(&b, n) // computed once per count for the whole catalog
			m.NeededMemoryGi = floors.gi[n]
		}
	}
	return out
}

// selects mirrors the CEL selector that package claim renders for the driver.
func (b *Bounds) selects(i int, a *catalog.Accelerator, mem, bw bool) bool {
	if !b.Selectable(a) {
		return false
	}
	// NVIDIA's driver takes a board only by a listed name, and a name two boards share (the RTX
	// 3080's 10 and 12 GB) is listed only when the slower meets the floor (resolveProducts): the
	// 12 GB board can meet the floor by itself and still not be picked.
	switch {
	case b.Driver.ProductList:
		return mem && bw && b.nameListed(i)
	case b.nvidiaFloorApplies(a): // any: llmfit.ai's alternative on its own floor, else NVIDIA's list
		return mem && (a.BandwidthGBs >= float64(b.MinBandwidthGBs) || b.nameListed(i))
	}
	if b.Driver.Name == DriverLlmfit || b.Driver.Name == DriverAny {
		// For "any" bw is already against the floor of the alternative that can choose the device
		// (BandwidthFloorFor); the allow-list is exactly the NVIDIA devices meeting both floors.
		return mem && bw
	}
	return mem // memory floor only: the driver publishes no bandwidth
}

// estTps is llmfit's bandwidth × efficiency / bytes read per token (N devices: N × 0.9 of one's
// bandwidth), or in the KV-aware sizing the calibrated model, on n devices of the product.
func (b *Bounds) estTps(a *catalog.Accelerator, n int) float64 {
	if b.Target.Sizing == target.SizingKV {
		return b.kvEstTps(a, n)
	}
	bandwidth := a.BandwidthGBs
	if n > 1 {
		bandwidth *= float64(n) * multiDeviceScale
	}
	return bandwidth * float64(b.Target.EfficiencyPct) / 100 / b.ReadGBPerToken
}

// devicesNeeded is the fewest devices of one product (up to target.MaxCount) whose per-device
// floors it meets; 0 when even target.MaxCount are not enough.
func (b *Bounds) devicesNeeded(a *catalog.Accelerator, f *splitFloors) int {
	nvidia := b.nvidiaFloorApplies(a)
	for n := 1; n <= target.MaxCount; n++ {
		if b.Engine == target.EngineVLLM && !VLLMTensorParallelOK(b.Model.Arch.AttentionHeads, n) {
			continue // vLLM refuses a tensor-parallel size that does not divide the heads (vllm_refuse.go)
		}
		mem, bw, nvidiaBW := f.get(b, n)
		if nvidia {
			bw = nvidiaBW
		}
		if fitsMemory(a, mem) && a.BandwidthGBs >= float64(bw) {
			return n
		}
	}
	return 0
}

// splitFloors keeps floorsFor's answers for one set of bounds: they depend on the device
// count only, and devicesNeeded asks for them for every accelerator (re-sizing the kv cache
// each time was nearly half a render's time). The zero value is empty.
type splitFloors struct {
	known                  [target.MaxCount + 1]bool
	mem, bandwidth, nvidia [target.MaxCount + 1]int64 // mem: the floor in MiB
	gi                     [target.MaxCount + 1]int64 // it rounded up to whole Gi
	scratch                *Bounds                    // the copy each count is sized in: one allocation, not one per count
}

func (f *splitFloors) get(b *Bounds, n int) (memoryMi, bandwidth, nvidiaBandwidth int64) {
	if !f.known[n] {
		if f.scratch == nil {
			f.scratch = new(Bounds)
		}
		f.mem[n], f.gi[n], f.bandwidth[n], f.nvidia[n] = b.floorsFor(n, f.scratch)
		f.known[n] = true
	}
	return f.mem[n], f.bandwidth[n], f.nvidia[n]
}

// floorsFor recomputes the per-device floors for a split over n devices: memory, the claim's
// bandwidth and the NVIDIA allow-list's. c is overwritten with a copy of b to size in.
func (b *Bounds) floorsFor(n int, c *Bounds) (memoryMi, memoryGi, bandwidth, nvidiaBandwidth int64) {
	if n == b.Target.Count {
		return b.MemoryMi, b.MemoryGi, b.MinBandwidthGBs, b.NVIDIAMinBandwidthGBs
	}
	*c = *b
	c.Target.Count = n // vLLM's floor reads the tensor-parallel size from the target
	if c.Target.Sizing == target.SizingKV {
		c.sizeKV(n)
	} else {
		c.sizeLlmfit(n)
	}
	return c.MemoryMi, c.MemoryGi, c.MinBandwidthGBs, c.NVIDIAMinBandwidthGBs
}

// BandwidthFloorFor is the per-device bandwidth floor a device is judged on: the claim's, except
// that for driver any an NVIDIA product is also chosen by the NVIDIA alternative, whose allow-list
// assumes NVIDIA's efficiency (kvFloors); that floor is never above llmfit.ai's, which assumes the
// least efficient family, so it is the one the device must meet.
func (b *Bounds) BandwidthFloorFor(a *catalog.Accelerator) int64 {
	if b.nvidiaFloorApplies(a) {
		return min(b.MinBandwidthGBs, b.NVIDIAMinBandwidthGBs)
	}
	return b.MinBandwidthGBs
}

// nvidiaFloorApplies: driver any's NVIDIA alternative can choose the device (it is on the
// allow-list when it meets the NVIDIA floor).
func (b *Bounds) nvidiaFloorApplies(a *catalog.Accelerator) bool {
	return b.Driver.Name == DriverAny && a.Vendor == "nvidia" && a.ProductName != ""
}

func verdict(m *Match, count int, minTps float64) string {
	// A device under the bandwidth floor is "too slow" only when its own estimated speed misses
	// the target. The floor of a class any vendor's device may satisfy (llmfit.ai, any's first
	// alternative) assumes the least efficient family, and a floor rounds up to whole GB/s, so a
	// device can miss the floor at a speed above the target: the table printed "33.3 tok/s, +67 %,
	// too slow" for an RTX A6000 (768 GB/s) under Llama-3.1-8B's 820 GB/s llmfit.ai floor.
	slow, both := "too slow", "too little memory and too slow"
	if m.EstTps >= minTps {
		slow, both = "under the bandwidth floor", "too little memory and under the bandwidth floor"
	}
	switch {
	case m.Fits():
		return fitsOn(count)
	case m.DevicesNeeded > count:
		return needsDevices(m.DevicesNeeded)
	case m.DevicesNeeded > 0: // fewer devices would also do, but not this split
		if !m.FitsMemory {
			return "too little memory"
		}
		return slow
	case !m.FitsMemory && !m.FitsBandwidth:
		return both
	case !m.FitsMemory:
		return "too little memory"
	default:
		return slow
	}
}

// The verdicts that carry a device count, written once per process for the counts a target can
// ask (1..MaxCount): a render judges every accelerator, and building the same words again for
// each was a fifth of the matcher's allocations.
var fitsOnWords, needsWords = countWords("fits on ", true), countWords("needs ", false)

func countWords(prefix string, oneDevice bool) (words [target.MaxCount + 1]string) {
	for n := 1; n <= target.MaxCount; n++ {
		words[n] = countVerdict(prefix, n, oneDevice)
	}
	return words
}

// countVerdict is prefix + "N devices", or "one device" for a count up to 1 where oneDevice says so.
func countVerdict(prefix string, n int, oneDevice bool) string {
	if n <= 1 && oneDevice {
		return prefix + "one device"
	}
	return prefix + strconv.Itoa(n) + " devices"
}

func fitsOn(count int) string {
	if count >= 1 && count <= target.MaxCount {
		return fitsOnWords[count]
	}
	return countVerdict("fits on ", count, true)
}

func needsDevices(n int) string {
	if n >= 1 && n <= target.MaxCount {
		return needsWords[n]
	}
	return countVerdict("needs ", n, false)
}

// ProductsWithoutMemory are the products of an allow-list whose driver publishes no memory
// capacity (publishesNoMemory). The claim takes these by productName alone: resolveProducts
// lists a product only when its catalog memory meets the floor. One rule for the claim's CEL and
// the cluster check.
func ProductsWithoutMemory(products []string) []string {
	var out []string
	accs := catalog.Accelerators()
	for i := range accs {
		a := &accs[i]
		// the family first: only the GB10's row gets to the list searches, which every NVIDIA
		// claim's render runs (the CEL and its header) and which were ~100 × the list's length
		if publishesNoMemory(a) && slices.Contains(products, a.ProductName) && !slices.Contains(out, a.ProductName) {
			out = append(out, a.ProductName)
		}
	}
	return out
}

// publishesNoMemory: NVIDIA's DRA driver publishes no memory capacity for the device. NVML
// reports none for NVIDIA's unified-memory boards (the GB10 of DGX Spark: nvidia-smi prints
// "Not Supported"), and the driver then leaves the device's `memory` out
// (NVIDIA/k8s-dra-driver-gpu PR #1121), so a selector that asks `'memory' in` never takes one.
func publishesNoMemory(a *catalog.Accelerator) bool {
	if a.Vendor != "nvidia" || a.ProductName == "" {
		return false
	}
	family, _ := AcceleratorFamily(a)
	return family == FamilyNVIDIAUnified
}

// ShareUnavailable: the claim asks each device's memory as capacity.requests, and NVIDIA's
// driver publishes no memory for this device (publishesNoMemory). The allocator takes a device
// only if it publishes the capacity a request names (KEP-5075), so such a claim can never be
// given one, and its allow-list leaves the product out rather than name a device that cannot
// be had (before, the GB10 was listed and taken "by name" in a claim that could not get it).
func (b *Bounds) ShareUnavailable(a *catalog.Accelerator) bool {
	return b.Target.CapacityRequest && publishesNoMemory(a)
}

// resolveProducts fills the NVIDIA productName allow-list, the only way a bandwidth floor can
// reach a real driver, which publishes no bandwidth.
func (b *Bounds) resolveProducts() error {
	if !b.Driver.ProductList && b.Driver.Name != DriverAny {
		return nil
	}
	var best []string
	accs, sameProduct, slowest := catalog.Accelerators(), productFirsts(), productSlowestGBs()
	listed := make([]bool, len(accs)) // listed[i]: accelerator i's productName is in the list
	for i := range accs {
		a := &accs[i]
		if a.Vendor != "nvidia" || a.ProductName == "" {
			continue
		}
		// The device's memory is the CEL's own clause, but its bandwidth is only the list's: a
		// productName boards of different speeds share (the RTX 3080's 10 GB at 760 GB/s and 12 GB
		// at 912) is listed only when the slowest of them meets the floor.
		if first := sameProduct[i]; !listed[first] && fitsMemory(a, b.MemoryMi) && slowest[first] >= float64(b.NVIDIAMinBandwidthGBs) && !b.ShareUnavailable(a) {
			listed[first] = true
			b.Products = append(b.Products, a.ProductName)
		}
	}
	if len(b.Products) > 0 {
		return nil
	}
	type cand struct {
		name string
		tps  float64
		n    int
	}
	var cands []cand
	var floors splitFloors
	for _, a := range catalog.Accelerators() {
		if a.Vendor == "nvidia" && a.ProductName != "" {
			cands = append(cands, cand{a.Name, b.estTps(&a, b.Target.Count), b.devicesNeeded(&a, &floors)})
		}
	}
	smallsort.Func(cands, func(x, y cand) int { return cmp.Compare(y.tps, x.tps) }) // fastest first, stable
	// "raise count" only where a count up to 8 would do: with llama.cpp's layer split more devices
	// never decode faster, and past 8 no count is allowed (Llama-3.1-8B at 400 tok/s was told to
	// raise it, beside candidates none of which fits at any count)
	fix := "lower minTps or choose another driver"
	for _, c := range cands[:min(3, len(cands))] {
		s := c.name + " (" + SpeedText(c.tps, b.Target.MinTps) + " tok/s"
		if c.n > 0 {
			s += ", fits as " + strconv.Itoa(c.n) + " devices"
			fix = "lower minTps, raise count or choose another driver"
		}
		best = append(best, s+")")
	}
	return fieldErr("driver", "no NVIDIA accelerator in the catalog meets memory ≥ "+b.MemoryFloorText()+
		" and bandwidth ≥ "+strconv.FormatInt(b.NVIDIAMinBandwidthGBs, 10)+" GB/s per device; best candidates: "+
		strings.Join(best, ", ")+"; "+fix)
}

// nameListed: accelerator i's productName is on the allow-list, given that i meets the memory
// floor (resolveProducts' rule: the slowest board of the name meets NVIDIA's bandwidth floor, and
// a claim asking a memory share lists no board that publishes no memory).
func (b *Bounds) nameListed(i int) bool {
	return productSlowestGBs()[productFirsts()[i]] >= float64(b.NVIDIAMinBandwidthGBs) &&
		!b.ShareUnavailable(&catalog.Accelerators()[i])
}

// productFirsts maps each accelerator to the first one of the table with the same
// productName (itself when it is the first), so the allow-list names a product once without
// comparing it with the list so far (several boards share a productName). Made once.
var productFirsts = sync.OnceValue(func() []int {
	accs := catalog.Accelerators()
	first := make([]int, len(accs))
	for i := range accs {
		first[i] = i
		for j := range i {
			if accs[j].ProductName == accs[i].ProductName {
				first[i] = j
				break
			}
		}
	}
	return first
})

// productSlowestGBs is, at each productFirsts index, the least bandwidth of the boards that share
// that productName (NVIDIA's driver names the RTX 3080's 10 and 12 GB boards alike). Made once.
var productSlowestGBs = sync.OnceValue(func() []float64 {
	accs, first := catalog.Accelerators(), productFirsts()
	slowest := make([]float64, len(accs))
	for i := range accs {
		f := first[i]
		if f == i || accs[i].BandwidthGBs < slowest[f] {
			slowest[f] = accs[i].BandwidthGBs
		}
	}
	return slowest
})
