package fit

import (
	"math"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/target"
)

// Estimate is the answer to the reverse question: on this hardware, does the target fit, and
// how fast does it run? Memory figures are GiB over all Count devices.
type Estimate struct {
	Fits             bool
	NeedGiB          float64 // weights + KV cache at the context and sequences + the runtime reserve
	UsableGiB        float64 // what the devices give: all of it, or the GPU share of unified memory
	TokensPerSecond  float64 // one sequence's decode speed; 0 when it does not fit
	MaxContextTokens int64   // the longest context per sequence that fits (at the given sequences)
	MaxSequences     int64   // the most concurrent sequences that fit at the given context
	Reason           string  // why it does not fit; "" when it fits

	Bounds     Bounds // the target as resolved (model, quantization, context, KV cache)
	Device     Device // as resolved (a catalog device's numbers filled in)
	DeviceName string
	Count      int

	WeightsGiB, KVGiB, ReserveGiB float64
	Efficiency                    float64 // the family's calibrated share of bandwidth
	OverheadSeconds               float64 // calibrated per-token overhead (t0, + the MoE layers' time)
	CommSeconds                   float64 // per-token communication between devices (not calibrated)
	// ReadBytesPerDevice is the bytes whose reading at one device's bandwidth sets a token's time
	// (split.go): one device's share under vLLM's tensor parallelism, all of them when llama.cpp's
	// devices take their layers in turn.
	ReadBytesPerDevice float64

	// Engine names the engine whose budget the verdict uses ("" = the llama.cpp-style reserve);
	// VLLM is vLLM's start-up on these devices when the engine is vLLM.
	Engine string
	VLLM   *VLLMResult
}

// CommSecondsPerExtraDevice is the per-token communication cost of splitting a model over several
// devices, per device beyond the first: two all-reduces per layer of a tensor-parallel split,
// each tens of microseconds over PCIe, about half a millisecond a token for a 30–80-layer model.
// It is a stated assumption, NOT calibrated: no multi-device run of the training data is in
// scope (there are six, with too few devices and engines to fit anything).
const CommSecondsPerExtraDevice = 0.0005

// EstimateOn judges a target on a device (t.Count of them). The target is sized in the KV-aware
// mode whatever its Sizing says. Errors are *FieldError.
func EstimateOn(t target.Target, d Device) (Estimate, error) {
	if isVLLM(&t) {
		return EstimateVLLM(t, d)
	}
	t.Sizing = target.SizingKV
	e, err := resolveEstimate(t, d)
	if err != nil {
		return Estimate{}, err
	}
	if !e.Fits {
		e.Reason = e.reason()
	}
	return e, nil
}

// resolveEstimate checks the device, then sizes the target, and judges one on the other (the
// llama.cpp-style reserve; EstimateVLLM goes on from there).
func resolveEstimate(t target.Target, d Device) (Estimate, error) {
	dev, name, err := resolveDevice(d)
	if err != nil {
		return Estimate{}, err
	}
	b, err := Resolve(t)
	if err != nil {
		return Estimate{}, err
	}
	return estimate(b, dev, name), nil
}

func estimate(b Bounds, dev Device, name string) Estimate {
	e := Estimate{Bounds: b}
	e.judge(&e.Bounds, dev, name, true)
	return e
}

// judge fills in e's verdict and figures for the bounds b (e's own, or, for FittingModels, bounds
// e does not hold: it reads only the verdict, the need, the context and the speed). The most
// sequences that fit, a second bisection over the KV cache, only when sequences is set
// (fitting.json does not print it).
func (e *Estimate) judge(b *Bounds, dev Device, name string, sequences bool) {
	n := b.Target.Count
	e.Device, e.DeviceName, e.Count = dev, name, n
	weights := b.residentWeightBytes()
	e.WeightsGiB = weights / gib
	e.KVGiB = b.KVBytes / gib
	// What the engine needs per device beside weights and KV cache, as the claim's floor counts it
	// (engine.go): the same verdict as the claim's memory floor, before its rounding up to Gi.
	e.ReserveGiB = b.OverheadGiB * float64(n)
	e.NeedGiB = e.WeightsGiB + e.KVGiB + e.ReserveGiB
	perDevice := dev.MemoryGiB
	if dev.Unified {
		perDevice *= UnifiedGPUShare
	}
	e.UsableGiB = perDevice * float64(n)
	e.Fits = e.NeedGiB <= e.UsableGiB

	room := (e.UsableGiB - e.WeightsGiB - e.ReserveGiB) * gib // bytes left for the KV cache
	seqs, ctx := int64(b.Target.Sequences), int64(b.ContextTokens)
	e.MaxContextTokens = largestFitting(contextLimit(b), func(c int64) bool { return b.KVBytesAt(c, seqs) <= room })
	if sequences {
		e.MaxSequences = largestFitting(target.MaxSequences, func(s int64) bool { return b.KVBytesAt(ctx, s) <= room })
	}

	fam, _ := LookupFamily(dev.Family)
	e.Efficiency = fam.Efficiency
	if b.EfficiencyGiven { // given, it overrides the family's here as in the claim's speeds (kvSpeed)
		e.Efficiency = float64(b.Target.EfficiencyPct) / 100
	}
	e.OverheadSeconds = b.SpeedOverheadSeconds
	if n > 1 {
		e.CommSeconds = CommSecondsPerExtraDevice * float64(n-1)
	}
	e.ReadBytesPerDevice = b.timedReadBytes(n)
	if e.Fits {
		e.TokensPerSecond = e.decodeSpeed()
	}
}

