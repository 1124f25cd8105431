package speedcal

import (
	"math"

	"github.com/fitclaim/fitclaim/fit"
)

// FreeReadFactor fits the model with one parameter more, a multiple φ of a mixture of experts'
// active weights read per token (min(active × φ, all), as the model before the MoE layer time
// had it), beside tMoE, and returns the fitted φ. It is the check behind reading the active
// weights once (docs/SPEED.md): near 1, the extra time of a mixture of experts is per layer,
// not extra bytes. Same objective, start and solver as Fit; φ starts at 1.
func FreeReadFactor(runs []Run) float64 {
	l := layout{nf: len(fit.Families())}
	fam := famIndex()
	phi := l.size()
	theta := make([]float64, l.size()+1)
	for f := 0; f < l.nf; f++ {
		theta[f] = math.Log(0.6)
	}
	theta[l.mu()] = math.Log(0.6)
	theta[l.t0()] = math.Log(0.002)
	theta[l.moe()] = math.Log(5e-5)
	theta = levenbergMarquardt(theta, len(runs)+l.nf, func(th, out []float64) {
		l.residuals(th, runs, fam, out)
		factor := math.Exp(th[phi])
		t0, tMoE := math.Exp(th[l.t0()]), math.Exp(th[l.moe()])
		for k := range runs {
			r := &runs[k]
			if !r.MoE || r.EffectiveB > 0 || !(r.ActiveB > 0) {
				continue
			}
			read := ReadBytes(r) + (min(r.ActiveB*factor, r.ParamsB)-min(r.ActiveB, r.ParamsB))*1e9*fit.RealBytesPerParam(r.Quant)
			tps := fit.DecodeTps(read, r.BandwidthGBs, math.Exp(th[fam[r.Family]]), fit.TokenOverheadSecondsAt(true, r.Layers, r.ParamsB, t0, tMoE))
			out[k] = math.Log(tps / r.MeasuredTps)
		}
	})
	return math.Exp(theta[phi])
}
