// Package vllmtrain reads the vLLM start-ups of data/vllm-train.tsv, calibrates fit's model of
// vLLM's engine budget on them (Calibrate) and scores the model against them (Score). The fit
// package's tests and bench/vllmacc use it; nothing at run time does.
package vllmtrain

import (
	_ "embed"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/tsv"
)

// Row is one start-up. Unknown figures are NaN (floats) or 0 (counts).
type Row struct {
	ID, Model, GPU, Version, Engine, Status, Notes string
	GPUCount, TP, PP                               int
	KVDType                                        string
	Total, Util, Weights, Act, NonTorch, CUDAGraph float64
	Avail                                          float64
	AvailApprox                                    bool
	AvailUnit                                      float64 // the last printed digit of Avail (0.01 for "45.32")
	MaxModelLen                                    int
	KVTokens                                       int64
	Concurrency                                    float64
	ConcurrencyTokens                              int
	MaxNumSeqs, MaxTokens                          int // given in the notes; 0 = vLLM's device default
	Arch                                           *Arch
}

// Arch is what the model table (models.tsv) knows of a row's model.
type Arch struct {
	Vocab, Hidden int
	Cache         fit.VLLMCache // zero when the layout is not modelled
	Source        string
}

// HasCache reports whether the model's KV layout is modelled.
func (a *Arch) HasCache() bool {
	return a != nil && (a.Cache.FullLayers > 0 || a.Cache.SlidingLayers > 0)
}

//go:embed models.tsv
var modelsTSV string

// Load reads root/data/vllm-train.tsv.
func Load(root string) ([]Row, error) {
	b, err := os.ReadFile(filepath.Join(root, "data", "vllm-train.tsv"))
	if err != nil {
		return nil, err
	}
	return Parse(string(b))
}

// Parse reads the training file's text and joins every row with the model table.
func Parse(text string) ([]Row, error) {
	archs, err := parseModels(modelsTSV)
	if err != nil {
		return nil, err
	}
	recs, err := records(text)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(recs))
	for _, r := range recs {
		row := Row{
			ID: r["run_id"], Model: r["model"], GPU: r["gpu"], Version: r["vllm_version"],
			Engine: r["engine"], Status: r["status"], Notes: r["notes"], KVDType: r["kv_cache_dtype"],
			GPUCount: atoi(r["gpu_count"]), TP: atoi(r["tp"]), PP: atoi(r["pp"]),
			Total: num(r["total_gpu_gib"]), Util: num(r["gpu_mem_util"]), Weights: num(r["weights_gib"]),
			Act: num(r["activation_peak_gib"]), NonTorch: num(r["non_torch_gib"]), CUDAGraph: num(r["cudagraph_gib"]),
			MaxModelLen: atoi(r["max_model_len"]), KVTokens: int64(atoi(r["kv_tokens"])),
			Concurrency: num(r["concurrency_x"]), ConcurrencyTokens: atoi(r["concurrency_tokens"]),
		}
		a := r["available_kv_gib"]
		row.AvailApprox = strings.HasPrefix(a, "~")
		row.Avail = num(strings.TrimPrefix(a, "~"))
		row.AvailUnit = lastDigit(a)
		row.MaxNumSeqs = noted(row.Notes, "max_num_seqs")
		row.MaxTokens = max(noted(row.Notes, "max_num_batched_tokens"), noted(row.Notes, "--max-num-batched-tokens"))
		if a, ok := archs[strings.Fields(row.Model + " ?")[0]]; ok {
			row.Arch = a
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// records splits the tab-separated text (after its # comments) into maps by column name, each
// cell trimmed of spaces.
func records(text string) ([]map[string]string, error) {
	rows, err := tsv.Rows(text)
	if err != nil {
		return nil, errors.New("vllmtrain: " + err.Error())
	}
	out := make([]map[string]string, len(rows))
	for i, r := range rows {
		for k, v := range r.Cells {
			r.Cells[k] = strings.TrimSpace(v)
		}
		out[i] = r.Cells
	}
	return out, nil
}

func parseModels(text string) (map[string]*Arch, error) {
	recs, err := records(text)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Arch, len(recs))
	for _, r := range recs {
		elem := 2.0 // set per row from its kv_cache_dtype (Input)
		out[r["model"]] = &Arch{
			Vocab: atoi(r["vocab"]), Hidden: atoi(r["hidden"]), Source: r["source"],
			Cache: fit.VLLMCache{
				FullLayers: atoi(r["full_layers"]), SlidingLayers: atoi(r["sliding_layers"]), Window: atoi(r["window"]),
				KVHeads: atoi(r["kv_heads"]), HeadDim: atoi(r["head_dim"]), MLALatent: atoi(r["mla_latent"]), ElemBytes: elem,
				StateLayers: atoi(r["state_layers"]), StateBytes: float64(atoi(r["state_bytes"])), StateSplit: true,
			},
		}
	}
	return out, nil
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "~"))
	if err != nil {
		return 0
	}
	return n
}

func num(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// lastDigit is the value of a printed figure's last digit: 0.01 for "45.32", 0.1 for "22.5".
func lastDigit(s string) float64 {
	i := strings.IndexByte(s, '.')
	if i < 0 {
		return 1
	}
	return math.Pow(10, -float64(len(s)-i-1))
}

// noted reads "key N" (or "key=N") from a row's notes; 0 if absent.
func noted(notes, key string) int {
	i := strings.Index(notes, key)
	if i < 0 {
		return 0
	}
	rest := strings.TrimLeft(notes[i+len(key):], " =")
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	return atoi(rest[:end])
}

// Known reports whether x is a known figure.
func Known(x float64) bool { return !math.IsNaN(x) }

// V1 reports whether the row is a start-up of vLLM's V1 engine, the one fit models.
func (r *Row) V1() bool { return r.Engine == "V1" }

// Multimodal reports whether the row's model profiles an encoder too (its notes say so): the
// text-only activation model does not describe it, so it is not calibrated on.
func (r *Row) Multimodal() bool { return strings.Contains(r.Notes, "multimodal") }

// Input is the row as fit's model input; ok is false when the device or the model is not known
// well enough (no total memory, no utilization, no weights, or a model missing from the table).
func (r *Row) Input() (in fit.VLLMInput, ok bool) {
	if r.Arch == nil {
		return fit.VLLMInput{}, false
	}
	c := r.Arch.Cache
	c.ElemBytes = 2
	if r.KVDType == "fp8" {
		c.ElemBytes = 1
	}
	if c.StateLayers > 0 && strings.Contains(r.Notes, "prefix caching on") {
		c.StatePages = 2 // mamba cache mode "align" (fit/vllm_hybrid.go)
	}
	in = fit.VLLMInput{
		TotalGiB: r.Total, Device: r.GPU, Utilization: r.Util, TP: max(1, r.TP), WeightsGiB: r.Weights,
		Vocab: r.Arch.Vocab, Hidden: r.Arch.Hidden, MaxNumSeqs: r.MaxNumSeqs, MaxTokens: r.MaxTokens,
		MaxModelLen: r.MaxModelLen, Cache: c,
	}
	if in.MaxModelLen == 0 {
		in.MaxModelLen = r.ConcurrencyTokens
	}
	return in, Known(r.Total) && Known(r.Util) && Known(r.Weights)
}