// decodeSpeed is one sequence's calibrated decode speed on the estimate's devices.
func (e *Estimate) decodeSpeed() float64 {
	return 1 / (DecodeSeconds(e.ReadBytesPerDevice, e.Device.BandwidthGBs, e.Efficiency, e.OverheadSeconds) + e.CommSeconds)
}

// KVBytesAt is the KV-aware mode's KV cache of tokens of context for each of seqs sequences, all
// devices: per layer kind on the resolved architecture (kvcache.go), else llmfit's estimate of
// 0.000008 GB per billion parameters per token (fp16, scaled to the element size).
func (b *Bounds) KVBytesAt(tokens, seqs int64) float64 {
	_, elem, _ := kvElementBytes(b.KVCache)
	if b.Arch.CachesKV() {
		// a hybrid's state as the engine keeps it (vllm_state.go); 0 + 0 for other kinds
		perSeq := b.Arch.KVCacheBytes(int(tokens), elem) - b.Arch.RecurrentStateBytes() + b.SequenceStateBytes()
		return perSeq * float64(seqs)
	}
	return kvFallbackGBPerB * b.ParamsB * 1e9 * elem / 2 * float64(tokens) * float64(seqs)
}

// contextLimit is the longest context worth offering: the model's real maximum where it is
// known, else the input limit.
func contextLimit(b *Bounds) int64 {
	if c := b.MaxContext; c > 0 && !b.Custom && c < target.MaxContext {
		return int64(c)
	}
	return target.MaxContext
}

// largestFitting is the largest n in [0, limit] with ok(n), for ok true up to a point and false
// after it; 0 when even 1 does not fit.
func largestFitting(limit int64, ok func(int64) bool) int64 {
	if !ok(1) {
		return 0
	}
	return largestAbove(1, limit, ok)
}

