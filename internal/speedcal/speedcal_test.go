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
	cv, llm, moe, moeHits := 0, 0, 0, 0
	for i, p := range CrossValidated(runs) {
		if Within(p, runs[i].MeasuredTps) {
			cv++
		}
		if Within(runs[i].LlmfitTps, runs[i].MeasuredTps) {
			llm++
		}
		if runs[i].MoE {
			moe++
			if Within(p, runs[i].MeasuredTps) {
				moeHits++
			}
		}
	}
	if share := float64(cv) / float64(len(runs)); share < 0.85 || cv <= llm {
		t.Errorf("cross-validated: %d of %d within ±25 %% (%.1f %%), llmfit's formula %d", cv, len(runs), 100*share, llm)
	}
	// The mixtures of experts, 75.6 % with a read factor on the active weights, 84.4 % with the
	// per-layer time, 88.9 % with the active counts from config.json's shapes (docs/SPEED.md): the
	// floor keeps them near the dense runs.
	if share := float64(moeHits) / float64(moe); share < 0.8 {
		t.Errorf("cross-validated mixtures of experts: %d of %d within ±25 %% (%.1f %%)", moeHits, moe, 100*share)
	}
}

// A run predicted by hand with the committed constants, and the same through Predict.
func TestPredictByHand(t *testing.T) {
	// Qwen3-30B-A3B (30.5 B, 3.3 B active, MoE, 48 layers) at Q4_K_M (4.58 GiB / 8,030,261,248 =
	// 0.6124007 B/param, fit/formats.go) on GB10 (273 GB/s), 100 tokens of context at 98,304 B/token:
	//   read = 3.3e9 × 0.6124007 + 98,304 × 100 = 2,020,922,287 + 9,830,400 = 2,030,752,687 B
	//   bytes: 2,030,752,687 / (273e9 × 0.778 = 212,394,000,000) = 0.00956125 s
	//   overhead: 0.001903 + 48 × 0.00008732 = 0.001903 + 0.00419136 = 0.00609436 s
	//   s/token = 0.01565561;  tok/s = 1 / 0.01565561 = 63.875
	r := Run{Family: fit.FamilyNVIDIAUnified, BandwidthGBs: 273, ParamsB: 30.5, ActiveB: 3.3, MoE: true,
		Quant: "Q4_K_M", KVBytesPerToken: 98304, ContextBench: 100, Layers: 48}
	fam, ok := fit.LookupFamily(fit.FamilyNVIDIAUnified)
	if !ok {
		t.Fatal("no nvidia-unified family")
	}
	c := Constants{Efficiency: map[string]float64{fit.FamilyNVIDIAUnified: fam.Efficiency},
		OverheadSec: fit.DecodeOverheadSeconds(), MoELayerSec: fit.MoELayerSeconds()}
	if got := c.Predict(&r); math.Abs(got-63.875) > 0.01 {
		t.Errorf("Predict = %.3f tok/s, want 63.875", got)
	}
	// A dense run of the same size pays t0 alone: 30.5e9 × 0.6124007 = 18,678,221,139 B + 9,830,400
	//   = 18,688,051,539 / 212,394,000,000 = 0.08798766 s + 0.001903 = 0.08989066 s → 11.125 tok/s
	r.MoE, r.ActiveB = false, 0
	if got := c.Predict(&r); math.Abs(got-11.125) > 0.01 {
		t.Errorf("dense Predict = %.3f tok/s, want 11.125", got)
	}
}

// A run whose model the catalog does not know has no layers (a mixture of experts then counts
// fit.MoEDepth of its size); one it knows counts its architecture's (Qwen3-30B-A3B: 48,
// data/architectures.csv).
func TestRunLayers(t *testing.T) {
	if got := layersOf(""); got != 0 {
		t.Errorf("layers of an unknown model = %d, want 0", got)
	}
	if got := layersOf("Qwen/Qwen3-30B-A3B-Instruct-2507"); got != 48 {
		t.Errorf("layers of Qwen3-30B-A3B-Instruct-2507 = %d, want 48", got)
	}
}

// Runs of one model fall in one fold of the by-model cross-validation, whatever file they came from.
func TestModelKey(t *testing.T) {
	for _, c := range []struct{ model, entry, want string }{
		{"SmolLM2-1.7B-Instruct-Q4_K_M.gguf", "", "smollm2-1.7b-instruct"},
		{"Qwen-AgentWorld-35B-A3B-UD-Q4_K_XL.gguf", "", "qwen-agentworld-35b-a3b"},
		{"ERNIE-4.5-21B-A3B-PT-4bit", "", "ernie-4.5-21b-a3b-pt"},
		{"qwen3.6:35b-mlx", "Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.6-35B-A3B"},
	} {
		r := Run{Model: c.model, CatalogEntry: c.entry}
		if got := ModelKey(&r); got != c.want {
			t.Errorf("ModelKey(%q, %q) = %q, want %q", c.model, c.entry, got, c.want)
		}
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

// Beside the MoE layer time, a free multiple of the active weights comes out near 1 (0.92 with
// the catalog's active counts, 1.01 with those from config.json's shapes; docs/SPEED.md): the model reads the active weights once. A factor far from 1
// would mean bytes are missing again.
func TestFreeReadFactorNearOne(t *testing.T) {
	all, err := Parse(readRuns(t))
	if err != nil {
		t.Fatal(err)
	}
	if phi := FreeReadFactor(InScope(all)); phi < 0.8 || phi > 1.2 {
		t.Errorf("free MoE read factor beside the layer time = %.3f, want 0.8–1.2", phi)
	}
}

// A mixture-of-experts run mapped to a catalog entry is fitted on the active count the estimate
// sizes that entry on (fit.ReleaseParamsOf), not the TSV's copy of the catalog's: Qwen3-Coder-Next,
// 5.46205 in the TSV, is Qwen3-Next-80B-A3B's 3,874,929,408 (fit/moeactive.go: routed 48 × 10 ×
// 3,145,728 = 1,509,949,440 + shared 150,994,944 + attention 1,541,026,560 + routers, gates and
// norms 50,628,608 + embeddings 2 × 311,164,928). A run without an entry keeps its TSV count.
func TestRunActiveFromCatalog(t *testing.T) {
	tsv := []byte("# c\nfile\tclass\tcatalog_entry\tmodel\tparams_b\tactive_params_b\tmoe\n" +
		"a\tamd_discrete\tQwen/Qwen3-Coder-Next\tqwen3-coder-next:Q4_K_M\t79.6744\t5.46205\t1\n" +
		"b\tamd_discrete\t\tnemotron-3-nano:30b\t30\t3\t1\n")
	runs, err := Parse(tsv)
	if err != nil {
		t.Fatal(err)
	}
	if runs[0].ActiveB != 3.874929408 || runs[1].ActiveB != 3 {
		t.Errorf("active: %v, %v; want 3.874929408, 3", runs[0].ActiveB, runs[1].ActiveB)
	}
}
