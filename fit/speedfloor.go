package fit

import (
	"strconv"
	"sync"

	"github.com/fitclaim/fitclaim/catalog"
)

// The KV-aware mode's bandwidth floor is the calibrated speed model inverted: a device of
// bandwidth B reaches minTps when
//
//	bytes per device / (B × e) + t0 + communication ≤ 1 / minTps
//	⇔  B ≥ bytes per device / (e × (1 / minTps − t0 − communication))
//
// and no bandwidth reaches a speed at or beyond 1 / (t0 + communication), where t0 is the
// model's per-token overhead (TokenOverheadSeconds: a mixture of experts adds its layers' time).

// kvSpeed picks the efficiency of a floor for the devices one driver selects: a given
// efficiencyPct (55 included) overrides; else the calibrated efficiency of
// the family that driver selects, and for a class any vendor's device may satisfy (llmfit.ai)
// the least efficient family among the catalog's accelerators, so that every device it admits
// is fast enough. Driver any has one floor per alternative (kvFloors), each judged this way.
func (b *Bounds) kvSpeed(d Driver) (eff float64, family string) {
	t := &b.Target
	if b.EfficiencyGiven {
		return float64(t.EfficiencyPct) / 100, ""
	}
	var f FamilySpeed
	switch d.Name {
	case DriverNVIDIA:
		f, _ = LookupFamily(FamilyNVIDIA)
	case DriverAMD:
		f, _ = LookupFamily(FamilyAMD)
	case DriverIntel:
		f, _ = LookupFamily(FamilyIntel)
	default:
		f = leastEfficientFamily()
	}
	return f.Efficiency, f.Family
}

// kvFloors sets the KV-aware bandwidth floors for readPerDevice bytes per token and device: the
// claim's (its first alternative's, from the driver's efficiency) and the one behind the NVIDIA
// allow-list. They differ only for driver any, whose NVIDIA alternative selects NVIDIA devices
// alone and so assumes NVIDIA's efficiency (the nvidia driver's floor), not the least efficient
// family's: that would shut out NVIDIA boards that meet the target.
func (b *Bounds) kvFloors(readPerDevice float64) {
	floor := func(eff float64) int64 {
		bw, ok := kvBandwidthFloor(readPerDevice, eff, b.SpeedOverheadSeconds, b.CommSeconds, b.Target.MinTps)
		if !ok {
			return maxFloor // unreachable: no device meets it (Resolve refuses the target)
		}
		return ceilFloor(bw)
	}
	b.SpeedEfficiency, b.SpeedFamily = b.kvSpeed(b.Driver)
	b.MinBandwidthGBs = floor(b.SpeedEfficiency)
	b.NVIDIASpeedEfficiency, b.NVIDIASpeedFamily, b.NVIDIAMinBandwidthGBs = b.SpeedEfficiency, b.SpeedFamily, b.MinBandwidthGBs
	if b.Driver.Name == DriverAny {
		nvidia, _ := driverByName(DriverNVIDIA)
		b.NVIDIASpeedEfficiency, b.NVIDIASpeedFamily = b.kvSpeed(nvidia)
		b.NVIDIAMinBandwidthGBs = floor(b.NVIDIASpeedEfficiency)
	}
}

// leastEfficientFamily is the least efficient family among the catalog's accelerators. Both
// are fixed for the process, so it is found once: a kv render asks for it once per device
// count, and the scan was a third of the edge API's time.
var leastEfficientFamily = sync.OnceValue(findLeastEfficientFamily)

func findLeastEfficientFamily() FamilySpeed {
	var least FamilySpeed
	for i, a := range catalog.Accelerators() {
		fam, _ := AcceleratorFamily(&a)
		f, _ := LookupFamily(fam)
		if i == 0 || f.Efficiency < least.Efficiency {
			least = f
		}
	}
	return least
}

// commSeconds is the stated, uncalibrated communication cost per token of an n-device split.
func commSeconds(n int) float64 {
	if n <= 1 {
		return 0
	}
	return CommSecondsPerExtraDevice * float64(n-1)
}

// readBytesPerToken is what one decoded step reads over all devices: the weights a token
// touches (a mixture of experts' active parameters, each in its own format where experts and
// the rest differ, speedread.go; a Gemma "E" model's effective size) and the KV cache it
// attends to (the whole cache, but the indexer's top-k of DeepSeek-V4's: KVReadBytes).
func (b *Bounds) readBytesPerToken() float64 {
	return b.weightBytesPerToken() + b.KVReadBytes
}

// isMoE reports whether a token reads fewer parameters than the model has: a mixture of experts.
func (b *Bounds) isMoE() bool { return b.ActiveParamsB < b.ParamsB }

// kvBandwidthFloor is the per-device bandwidth (GB/s) for minTps, and false when no bandwidth
// reaches it.
func kvBandwidthFloor(readPerDevice, eff, overhead, comm, minTps float64) (float64, bool) {
	budget := 1/minTps - overhead - comm
	if !(budget > 0) {
		return 0, false
	}
	return readPerDevice / (eff * budget) / 1e9, true
}

// maxReachableTps is the fastest decode any bandwidth gives this model on its devices:
// 1 / (the per-token overhead + communication); a mixture of experts' overhead includes its
// layers' time, so its limit is lower than a dense model's.
func (b *Bounds) maxReachableTps() float64 { return 1 / (b.SpeedOverheadSeconds + b.CommSeconds) }

// unreachableErr refuses a target speed at or beyond what the overhead allows.
func (b *Bounds) unreachableErr() error {
	t := &b.Target
	max := b.maxReachableTps()
	limit := strconv.FormatFloat(float64(int64(max*10))/10, 'f', 1, 64) // rounded down: it must stay unreachable-free
	why := strconv.FormatFloat(b.SpeedOverheadSeconds*1e3, 'f', 3, 64) + " ms per-token overhead"
	if b.isMoE() {
		why += " of this mixture of experts"
	}
	if t.Count > 1 {
		why += " + " + strconv.FormatFloat(commSeconds(t.Count)*1e3, 'f', 1, 64) + " ms between " + itoa(t.Count) + " devices"
	}
	return fieldErr("minTps", "must be below "+limit+" tokens/s in the KV-aware sizing: that is the largest reachable speed, 1 / ("+
		why+"), whatever the bandwidth (got "+ftoa(t.MinTps)+")")
}

// kvEstTps is the calibrated speed on n devices of an accelerator: its own family's efficiency
// unless efficiencyPct overrides.
func (b *Bounds) kvEstTps(a *catalog.Accelerator, n int) float64 {
	eff := b.SpeedEfficiency
	if b.SpeedFamily != "" {
		fam, _ := AcceleratorFamily(a)
		f, _ := LookupFamily(fam)
		eff = f.Efficiency
	}
	return 1 / (DecodeSeconds(b.timedReadBytes(n), a.BandwidthGBs, eff, b.SpeedOverheadSeconds) + commSeconds(n))
}
