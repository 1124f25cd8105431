// Package speedcal calibrates fit's decode-speed model on measured runs (data/truth-train.tsv)
// and measures its accuracy. fit/calibrate writes the fitted constants into fit; the test here
// proves that the committed constants are what the data gives; bench/speedacc prints the table.
package speedcal

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/tsv"
)

// Run is one measured decode run (one row of truth-train.tsv; data/README.md names the columns).
type Run struct {
	File, Hardware, Class string
	Family                string // fit's family name for Class
	GPUCount              int
	MemoryGiB             float64
	Unified               bool
	BandwidthGBs          float64
	Provider, Model       string
	CatalogEntry          string // the catalog name the run maps to; "" if none
	ParamsB, ActiveB      float64
	MoE                   bool
	EffectiveB            float64 // Gemma "E" models: the effective size; 0 otherwise
	Quant                 string  // fitclaim's name of the quantization
	KVBytesPerToken       float64 // fp16
	ContextBench          int     // tokens in context during the run
	ContextDefault        int     // fitclaim's default context for the model
	MeasuredTps           float64
	LlmfitTps             float64 // llmfit's claim formula: bandwidth × 0.55 / (all parameters × bpp)
	OutOfScope            string  // why the run is not scored; "" = in scope
	Layers                int     // decoder layers: the catalog entry's (fit.ArchitectureOf); 0 = unknown
}

// InScope reports whether the run is fitted and scored.
func (r *Run) InScope() bool { return r.OutOfScope == "" }

// classFamilies maps the TSV's device classes to fit's families.
var classFamilies = map[string]string{
	"nvidia_discrete": fit.FamilyNVIDIA,
	"nvidia_pascal":   fit.FamilyNVIDIAPascal,
	"nvidia_unified":  fit.FamilyNVIDIAUnified,
	"amd_discrete":    fit.FamilyAMD,
	"apple_unified":   fit.FamilyApple,
	"integrated":      fit.FamilyIntel, // the only integrated device measured is Intel Arc 130V/140V
}

// Parse reads the TSV: '#' comment lines, a header, then one run per line.
func Parse(data []byte) ([]Run, error) {
	rows, err := tsv.Rows(string(data))
	if err != nil {
		return nil, err
	}
	var runs []Run
	for _, row := range rows {
		r, err := parseRun(row.Cells)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", row.Line, err)
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, errors.New("no runs")
	}
	return runs, nil
}

func parseRun(row map[string]string) (Run, error) {
	var firstErr error
	num := func(col string) float64 {
		v := row[col]
		if v == "" {
			return 0
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("column %s: %w", col, err)
		}
		return x
	}
	r := Run{
		File: row["file"], Hardware: row["hardware"], Class: row["class"],
		GPUCount: int(num("gpu_count")), MemoryGiB: num("vram_gb"), Unified: row["unified"] == "1",
		BandwidthGBs: num("bandwidth_gbs"), Provider: row["provider"], Model: row["model"], CatalogEntry: row["catalog_entry"],
		ParamsB: num("params_b"), ActiveB: num("active_params_b"), MoE: row["moe"] == "1",
		EffectiveB: num("emodel_effective_b"), Quant: row["fitclaim_quant"],
		KVBytesPerToken: num("kv_bytes_per_token"), ContextBench: int(num("context_bench")),
		ContextDefault: int(num("context_fitclaim_default")), MeasuredTps: num("measured_tps"),
		LlmfitTps: num("llmfit_formula_tps"), OutOfScope: row["out_of_scope"],
	}
	if firstErr != nil {
		return Run{}, firstErr
	}
	fam, ok := classFamilies[r.Class]
	if !ok {
		return Run{}, fmt.Errorf("unknown device class %q", r.Class)
	}
	r.Family = fam
	r.Layers = layersOf(r.CatalogEntry)
	if a := activeOf(r.CatalogEntry); r.MoE && a > 0 {
		r.ActiveB = a
	}
	return r, nil
}

// layersOf is the decoder layers the estimate knows for a catalog entry (its architecture, as
// fit.ArchitectureOf gives it, less the dense layers of a mixture of experts that has them:
// fit.RoutedLayersOf, as the estimate counts them); 0 when unknown, and a mixture of experts then counts
// fit.MoEDepth of its size, as the estimate does for a model it does not know.
func layersOf(entry string) int {
	m, err := lookup(entry)
	if err != nil {
		return 0
	}
	return fit.RoutedLayersOf(m, fit.ArchitectureOf(m).Layers)
}

// activeOf is the active parameters (billions) the estimate sizes a catalog entry's decode on
// (fit.ReleaseParamsOf: the count read from config.json's shapes where fit knows them, which
// the TSV's active_params_b, the catalog's own count, is not always); 0 for no entry, and the
// run keeps the TSV's count (its name's "A3B").
func activeOf(entry string) float64 {
	m, err := lookup(entry)
	if err != nil {
		return 0
	}
	return fit.ReleaseParamsOf(m).ActiveB
}

func lookup(entry string) (*catalog.Model, error) {
	if entry == "" {
		return nil, errors.New("no catalog entry")
	}
	return catalog.Lookup(entry)
}
