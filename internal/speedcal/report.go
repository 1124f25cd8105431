package speedcal

import (
	"fmt"
	"regexp"
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
	fold := make([]int, len(runs))
	for i := range runs {
		fold[i] = i % Folds
	}
	return crossValidated(runs, fold)
}

// CrossValidatedByModel is CrossValidated with every run of a model in the same fold: the
// models, numbered in order of first appearance, fall in fold number mod Folds. Each run is then
// predicted by constants fitted without any run of its model, as for a model never measured.
func CrossValidatedByModel(runs []Run) []float64 {
	number := map[string]int{}
	fold := make([]int, len(runs))
	for i := range runs {
		k := ModelKey(&runs[i])
		n, ok := number[k]
		if !ok {
			n = len(number)
			number[k] = n
		}
		fold[i] = n % Folds
	}
	return crossValidated(runs, fold)
}

func crossValidated(runs []Run, fold []int) []float64 {
	pred := make([]float64, len(runs))
	for f := 0; f < Folds; f++ {
		var train []Run
		for i := range runs {
			if fold[i] != f {
				train = append(train, runs[i])
			}
		}
		c := Fit(train)
		for i := range runs {
			if fold[i] == f {
				pred[i] = c.Predict(&runs[i])
			}
		}
	}
	return pred
}

// ModelKey names the model a run measured: its catalog entry, else the model as run in lower
// case without the file's quantization and format tail ("SmolLM2-1.7B-Instruct-Q4_K_M.gguf" and
// "smollm2-1.7b-instruct-q4_k_m.gguf" are one model).
func ModelKey(r *Run) string {
	if r.CatalogEntry != "" {
		return r.CatalogEntry
	}
	s := strings.TrimSuffix(strings.ToLower(r.Model), ".gguf")
	for {
		t := quantTail.ReplaceAllString(s, "")
		if t == s {
			return s
		}
		s = t
	}
}

// quantTail is a trailing quantization or format tag: -Q4_K_M, .q8_0, -UD-Q4_K_XL, -MXFP4, -4bit,
// -mlx, ":q4_k_m".
var quantTail = regexp.MustCompile(`[-_.:](ud-)?(q\d[\w]*|mxfp4[\w-]*|\d+bit|mlx)$`)

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
	// The engines: one model for all of them, so a row far below the others is a term missing.
	for _, e := range []string{"llamacpp", "ollama", "mlx"} {
		gs = append(gs, group{"engine " + e, func(r *Run) bool { return r.Provider == e }})
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
		{fmt.Sprintf("%d-fold CV by model", Folds), CrossValidatedByModel(runs)},
	}
	ests = append(ests, extra...)
	return Table(runs, append(ests, Estimator{"llmfit formula", llm}, Estimator{"old kv mode", old}))
}
