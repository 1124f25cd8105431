package speedcal

import (
	"fmt"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// Folds is the number of cross-validation folds. Run i of the in-scope runs (in file order, which
// groups a device's runs together) falls in fold i mod Folds, so every device is spread over the
// folds, as a random held-out split of the same kind of data would spread it.
const Folds = 10

// InScope returns the runs that are fitted and scored.
func InScope(runs []Run) []Run {
	var out []Run
	for _, r := range runs {
		if r.InScope() {
			out = append(out, r)
		}
	}
	return out
}

// CrossValidated predicts every run with constants fitted on the other folds.
func CrossValidated(runs []Run) []float64 {
	pred := make([]float64, len(runs))
	for f := 0; f < Folds; f++ {
		var train []Run
		for i := range runs {
			if i%Folds != f {
				train = append(train, runs[i])
			}
		}
		c := Fit(train)
		for i := range runs {
			if i%Folds == f {
				pred[i] = c.Predict(&runs[i])
			}
		}
	}
	return pred
}

// Estimator is one column of the accuracy table.
type Estimator struct {
	Name string
	Tps  []float64 // one estimate per run
}

// group is one row of the accuracy table.
type group struct {
	name string
	in   func(r *Run) bool
}

func groups() []group {
	gs := []group{
		{"all", func(*Run) bool { return true }},
		{"dense", func(r *Run) bool { return !r.MoE }},
		{"mixture of experts", func(r *Run) bool { return r.MoE }},
	}
	for _, f := range fit.Families() {
		gs = append(gs, group{"family " + f, func(r *Run) bool { return r.Family == f }})
	}
	return gs
}

// Table is the share of runs within ±25 % of the measured speed per group and estimator.
func Table(runs []Run, ests []Estimator) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %5s", "runs within ±25 %", "n")
	for _, e := range ests {
		fmt.Fprintf(&b, " %22s", e.Name)
	}
	b.WriteByte('\n')
	for _, g := range groups() {
		n := 0
		hits := make([]int, len(ests))
		for i := range runs {
			if !g.in(&runs[i]) {
				continue
			}
			n++
			for k, e := range ests {
				if Within(e.Tps[i], runs[i].MeasuredTps) {
					hits[k]++
				}
			}
		}
		fmt.Fprintf(&b, "%-24s %5d", g.name, n)
		for k := range ests {
			if n == 0 {
				fmt.Fprintf(&b, " %22s", "-")
				continue
			}
			fmt.Fprintf(&b, " %15.1f %% %4d", 100*float64(hits[k])/float64(n), hits[k])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Standard is the table bench prints: the committed model in sample, cross-validated, any extra
// columns, llmfit's formula and the KV-aware mode's estimate before calibration.
func Standard(runs []Run, committed func(r *Run) float64, extra ...Estimator) string {
	in := make([]float64, len(runs))
	llm := make([]float64, len(runs))
	old := make([]float64, len(runs))
	for i := range runs {
		in[i] = committed(&runs[i])
		llm[i] = runs[i].LlmfitTps
		old[i] = OldKVTps(&runs[i])
	}
	ests := []Estimator{
		{"calibrated (in sample)", in},
		{fmt.Sprintf("calibrated (%d-fold CV)", Folds), CrossValidated(runs)},
	}
	ests = append(ests, extra...)
	return Table(runs, append(ests, Estimator{"llmfit formula", llm}, Estimator{"old kv mode", old}))
}
