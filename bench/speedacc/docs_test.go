package main

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/speedcal"
)

// docs/SPEED.md's accuracy table and constants, and README.md's figures of the estimate, are what
// this command prints from the committed constants, in every number.
func TestDocsAreTheFigures(t *testing.T) {
	tsv, err := os.ReadFile("../../data/truth-train.tsv")
	if err != nil {
		t.Fatal(err)
	}
	all, err := speedcal.Parse(tsv)
	if err != nil {
		t.Fatal(err)
	}
	runs := speedcal.InScope(all)
	committed := func(r *speedcal.Run) float64 {
		fam, _ := fit.LookupFamily(r.Family)
		return fit.DecodeTps(speedcal.ReadBytes(r), r.BandwidthGBs, fam.Efficiency, fit.TokenOverheadSeconds(r.MoE, r.Layers, r.ParamsB))
	}
	table := speedcal.Standard(runs, committed,
		speedcal.Estimator{Name: "estimate by numbers", Tps: viaEstimate(runs, false)},
		speedcal.Estimator{Name: "estimate by name", Tps: viaEstimate(runs, true)})
	// printed rows: name, n, then per estimator "P %  count"
	printed := map[string][]float64{}
	reRow := regexp.MustCompile(`^(\S+(?: \S+)*?)\s{2,}([0-9]+)\s+(.*)$`)
	rePct := regexp.MustCompile(`([0-9.]+) %`)
	for _, l := range strings.Split(table, "\n") {
		m := reRow.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.ParseFloat(m[2], 64)
		row := []float64{n}
		for _, p := range rePct.FindAllStringSubmatch(m[3], -1) {
			v, _ := strconv.ParseFloat(p[1], 64)
			row = append(row, v)
		}
		printed[m[1]] = row
	}
	doc, err := os.ReadFile("../../docs/SPEED.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"all": "all", "dense": "dense", "mixture of experts": "mixture of experts",
		"engine llama.cpp": "engine llamacpp", "engine Ollama": "engine ollama", "engine MLX": "engine mlx"}
	for _, f := range fit.Families() {
		names[f] = "family " + f
	}
	rows := 0
	for _, l := range strings.Split(string(doc), "\n") {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		if len(cells) != 9 {
			continue
		}
		want, ok := printed[names[cells[0]]]
		if !ok {
			continue
		}
		rows++
		for i, c := range cells[1:] {
			v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(c), " %"), 64)
			if err != nil || i >= len(want) || math.Abs(v-want[i]) > 1e-9 {
				t.Errorf("docs/SPEED.md row %q column %d says %q; bench/speedacc prints %v", cells[0], i+1, c, want)
				break
			}
		}
	}
	if rows != 12 {
		t.Errorf("%d rows of docs/SPEED.md's accuracy table matched, want 12 (every family with runs, the engines, all, dense, MoE)", rows)
	}
	// the constants table
	for _, f := range fit.Families() {
		fam, _ := fit.LookupFamily(f)
		label := "e " + f
		m := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(label) + `(?: \([^)]*\))? \| ([0-9.]+) \| ([0-9]+)`).FindStringSubmatch(string(doc))
		if m == nil {
			t.Errorf("docs/SPEED.md's constants table has no row %q", label)
			continue
		}
		if m[1] != strconv.FormatFloat(fam.Efficiency, 'f', -1, 64) || m[2] != strconv.Itoa(fam.Runs) {
			t.Errorf("docs/SPEED.md: %s = %s (%s runs); fit has %v (%d runs)", label, m[1], m[2], fam.Efficiency, fam.Runs)
		}
	}
	for label, want := range map[string]string{
		"t0": strconv.FormatFloat(fit.DecodeOverheadSeconds()*1e3, 'f', -1, 64) + " ms",
		"tMoE, per decoder layer with routed experts": strconv.FormatFloat(math.Round(fit.MoELayerSeconds()*1e8)/100, 'f', -1, 64) + " µs",
	} {
		if !strings.Contains(string(doc), "| "+label+" | "+want+" |") {
			t.Errorf("docs/SPEED.md's constants table: %s is not %s", label, want)
		}
	}
	// README.md: "within ±25 % in 10-fold cross-validation (X %; Y % with each model's runs held out together"
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(readme)), " ")
	m := regexp.MustCompile(`in 10-fold cross-validation \(([0-9.]+) %; ([0-9.]+) % with each model's runs held out together`).FindStringSubmatch(flat)
	if m == nil {
		t.Fatal("README.md no longer states the cross-validated figures")
	}
	all1 := printed["all"]
	if cv, _ := strconv.ParseFloat(m[1], 64); cv != all1[2] {
		t.Errorf("README.md says %s %% in 10-fold cross-validation; bench/speedacc prints %v %%", m[1], all1[2])
	}
	if byModel, _ := strconv.ParseFloat(m[2], 64); byModel != all1[3] {
		t.Errorf("README.md says %s %% by model; bench/speedacc prints %v %%", m[2], all1[3])
	}
	// README's "What it computes": the constants, the speed ceiling they imply and the figure the
	// refusal says of it (floored to a tenth: fit/speedfloor.go), the efficiencies
	t0 := fit.DecodeOverheadSeconds()
	moe := fit.MoELayerSeconds()
	tenth := func(x float64) string { return strconv.FormatFloat(math.Floor(x*10)/10, 'f', 1, 64) }
	for _, want := range []string{
		"t0 = " + strconv.FormatFloat(t0*1e3, 'f', -1, 64) + " ms",
		"1 / t0 = " + strconv.FormatFloat(1/t0, 'f', 3, 64) + " tok/s",
		`the refusal says a target "must be below ` + tenth(1/t0) + ` tokens/s"`,
		"(" + tenth(1/(t0+48*moe)) + " for Qwen3-30B-A3B's 48 MoE layers, 1 / " + strconv.FormatFloat((t0+48*moe)*1e3, 'f', 3, 64) +
			" ms = " + strconv.FormatFloat(1/(t0+48*moe), 'f', 3, 64) + ")",
		"adds " + strconv.FormatFloat(math.Round(moe*1e8)/100, 'f', -1, 64) + " µs per layer with routed experts",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("README.md does not say %q (the committed constants)", want)
		}
	}
	for _, f := range []string{"nvidia", "amd", "intel"} {
		fam, _ := fit.LookupFamily(f)
		if want := f + " " + strconv.FormatFloat(math.Round(fam.Efficiency*1000)/10, 'f', 1, 64) + " %"; !strings.Contains(flat, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	if !strings.Contains(flat, "fitted to "+strconv.Itoa(len(runs))+" measured runs") {
		t.Errorf("README.md does not say the constants are fitted to %d measured runs", len(runs))
	}
}
