// Command speedacc prints how well fit's committed speed model predicts the measured runs of
// data/truth-train.tsv: the share within ±25 % overall, dense against mixture-of-experts and per
// family, in sample and in cross-validation, beside llmfit's formula and the KV-aware mode's
// estimate before calibration. bench/bench.sh runs it.
package main

import (
	"fmt"
	"os"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/speedcal"
)

func main() {
	path := "data/truth-train.tsv"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	tsv, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "speedacc:", err)
		os.Exit(1)
	}
	all, err := speedcal.Parse(tsv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "speedacc:", err)
		os.Exit(1)
	}
	runs := speedcal.InScope(all)
	committed := func(r *speedcal.Run) float64 {
		fam, _ := fit.LookupFamily(r.Family)
		w := fit.WeightsReadB(r.ParamsB, r.ActiveB, r.EffectiveB, r.MoE)
		read := w*1e9*fit.BytesPerParam(r.Quant) + r.KVBytesPerToken*float64(r.ContextBench)
		return fit.DecodeTps(read, r.BandwidthGBs, fam.Efficiency, fit.DecodeOverheadSeconds())
	}
	fmt.Printf("%d in-scope runs of %d in %s; committed constants: t0 %.3g ms/token, MoE read factor %.4g\n",
		len(runs), len(all), path, fit.DecodeOverheadSeconds()*1e3, fit.MoEReadFactor())
	for _, f := range fit.Families() {
		fam, _ := fit.LookupFamily(f)
		fmt.Printf("  efficiency %-15s %.4g (%d runs)\n", f, fam.Efficiency, fam.Runs)
	}
	fmt.Print(speedcal.Standard(runs, committed))
}