// largestAbove is the largest n in [lo, hi] with ok(n), by bisection, for ok true at lo (not
// asked) and up to a point, false after it; lo when no larger n is ok.
func largestAbove(lo, hi int64, ok func(int64) bool) int64 {
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func gibText(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// ClaimFloorWords says, for an estimate that fits, that the KV-aware claim for the same target
// would not select the device: its memory floor, the need rounded up to the MiB (Bounds.MemoryMi,
// what a claim asks), is above what the device reports; "" otherwise. A catalog device publishes
// whole MiB, so a need it holds never asks more; only a device given by its numbers, with a
// fraction of a MiB, can hold a need whose floor it misses by under a MiB. (The floor was whole
// Gi: Qwen3-30B-A3B, BF16, 60,192 tokens × 4, needs 79.65 GiB and fits an H100 SXM, 81,559 MiB,
// whose row said "needs 80 Gi, has 79.6"; its floor is now 81,559 Mi and the claim selects it.)
func (e *Estimate) ClaimFloorWords() string {
	if !e.Fits || !(float64(e.Bounds.MemoryMi) > e.Device.MemoryGiB*1024) {
		return ""
	}
	floor := float64(e.Bounds.MemoryMi) / 1024
	return "the claim for it asks ≥ " + e.Bounds.MemoryFloorText() + " a device (its floor, rounded up to the MiB), more than the " +
		strconv.FormatFloat(e.Device.MemoryGiB, 'f', GiBDecimals(floor, e.Device.MemoryGiB), 64) + " GiB " + e.DeviceName +
		" reports: that claim will not select this device"
}

// GiBDecimals is how many decimals show a need and what the devices have (GiB) in the order they
// compare: 2, or more where 2 would print a need above what the devices have as the same figure
// ("does not fit: needs 79.65 GiB … gives 79.65 GiB", a context one token past the longest that
// fits), up to 6 (a KiB). Rounding to nearest never reverses an order, so a fit shows need ≤ have.
func GiBDecimals(need, have float64) int {
	d := 2
	for need > have && d < 6 && strconv.FormatFloat(need, 'f', d, 64) == strconv.FormatFloat(have, 'f', d, 64) {
		d++
	}
	return d
}

// GiBDecimals is the decimals of the estimate's need and usable memory (the package-level rule):
// its words and its JSON print both with them.
func (e *Estimate) GiBDecimals() int { return GiBDecimals(e.NeedGiB, e.UsableGiB) }

func (e *Estimate) reason() string {
	b := &e.Bounds
	devices := e.DeviceName
	if e.Count > 1 {
		devices = itoa(e.Count) + " × " + devices
	}
	d := e.GiBDecimals()
	s := "needs " + strconv.FormatFloat(e.NeedGiB, 'f', d, 64) + " GiB (weights " + gibText(e.WeightsGiB) + " + KV cache " + gibText(e.KVGiB) +
		" for " + itoa(b.ContextTokens) + " tokens × " + SequencesText(b.Target.Sequences) + " + reserve " + gibText(e.ReserveGiB) +
		") but " + devices + " gives " + strconv.FormatFloat(e.UsableGiB, 'f', d, 64) + " GiB"
	if e.Device.Unified {
		s += " (" + strconv.Itoa(int(UnifiedGPUShare*100)) + " % of unified memory, the GPU's share)"
	}
	switch {
	case e.MaxContextTokens > 0:
		s += "; at most " + strconv.FormatInt(e.MaxContextTokens, 10) + " tokens of context fit for " + SequencesText(b.Target.Sequences)
	case e.WeightsGiB+e.ReserveGiB > e.UsableGiB:
		s += "; the weights and the reserve alone do not fit"
	}
	return s
}

// EffectiveParamsB is the effective size of a Gemma "E" model named like gemma-3n-E4B or
// gemma4:e2b (billions: the parameters a token reads; the per-layer embeddings it skips stay in
// memory), else 0.
func EffectiveParamsB(name string) float64 {
	if !containsFold(name, "gemma") { // most names: no allocation
		return 0
	}
	low := strings.ToLower(name)
	for part := range strings.FieldsFuncSeq(low, func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '/' }) {
		if len(part) >= 3 && part[0] == 'e' && part[len(part)-1] == 'b' {
			if x, err := strconv.ParseFloat(part[1:len(part)-1], 64); err == nil && x > 0 && !math.IsInf(x, 0) {
				return x
			}
		}
	}
	return 0
}

// SequencesText is "1 sequence", "4 sequences".
func SequencesText(n int) string {
	if n == 1 {
		return "1 sequence"
	}
	return itoa(n) + " sequences"
}

// containsFold reports whether s contains the lower-case ASCII word sub, ignoring ASCII case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// ActiveFromName is the active parameters (billions) a mixture-of-experts model's name states,
// as in Qwen3-30B-A3B or Kimi-Linear-48B-A3B-Instruct (a part "A<number>B"), when that is less
// than all of them; else 0. The speed data's mixture-of-experts status comes from the same tag.
func ActiveFromName(name string, paramsB float64) float64 {
	// The parts between '-', '_', '/' and ':' (strings.FieldsFunc's, found a byte at a time: the
	// separators are ASCII and no byte of a longer rune is one; TestActiveFromNameIsFields).
	start := 0
	for i := 0; i <= len(name); i++ {
		if i < len(name) && !nameSeparator(name[i]) {
			continue
		}
		part := name[start:i]
		start = i + 1
		if len(part) < 3 || part[0] != 'A' && part[0] != 'a' || part[len(part)-1] != 'B' && part[len(part)-1] != 'b' {
			continue
		}
		if x, err := strconv.ParseFloat(part[1:len(part)-1], 64); err == nil && x > 0 && x < paramsB {
			return x
		}
	}
	return 0
}

// nameSeparator separates the parts of a model's name that ActiveFromName reads.
func nameSeparator(c byte) bool { return c == '-' || c == '_' || c == '/' || c == ':' }
