package vllmtrain

import (
	"fmt"
	"math"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Score is one V1 row against the model.
type Score struct {
	Row *Row
	// Budget: the model's own available KV (HasBudget: the row logs total, utilization, weights
	// and an exact available KV, and its model is in the table).
	HasBudget bool
	Model     fit.VLLMResult
	// Layout: what the model does with the logged available KV (HasLayout: the model's cache is
	// modelled and the row logs its available KV). Lo and Hi take the log's rounding either way.
	HasLayout        bool
	Layout, Lo, Hi   fit.VLLMResult
	StartsWant       bool // the row started (status ok)
	TokensInRounding bool
	ConcInRounding   bool
}

// Within is the accuracy criterion of the available KV: ±10 % or ±0.75 GiB.
func Within(model, logged float64) bool {
	d := math.Abs(model - logged)
	return d <= 0.75 || d <= 0.1*math.Abs(logged)
}

// within10 is ±10 % for tokens and concurrency.
func within10(model, logged float64) bool { return math.Abs(model-logged) <= 0.1*math.Abs(logged) }

// Evaluate scores every V1 row of one pipeline stage.
func Evaluate(rows []Row) []Score {
	var out []Score
	for i := range rows {
		r := &rows[i]
		if !r.V1() || r.PP > 1 || r.Arch == nil {
			continue
		}
		in, ok := r.Input()
		s := Score{Row: r, StartsWant: r.Status == "ok"}
		if ok && Known(r.Avail) && !r.AvailApprox {
			s.HasBudget = true
			s.Model = fit.VLLM(in)
		}
		if r.Arch.HasCache() && Known(r.Avail) && !r.AvailApprox {
			s.HasLayout = true
			s.Layout = fit.VLLMLayout(in, r.Avail)
			s.Lo = fit.VLLMLayout(in, r.Avail-r.AvailUnit/2)
			s.Hi = fit.VLLMLayout(in, r.Avail+r.AvailUnit/2)
			s.TokensInRounding = s.Lo.KVCacheTokens <= r.KVTokens && r.KVTokens <= s.Hi.KVCacheTokens
			s.ConcInRounding = s.Lo.MaxConcurrency-0.005 <= r.Concurrency && r.Concurrency <= s.Hi.MaxConcurrency+0.005
		}
		if s.HasBudget || s.HasLayout {
			out = append(out, s)
		}
	}
	return out
}

// Table prints the accuracy table bench/vllmacc shows.
func Table(scores []Score) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vLLM engine budget (%s) against data/vllm-train.tsv, V1 rows\n", fit.VLLMEngine)
	fmt.Fprintf(&b, "%-8s %-44s %2s %5s | %9s %9s %7s | %10s %10s | %8s %8s | %s\n",
		"run", "model", "tp", "util", "KV logged", "KV model", "error", "tok logged", "tok model", "conc log", "conc mod", "starts (log/model)")
	var kvN, kvOK, tokN, tokOK, tokE2EN, tokE2EOK, concN, concOK, concE2EN, concE2EOK, stN, stOK int
	for _, s := range scores {
		r := s.Row
		kvModel, errS := "-", "-"
		if s.HasBudget {
			kvN++
			kvModel = fmt.Sprintf("%.2f", s.Model.KVCacheGiB)
			errS = fmt.Sprintf("%+.2f", s.Model.KVCacheGiB-r.Avail)
			if Within(s.Model.KVCacheGiB, r.Avail) {
				kvOK++
			} else {
				errS += "!"
			}
		}
		tokModel, concModel, starts := "-", "-", "-"
		if s.HasLayout {
			tokModel = fmt.Sprint(s.Layout.KVCacheTokens)
			if mustInput(r).MaxModelLen > 0 {
				concModel = fmt.Sprintf("%.2f", s.Layout.MaxConcurrency)
			}
			if r.KVTokens > 0 {
				tokN++
				if s.TokensInRounding {
					tokOK++
				} else {
					tokModel += "!"
				}
				if s.HasBudget {
					tokE2EN++
					if within10(float64(fit.VLLMLayout(mustInput(r), s.Model.KVCacheGiB).KVCacheTokens), float64(r.KVTokens)) {
						tokE2EOK++
					}
				}
			}
			if Known(r.Concurrency) {
				concN++
				if s.ConcInRounding {
					concOK++
				} else {
					concModel += "!"
				}
				if s.HasBudget {
					concE2EN++
					if within10(s.Model.MaxConcurrency, r.Concurrency) {
						concE2EOK++
					}
				}
			}
			if r.MaxModelLen > 0 {
				stN++
				if s.Layout.Starts == s.StartsWant {
					stOK++
				}
				starts = fmt.Sprintf("%v/%v", s.StartsWant, s.Layout.Starts)
			}
		}
		fmt.Fprintf(&b, "%-8s %-44s %2d %5s | %9s %9s %7s | %10s %10s | %8s %8s | %s\n",
			r.ID, short(r.Model, 44), max(1, r.TP), figure(r.Util, 3), figure(r.Avail, 2), kvModel, errS,
			count(r.KVTokens), tokModel, figure(r.Concurrency, 2), concModel, starts)
	}
	fmt.Fprintf(&b, "available KV within ±10 %% or ±0.75 GiB of the log:       %s\n", share(kvOK, kvN))
	fmt.Fprintf(&b, "KV tokens from the logged KV, within the log's rounding: %s\n", share(tokOK, tokN))
	fmt.Fprintf(&b, "concurrency from the logged KV, within the log's rounding: %s\n", share(concOK, concN))
	fmt.Fprintf(&b, "KV tokens from the modelled KV, within ±10 %%:            %s\n", share(tokE2EOK, tokE2EN))
	fmt.Fprintf(&b, "concurrency from the modelled KV, within ±10 %%:          %s\n", share(concE2EOK, concE2EN))
	fmt.Fprintf(&b, "starts / fails as logged (from the logged KV):            %s\n", share(stOK, stN))
	b.WriteString("(! marks a row outside its criterion; - = not logged or not modelled)\n")
	return b.String()
}

