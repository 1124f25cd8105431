package speedcal

import (
	"math"

	"github.com/fitclaim/fitclaim/fit"
)

// Constants are the fitted parameters of fit's speed model.
type Constants struct {
	Efficiency   map[string]float64 // per family
	PooledLogEff float64            // μ: the families' common log-efficiency the prior pulls toward
	OverheadSec  float64            // t0
	MoELayerSec  float64            // per-token time of each decoder layer of a mixture of experts
	Runs         map[string]int     // in-scope training runs per family
}

// ReadBytes is what one decoded token of the run reads: the weights it touches and the fp16 KV
// cache at the run's context. The weights are at fit.RealBytesPerParam of the quant even for a
// GGUF file whose width is not a multiple of 256, which the KV-aware mode sizes by llama.cpp's
// rules (fit/gguf_widths.go): refitted on those files' counted sizes (gemma-3-1b-it, Qwen2.5-0.5B,
// SmolLM2-135M: 3 of the 295 runs), the share within ±25 % was 89.2 % in 10-fold cross-validation
// as now, 88.1 % by model (87.8 now), but the estimate by name fell from 263 runs to 262 and by
// numbers from 257 to 256 (bench/speedacc); refitted on the bounds too (11 runs) it fell to 88.5 %
// in cross-validation. So the calibration stands on the table's figures.
func ReadBytes(r *Run) float64 {
	w := fit.WeightsReadB(r.ParamsB, r.ActiveB, r.EffectiveB, r.MoE)
	return w*1e9*fit.RealBytesPerParam(r.Quant) + r.KVBytesPerToken*float64(r.ContextBench)
}

// Predict is the model's decode tokens/s for the run.
func (c *Constants) Predict(r *Run) float64 {
	return predict(r, c.Efficiency[r.Family], c.OverheadSec, c.MoELayerSec)
}

func predict(r *Run, eff, t0, moeLayer float64) float64 {
	return fit.DecodeTps(ReadBytes(r), r.BandwidthGBs, eff, fit.TokenOverheadSecondsAt(r.MoE, r.Layers, r.ParamsB, t0, moeLayer))
}

// OldKVTps is the KV-aware mode's estimate before calibration: 55 % of the bandwidth over the
// active weights plus the KV cache at fitclaim's default context, one efficiency for every device.
func OldKVTps(r *Run) float64 {
	p := r.ParamsB
	if r.MoE && r.ActiveB > 0 {
		p = r.ActiveB
	}
	read := p*1e9*fit.BytesPerParam(r.Quant) + r.KVBytesPerToken*float64(r.ContextDefault)
	return r.BandwidthGBs * 1e9 * 0.55 / read
}

// Within reports whether an estimate is within ±25 % of the measured speed.
func Within(estimate, measured float64) bool {
	return math.Abs(estimate-measured) <= 0.25*measured
}
