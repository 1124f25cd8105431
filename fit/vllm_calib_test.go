package fit_test

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/vllmtrain"
)

func loadVLLMRows(t *testing.T) []vllmtrain.Row {
	t.Helper()
	rows, err := vllmtrain.Load("..")
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// The committed constants are what the training file gives, to their printed precision.
func TestVLLMConstantsAreTheFit(t *testing.T) {
	c := vllmtrain.Calibrate(loadVLLMRows(t))
	for _, k := range []struct {
		name              string
		committed, fitted float64
		digits            int
	}{
		{"VLLMActLogitFactor", fit.VLLMActLogitFactor, c.LogitFactor, 3},
		{"VLLMActHiddenFactor", fit.VLLMActHiddenFactor, c.HiddenFactor, 3},
		{"VLLMNonTorchGiB", fit.VLLMNonTorchGiB, c.NonTorch, 3},
		{"VLLMNonTorchTPGiB", fit.VLLMNonTorchTPGiB, c.NonTorchTP, 3},
		{"VLLMCUDAGraphGiB", fit.VLLMCUDAGraphGiB, c.CUDAGraph, 3},
	} {
		if got := strconv.FormatFloat(k.fitted, 'g', k.digits, 64); got != strconv.FormatFloat(k.committed, 'g', -1, 64) {
			t.Errorf("%s = %v, the data gives %v (%s)", k.name, k.committed, k.fitted, got)
		}
	}
	// the rows behind them: the four text-only llm-d H100 rows and Unsloth's L4 row
	if want := []string{"llmd-01", "llmd-03", "llmd-05", "llmd-08", "uns-09"}; !slices.Equal(c.ActRows, want) {
		t.Errorf("activation rows %v, want %v", c.ActRows, want)
	}
}

// vLLM's logged tokens and concurrency, reproduced from its logged available KV within the
// log's rounding, for dense GQA (dl-03, gh-12, llmd-10), fp8 KV (gh-19), tensor parallel
// (dl-05), sliding window with tensor parallel (dl-01); and the start-up verdict of MLA (gh-23),
// sliding-window (gh-10) and tensor-parallel (gh-13) failures.
func TestVLLMReproducesLoggedLayout(t *testing.T) {
	scores := vllmtrain.Evaluate(loadVLLMRows(t))
	byID := map[string]vllmtrain.Score{}
	for _, s := range scores {
		byID[s.Row.ID] = s
	}
	for _, id := range []string{"dl-03", "gh-12", "llmd-10", "gh-19", "dl-05", "dl-01", "uns-09"} {
		s, ok := byID[id]
		if !ok || !s.HasLayout {
			t.Errorf("%s: not scored", id)
			continue
		}
		if !s.TokensInRounding {
			t.Errorf("%s: tokens %d..%d, logged %d", id, s.Lo.KVCacheTokens, s.Hi.KVCacheTokens, s.Row.KVTokens)
		}
		if !math.IsNaN(s.Row.Concurrency) && !s.ConcInRounding {
			t.Errorf("%s: concurrency %.3f..%.3f, logged %.2f", id, s.Lo.MaxConcurrency, s.Hi.MaxConcurrency, s.Row.Concurrency)
		}
	}
	for _, id := range []string{"gh-23", "gh-10", "gh-13", "gh-20"} {
		if s := byID[id]; !s.HasLayout || s.Layout.Starts || s.StartsWant {
			t.Errorf("%s: logged a failed start-up; model starts = %v", id, s.Layout.Starts)
		}
	}
	// gh-13's log: "23.25 GiB needed for 196608 tokens" (62 layers × 2 × 4 heads × 128 × 2 B × 196,608)
	if got := byID["gh-13"].Layout.NeededGiB; math.Abs(got-23.25) > 0.005 {
		t.Errorf("gh-13 needed %.3f GiB, logged 23.25", got)
	}
	// gh-20's log: "10.12 GiB needed for 221000 tokens"; estimated maximum 122,080 from 5.59 GiB
	// (5.59 is rounded: 5.585..5.595 GiB give 122,000..122,224)
	if s := byID["gh-20"]; math.Abs(s.Layout.NeededGiB-10.12) > 0.005 || s.Lo.MaxModelLen > 122080 || s.Hi.MaxModelLen < 122080 {
		t.Errorf("gh-20 needed %.3f GiB, max len %d..%d", s.Layout.NeededGiB, s.Lo.MaxModelLen, s.Hi.MaxModelLen)
	}
}

// The model's own available KV (budget − weights − activation − non-torch) against vLLM's log:
// the H100 rows it was calibrated on within 0.1 GiB, and at least 9 of the 10 V1 rows within
// ±10 % or ±0.75 GiB (the held-out A100 rows, run by v0.10.1, show a smaller activation peak).
func TestVLLMAvailableKV(t *testing.T) {
	scores := vllmtrain.Evaluate(loadVLLMRows(t))
	n, ok := 0, 0
	for _, s := range scores {
		if !s.HasBudget {
			continue
		}
		n++
		if vllmtrain.Within(s.Model.KVCacheGiB, s.Row.Avail) {
			ok++
		}
		switch s.Row.ID {
		case "llmd-01", "llmd-03", "llmd-05", "llmd-08":
			if d := s.Model.KVCacheGiB - s.Row.Avail; math.Abs(d) > 0.1 {
				t.Errorf("%s: available %.2f GiB, logged %.2f", s.Row.ID, s.Model.KVCacheGiB, s.Row.Avail)
			}
		}
	}
	if n != 10 || ok < 9 {
		t.Errorf("%d of %d rows within ±10 %% or ±0.75 GiB; want at least 9 of 10", ok, n)
	}
}
