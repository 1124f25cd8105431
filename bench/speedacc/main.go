// Command speedacc prints how well fit's committed speed model predicts the measured runs of
// data/truth-train.tsv: the share within ±25 % overall, dense against mixture-of-experts and per
// family, in sample and in cross-validation, beside llmfit's formula and the KV-aware mode's
// estimate before calibration. bench/bench.sh runs it.
package main

import (
	"fmt"
	"net/url"
	"os"
	"strconv"

	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/speedcal"
)

// viaEstimate asks the estimate command's engine (the API's and the page's too) about each run:
// by numbers, or by the catalog name where the run has one (byName).
func viaEstimate(runs []speedcal.Run, byName bool) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		q := "p=" + num(r.ParamsB)
		if r.MoE && r.ActiveB > 0 {
			q += "&ap=" + num(r.ActiveB)
		}
		if byName && r.CatalogEntry != "" {
			q = "m=" + url.QueryEscape(r.CatalogEntry)
		}
		q += "&q=" + url.QueryEscape(r.Quant) + "&ctx=" + strconv.Itoa(r.ContextBench) +
			"&memory=" + num(r.MemoryGiB) + "&bandwidth=" + num(r.BandwidthGBs) + "&family=" + r.Family
		if r.Unified {
			q += "&unified=1"
		}
		if e, err := estimate.RunRaw(q); err == nil && e.Fits {
			out[i] = e.TokensPerSecond
		}
	}
	return out
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

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
		return fit.DecodeTps(speedcal.ReadBytes(r), r.BandwidthGBs, fam.Efficiency, fit.TokenOverheadSeconds(r.MoE, r.Layers, r.ParamsB))
	}
	fmt.Printf("%d in-scope runs of %d in %s; committed constants: t0 %.4g ms/token, MoE %.4g ms/token per layer\n",
		len(runs), len(all), path, fit.DecodeOverheadSeconds()*1e3, fit.MoELayerSeconds()*1e3)
	for _, f := range fit.Families() {
		fam, _ := fit.LookupFamily(f)
		fmt.Printf("  efficiency %-15s %.4g (%d runs)\n", f, fam.Efficiency, fam.Runs)
	}
	fmt.Printf("a free multiple of the MoE active weights, fitted beside the layer time: %.3f (1: read once)\n",
		speedcal.FreeReadFactor(runs))
	fmt.Print(speedcal.Standard(runs, committed,
		speedcal.Estimator{Name: "estimate by numbers", Tps: viaEstimate(runs, false)},
		speedcal.Estimator{Name: "estimate by name", Tps: viaEstimate(runs, true)}))
	fmt.Println("(estimate by numbers: each run asked of fitclaim estimate as a script would — --params,")
	fmt.Println(" --active-params, --quant, --context, --memory, --bandwidth, --family, --unified — with no")
	fmt.Println(" architecture, so the KV cache is llmfit's estimate and a Gemma \"E\" model is read whole;")
	fmt.Println(" by name: MODEL from the catalog where the run maps to one, with its architecture and the")
	fmt.Println(" engine's reserve; a refusal or \"does not fit\" is a miss)")
}
