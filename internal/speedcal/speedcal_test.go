package speedcal

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

func readRuns(t *testing.T) []byte {
	t.Helper()
	tsv, err := os.ReadFile("../../data/truth-train.tsv")
	if err != nil {
		t.Fatal(err)
	}
	return tsv
}

// The committed constants are what the fitter derives from the committed data.
func TestCommittedConstantsAreTheFit(t *testing.T) {
	got, err := Generate(readRuns(t))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../fit/speed_constants.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("fit/speed_constants.go is not what data/truth-train.tsv gives: run go generate ./fit\n--- generated ---\n%s", got)
	}
}

// The fit reaches the aim in cross-validation, and beats llmfit's formula; a floor, so
// a change to the model or the data that loses accuracy is seen.
func TestCrossValidatedAccuracy(t *testing.T) {
	all, err := Parse(readRuns(t))
	if err != nil {
		t.Fatal(err)
	}
	runs := InScope(all)
	if len(runs) != 295 {
		t.Fatalf("in-scope runs = %d, want 295 (data/README.md)", len(runs))
	}
	cv, llm := 0, 0
	for i, p := range CrossValidated(runs) {
		if Within(p, runs[i].MeasuredTps) {
			cv++
		}
		if Within(runs[i].LlmfitTps, runs[i].MeasuredTps) {
			llm++
		}
	}
	if share := float64(cv) / float64(len(runs)); share < 0.85 || cv <= llm {
		t.Errorf("cross-validated: %d of %d within ±25 %% (%.1f %%), llmfit's formula %d", cv, len(runs), 100*share, llm)
	}
}

// A run predicted by hand with the committed constants, and the same through Predict.
func TestPredictByHand(t *testing.T) {
	// Qwen3-30B-A3B (30.5 B, 3.3 B active, MoE) at Q4_K_M (0.58 B/param) on GB10 (273 GB/s),
	// 100 tokens of context at 98,304 B/token of fp16 KV:
	//   read = 3.3e9 × 1.442 × 0.58 + 98,304 × 100 = 2,759,988,000 + 9,830,400 = 2,769,818,400 B
	//   s/token = 2,769,818,400 / (273e9 × 0.7787 = 212,585,100,000) + 0.002138
	//           = 0.0130292 + 0.002138 = 0.0151672;  tok/s = 1 / 0.0151672 = 65.93
	r := Run{Family: fit.FamilyNVIDIAUnified, BandwidthGBs: 273, ParamsB: 30.5, ActiveB: 3.3, MoE: true,
		Quant: "Q4_K_M", KVBytesPerToken: 98304, ContextBench: 100}
	fam, ok := fit.LookupFamily(fit.FamilyNVIDIAUnified)
	if !ok {
		t.Fatal("no nvidia-unified family")
	}
	c := Constants{Efficiency: map[string]float64{fit.FamilyNVIDIAUnified: fam.Efficiency},
		OverheadSec: fit.DecodeOverheadSeconds(), MoEReadFactor: fit.MoEReadFactor()}
	if got := c.Predict(&r); math.Abs(got-65.93) > 0.01 {
		t.Errorf("Predict = %.3f tok/s, want 65.93", got)
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		est, meas float64
		want      bool
	}{{125, 100, true}, {75, 100, true}, {125.01, 100, false}, {74.99, 100, false}} {
		if got := Within(c.est, c.meas); got != c.want {
			t.Errorf("Within(%v, %v) = %v", c.est, c.meas, got)
		}
	}
}

func TestParseRejectsUnknownClass(t *testing.T) {
	tsv := []byte("# c\nfile\tclass\nx\tquantum\n")
	if _, err := Parse(tsv); err == nil {
		t.Fatal("want an error for an unknown class")
	}
}