func mustInput(r *Row) fit.VLLMInput {
	in, _ := r.Input() // the layout needs only the cache, the tensor-parallel size and the limits
	return in
}

func share(ok, n int) string {
	if n == 0 {
		return "no rows"
	}
	return fmt.Sprintf("%d of %d rows (%.0f %%)", ok, n, 100*float64(ok)/float64(n))
}

func figure(x float64, dec int) string {
	if !Known(x) {
		return "-"
	}
	return fmt.Sprintf("%.*f", dec, x)
}

func count(n int64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

func short(s string, n int) string {
	s = strings.Fields(s + " ?")[0]
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

// Chain is a row predicted from the catalog alone: the model's weights in its release format
// (fit's serving formats) and its architecture, through fit.VLLMInputFor, instead of the logged
// weights and the table beside this package.
type Chain struct {
	Row                      *Row
	WeightsGiB, AvailableGiB float64
	Err                      error
}

// EndToEnd predicts every V1 row that logs its device, utilization and available KV from the
// catalog entry of its model (rows whose model the catalog lacks are left out).
func EndToEnd(rows []Row) []Chain {
	var out []Chain
	for i := range rows {
		r := &rows[i]
		if !r.V1() || r.PP > 1 || !Known(r.Total) || !Known(r.Util) || !Known(r.Avail) || r.AvailApprox {
			continue
		}
		t := target.Default()
		t.Model, t.Sizing, t.Engine, t.Count = strings.Fields(r.Model + " ?")[0], target.SizingKV, target.EngineVLLM, max(1, r.TP)
		t.Context = max(1, r.MaxModelLen)
		if r.KVDType == "fp8" {
			t.KVCache = "fp8"
		}
		t.GPUMemoryUtilization, t.MaxNumSeqs, t.MaxNumBatchedTokens = r.Util, r.MaxNumSeqs, r.MaxTokens
		b, err := fit.Resolve(t)
		if err != nil {
			continue // not in the catalog
		}
		in := fit.VLLMInputFor(&b, r.Total, r.GPU)
		out = append(out, Chain{Row: r, WeightsGiB: in.WeightsGiB, AvailableGiB: fit.VLLM(in).KVCacheGiB})
	}
	return out
}

// ChainTable prints EndToEnd's rows and its share within ±10 % or ±0.75 GiB.
func ChainTable(cs []Chain) string {
	var b strings.Builder
	b.WriteString("from the catalog alone (release-format weights, catalog architecture):\n")
	ok := 0
	for _, c := range cs {
		mark := ""
		if Within(c.AvailableGiB, c.Row.Avail) {
			ok++
		} else {
			mark = "!"
		}
		fmt.Fprintf(&b, "  %-8s weights %6.2f GiB (logged %s), available KV %6.2f GiB (logged %.2f)%s\n",
			c.Row.ID, c.WeightsGiB, figure(c.Row.Weights, 2), c.AvailableGiB, c.Row.Avail, mark)
	}
	fmt.Fprintf(&b, "available KV from the catalog within ±10 %% or ±0.75 GiB: %s\n", share(ok, len(cs)))
	return b.String()
}
