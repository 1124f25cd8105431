package fit

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// testModel7B is the fixture of llmfit's own unit tests (REFERENCE §1).
var testModel7B = catalog.Model{
	Name: "Test Model 7B", ParametersRaw: 7e9, ParameterCount: "7.0B",
	MinRAMGB: 8.0, MinVRAMGB: 6.0, HasMinVRAM: true, Quantization: "Q4_K_M", ContextLength: 4096,
}

func resolveFixture(t *testing.T, mut func(*target.Target)) Bounds {
	t.Helper()
	tg := target.Default()
	if mut != nil {
		mut(&tg)
	}
	b, err := ResolveEntry(tg, testModel7B)
	if err != nil {
		t.Fatalf("ResolveEntry: %v", err)
	}
	return b
}

func resolve(t *testing.T, mut func(*target.Target)) Bounds {
	t.Helper()
	tg := target.Default()
	mut(&tg)
	b, err := Resolve(tg)
	if err != nil {
		t.Fatalf("Resolve(%+v): %v", tg, err)
	}
	return b
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestDefaultTarget(t *testing.T) {
	d := target.Default()
	want := target.Target{MinTps: 20, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1} // efficiency absent
	if d != want {
		t.Errorf("DefaultTarget() = %+v, want %+v", d, want)
	}
}

// REFERENCE §1: llmfit's own unit-test vectors.
func TestLlmfitVectors(t *testing.T) {
	// Default: weights 7 × 0.58 = 4.06 GB; quant is the entry's own, so memory is
	// max(min_vram 6.0, 4.06) = 6.0 → 6 Gi; bandwidth ceil(((20 × 4.06) × 100) / 55) = ceil(147.64) = 148.
	b := resolveFixture(t, nil)
	if !near(b.WeightsGB, 4.06) || b.MemoryGi != 6 || b.MinBandwidthGBs != 148 || b.Quant != "Q4_K_M" || b.QuantOverride {
		t.Errorf("default: weights %v, %d Gi, %d GB/s, quant %s override %v; want 4.06, 6, 148, Q4_K_M, false",
			b.WeightsGB, b.MemoryGi, b.MinBandwidthGBs, b.Quant, b.QuantOverride)
	}
	if b.MemoryGB != 6.0 || b.ParamsB != 7 || b.BytesPerParam != 0.58 || b.DeviceClass != "llmfit.ai" || b.Driver.Name != "llmfit" {
		t.Errorf("default: %+v", b)
	}
	// Q8_0: weights 7 × 1.05 = 7.35; an override, so memory 7.35 × 1.2 = 8.82 → 9 Gi;
	// bandwidth ceil(20 × 7.35 × 100 / 55) = ceil(267.27) = 268.
	b = resolveFixture(t, func(t *target.Target) { t.Quant = "Q8_0" })
	if !near(b.WeightsGB, 7.35) || b.MemoryGi != 9 || b.MinBandwidthGBs != 268 || !b.QuantOverride || !near(b.MemoryGB, 8.82) {
		t.Errorf("Q8_0: weights %v, %v GB → %d Gi, %d GB/s, override %v; want 7.35, 8.82 → 9, 268, true",
			b.WeightsGB, b.MemoryGB, b.MemoryGi, b.MinBandwidthGBs, b.QuantOverride)
	}
	// 30 tok/s at 60 %: 7 × 0.58 is 4.0599999999999996 in float64 (0.58 is a shade under), so
	// ((30 × 4.0599999999999996) × 100) / 60 = 202.99999999999997 and its ceiling is 203, as
	// llmfit's f64 arithmetic gives (a quotient a hair above 203 would give 204).
	b = resolveFixture(t, func(t *target.Target) { t.MinTps, t.EfficiencyPct = 30, 60 })
	if b.MinBandwidthGBs != 203 || b.MemoryGi != 6 {
		t.Errorf("30 tok/s at 60%%: %d GB/s and %d Gi, want 203 and 6", b.MinBandwidthGBs, b.MemoryGi)
	}
	// The entry's min_ram is the floor when min_vram is absent: max(8.0, 4.06) → 8 Gi.
	noVRAM := testModel7B
	noVRAM.MinVRAMGB, noVRAM.HasMinVRAM = 0, false
	b, err := ResolveEntry(target.Default(), noVRAM)
	if err != nil || b.MemoryGi != 8 {
		t.Errorf("no min_vram: %d Gi, %v; want 8", b.MemoryGi, err)
	}
	// Weights above the catalog minimum win: F32 own quant, 7 × 4 = 28 GB → 28 Gi.
	f32 := testModel7B
	f32.Quantization = "F32"
	b, err = ResolveEntry(target.Default(), f32)
	if err != nil || b.MemoryGi != 28 || b.QuantOverride {
		t.Errorf("F32 own: %d Gi, override %v, %v; want 28", b.MemoryGi, b.QuantOverride, err)
	}
}

func TestLlmfitErrorVectors(t *testing.T) {
	for _, c := range []struct {
		name  string
		mut   func(*target.Target)
		field string
	}{
		{"minTps 0", func(t *target.Target) { t.MinTps = 0 }, "minTps"},
		{"efficiency -1", func(t *target.Target) { t.EfficiencyPct = -1 }, "efficiencyPct"},
		{"efficiency 101", func(t *target.Target) { t.EfficiencyPct = 101 }, "efficiencyPct"},
	} {
		tg := target.Default()
		c.mut(&tg)
		_, err := ResolveEntry(tg, testModel7B)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: %v, want a FieldError on %s", c.name, err, c.field)
		}
	}
	// llmfit refuses --efficiency 0: a given 0 is refused where values are given (a link, a flag,
	// the bridge), since the Target's 0 means "not given".
	if _, err := target.ParsePermalink("eff=0"); err == nil || err.Error() != "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got \"0\")" {
		t.Errorf("eff=0: %v", err)
	}
	// Zero parameters: "cannot size model … (unknown parameter count)".
	zero := testModel7B
	zero.ParametersRaw, zero.ParameterCount = 0, "unknown"
	_, err := ResolveEntry(target.Default(), zero)
	if err == nil || err.Error() != `Model (model, m): cannot size model "Test Model 7B" (unknown parameter count)` {
		t.Errorf("zero params: %v", err)
	}
}

// Every error of Target validation, with its field, key and text (ranges included).
func TestValidationMessages(t *testing.T) {
	cases := []struct {
		mut  func(*target.Target)
		want string
	}{
		{func(t *target.Target) { t.MinTps = 0 }, "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got 0)"},
		{func(t *target.Target) { t.MinTps = -3 }, "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got -3)"},
		{func(t *target.Target) { t.MinTps = math.NaN() }, "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got NaN)"},
		{func(t *target.Target) { t.MinTps = math.Inf(1) }, "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got +Inf)"},
		{func(t *target.Target) { t.MinTps = 100000.5 }, "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got 100000.5)"},
		{func(t *target.Target) { t.EfficiencyPct = -5 }, "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got -5)"},
		{func(t *target.Target) { t.EfficiencyPct = 101 }, "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got 101)"},
		{func(t *target.Target) { t.EfficiencyPct = -55 }, "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got -55)"},
		{func(t *target.Target) { t.Sizing = "KVV" }, `Sizing mode (sizing, s): must be one of llmfit, kv (got "KVV")`},
		{func(t *target.Target) { t.Sizing = "" }, `Sizing mode (sizing, s): must be one of llmfit, kv (got "")`},
		{func(t *target.Target) { t.Context = -1 }, "Context (context, ctx): must be a whole number from 1 to 16777216 tokens (got -1)"},
		{func(t *target.Target) { t.Context = 1<<24 + 1 }, "Context (context, ctx): must be a whole number from 1 to 16777216 tokens (got 16777217)"},
		{func(t *target.Target) { t.Sequences = 0 }, "Concurrent sequences (sequences, seq): must be a whole number from 1 to 4096 (got 0)"},
		{func(t *target.Target) { t.Sequences = 4097 }, "Concurrent sequences (sequences, seq): must be a whole number from 1 to 4096 (got 4097)"},
		{func(t *target.Target) { t.KVCache = "fp4" }, `KV cache type (kvCache, kv): must be one of fp16, fp8, q8_0, q4_0 (got "fp4")`},
		{func(t *target.Target) { t.KVCache = "" }, `KV cache type (kvCache, kv): must be one of fp16, fp8, q8_0, q4_0 (got "")`},
		{func(t *target.Target) { t.Driver = "cuda" }, `DRA driver (driver, drv): must be one of llmfit, nvidia, amd, intel, any (got "cuda")`},
		{func(t *target.Target) { t.Count = 0 }, "Devices (count, n): must be a whole number from 1 to 8 devices (got 0)"},
		{func(t *target.Target) { t.Count = 9 }, "Devices (count, n): must be a whole number from 1 to 8 devices (got 9)"},
		{func(t *target.Target) { t.Model, t.ParamsB = "NousResearch/Llama-2-7b-chat-hf", 7 }, "Parameters (paramsB, p): give either a catalog model or a custom model's Parameters, not both"},
		{func(t *target.Target) { t.Model = strings.Repeat("x", 301) }, "Model (model, m): must be at most 300 characters (got 301)"},
		{func(t *target.Target) {}, "Model (model, m): choose a catalog model, or give Parameters (paramsB, p), in billions, for a custom one"},
		{func(t *target.Target) { t.ParamsB = -7 }, "Parameters (paramsB, p): must be a decimal number greater than 0 and at most 100000 billion parameters (got -7)"},
		{func(t *target.Target) { t.ParamsB = math.NaN() }, "Parameters (paramsB, p): must be a decimal number greater than 0 and at most 100000 billion parameters (got NaN)"},
		{func(t *target.Target) { t.ParamsB = math.Inf(1) }, "Parameters (paramsB, p): must be a decimal number greater than 0 and at most 100000 billion parameters (got +Inf)"},
		{func(t *target.Target) { t.ParamsB = 100001 }, "Parameters (paramsB, p): must be a decimal number greater than 0 and at most 100000 billion parameters (got 100001)"},
		{func(t *target.Target) { t.Model, t.Layers = "NousResearch/Llama-2-7b-chat-hf", 1001 }, "Layers (layers, L): must be a whole number from 1 to 1000 (got 1001)"},
		{func(t *target.Target) { t.Model, t.Attention = "NousResearch/Llama-2-7b-chat-hf", "GQA2" }, `Attention kind (attention, att): must be one of gqa, mha, mqa, mla, hybrid, csa (got "GQA2")`},
		{func(t *target.Target) { t.Model, t.Layers, t.SlidingLayers = "NousResearch/Llama-2-7b-chat-hf", 32, 33 }, "Sliding-window layers (slidingLayers, sl): must be at most Layers (32) (got 33)"},
		{func(t *target.Target) { t.Model, t.SlidingWindow = "NousResearch/Llama-2-7b-chat-hf", -1 }, "Sliding window (slidingWindow, sw): must be a whole number from 1 to 16777216 tokens (got -1)"},
		{func(t *target.Target) {
			t.Model, t.Experts, t.ExpertsPerToken = "NousResearch/Llama-2-7b-chat-hf", 8, 9
		}, "Experts per token (expertsPerToken, nept): must be at most Experts (8) (got 9)"},
		{func(t *target.Target) { t.Model, t.ActiveParamsB = "NousResearch/Llama-2-7b-chat-hf", 1 }, "Active parameters (activeParamsB, ap): describes a custom model, given by Parameters (paramsB, p); a catalog model brings its own"},
		{func(t *target.Target) { t.ParamsB, t.Layers, t.KVHeads, t.HeadDim = 7, 1001, 8, 128 }, "Layers (layers, L): must be a whole number from 1 to 1000 (got 1001)"},
		{func(t *target.Target) { t.ParamsB, t.Layers, t.KVHeads, t.HeadDim = 7, 32, -8, 128 }, "KV heads (kvHeads, kvh): must be a whole number from 1 to 1024 (got -8)"},
		{func(t *target.Target) { t.ParamsB, t.Layers, t.KVHeads, t.HeadDim = 7, 32, 8, 4097 }, "Head dimension (headDim, hd): must be a whole number from 1 to 4096 (got 4097)"},
		{func(t *target.Target) { t.ParamsB, t.Layers, t.KVHeads = 7, 32, 8 }, "Head dimension (headDim, hd): Layers (layers, L), KV heads (kvHeads, kvh) and Head dimension (headDim, hd) go together: give all three or none"},
		{func(t *target.Target) { t.ParamsB, t.Layers = 7, 32 }, "KV heads (kvHeads, kvh): Layers (layers, L), KV heads (kvHeads, kvh) and Head dimension (headDim, hd) go together: give all three or none"},
		{func(t *target.Target) { t.ParamsB, t.ActiveParamsB = 7, 8 }, "Active parameters (activeParamsB, ap): must be at most the model's Parameters (7 billion) (got 8)"},
		{func(t *target.Target) { t.ParamsB, t.ActiveParamsB = 7, -1 }, "Active parameters (activeParamsB, ap): must be a decimal number greater than 0 and at most 100000 billion parameters (got -1)"},
		{func(t *target.Target) { t.ParamsB, t.ActiveParamsB = 7, math.NaN() }, "Active parameters (activeParamsB, ap): must be a decimal number greater than 0 and at most 100000 billion parameters (got NaN)"},
		{func(t *target.Target) { t.ParamsB, t.Quant = 7, "Q4_K_S" }, `Quantization (quant, q): unknown quantization "Q4_K_S"; known: F32, F16, BF16, Q8_0, Q6_K, Q5_K_M, Q4_K_M, Q4_0, Q3_K_M, Q2_K, mlx-4bit, mlx-8bit, AWQ-4bit, GPTQ-Int4, AWQ-8bit, GPTQ-Int8, FP16, FP8, INT8, MXFP4, NVFP4`},
		{func(t *target.Target) { t.ParamsB, t.Driver, t.DeviceClass = 7, "any", "gpu.nvidia.com" }, "Device class (deviceClass, dc): cannot be set with driver any, which names one class per alternative"},
		{func(t *target.Target) { t.Model = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz" },
			`Model (model, m): no model in the catalog matches "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"; or give Parameters (paramsB, p) for a model that is not in the catalog`},
		{func(t *target.Target) { t.Model = "NousResearch/Lama-2-7b-chat-hf" },
			`Model (model, m): no model in the catalog matches "NousResearch/Lama-2-7b-chat-hf"; closest: NousResearch/Llama-2-7b-chat-hf`},
		{func(t *target.Target) { t.Model = "llama-2-7b-chat" },
			`Model (model, m): "llama-2-7b-chat" matches 3 models: NousResearch/Llama-2-7b-chat-hf, TheBloke/Llama-2-7B-Chat-GPTQ, unsloth/llama-2-7b-chat-bnb-4bit; give the full name`},
	}
	for _, c := range cases {
		tg := target.Default()
		c.mut(&tg)
		_, err := Resolve(tg)
		var fe *target.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%+v: err %v, want *FieldError %q", tg, err, c.want)
			continue
		}
		if err.Error() != c.want && !(strings.HasPrefix(c.want, "Model (model, m): no model") && strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("error = %q\n want   %q", err, c.want)
		}
		if f, ok := target.ByName(fe.Field); !ok || fe.Key != f.Key || fe.Label != f.Label {
			t.Errorf("%s: key %q, label %q; the table says %+v", fe.Field, fe.Key, fe.Label, f)
		}
	}
}

func TestFieldErrorText(t *testing.T) {
	if got := (&target.FieldError{Field: "name", Key: "name", Label: "Claim name", Msg: "x"}).Error(); got != "Claim name (name): x" {
		t.Errorf("same key: %q", got)
	}
	if got := (&target.FieldError{Field: "query", Msg: "x"}).Error(); got != "query: x" {
		t.Errorf("no key: %q", got)
	}
	if got := target.NewFieldError("minTps", "m").Error(); got != "Target decode speed (minTps, tps): m" {
		t.Errorf("NewFieldError: %q", got)
	}
}

func TestValidInputsAtTheLimits(t *testing.T) {
	for _, mut := range []func(*target.Target){
		func(t *target.Target) { t.MinTps = 100000 },
		func(t *target.Target) { t.MinTps = 0.001 },
		func(t *target.Target) { t.EfficiencyPct = 1 },
		func(t *target.Target) { t.EfficiencyPct = 100 },
		func(t *target.Target) { t.Sizing, t.Context = "kv", 1 },
		func(t *target.Target) { t.Sizing, t.Context = "kv", 1<<24 },
		func(t *target.Target) { t.Sequences = 4096 },
		func(t *target.Target) { t.Count = 8 },
		func(t *target.Target) { t.KVCache = "FP8" }, // element types ignore case
	} {
		tg := target.Default()
		mut(&tg)
		if _, err := ResolveEntry(tg, testModel7B); err != nil {
			t.Errorf("%+v: %v", tg, err)
		}
	}
	b := resolveFixture(t, func(t *target.Target) { t.KVCache = "Q8_0" })
	if b.KVCache != "q8_0" || b.Target.KVCache != "q8_0" {
		t.Errorf("kvCache Q8_0 → %q, want canonical q8_0", b.KVCache)
	}
}

func TestQuantTable(t *testing.T) {
	want := map[string]float64{"F32": 4.0, "F16": 2.0, "BF16": 2.0, "Q8_0": 1.05, "Q6_K": 0.80, "Q5_K_M": 0.68,
		"Q4_K_M": 0.58, "Q4_0": 0.58, "Q3_K_M": 0.48, "Q2_K": 0.37, "mlx-4bit": 0.55, "mlx-8bit": 1.0,
		"AWQ-4bit": 0.5, "GPTQ-Int4": 0.5, "AWQ-8bit": 1.0, "GPTQ-Int8": 1.0,
		// The serving formats llmfit lacks carry their real size in both modes (formats.go).
		"FP16": 2, "FP8": 1, "INT8": 1, "MXFP4": 0.53125, "NVFP4": 0.5625}
	if len(Quants()) != len(want) {
		t.Errorf("Quants() = %v", Quants())
	}
	for q, bpp := range want {
		if got := BytesPerParam(q); got != bpp {
			t.Errorf("BytesPerParam(%s) = %v, want %v", q, got, bpp)
		}
		// An override of the fixture to q: weights 7 × bpp, memory × 1.2.
		if q == "Q4_K_M" {
			continue
		}
		b := resolveFixture(t, func(t *target.Target) { t.Quant = q })
		if b.Quant != q || !b.QuantOverride || !near(b.WeightsGB, 7*bpp) || b.MemoryGi != int64(math.Ceil(7*bpp*1.2)) {
			t.Errorf("quant %s: %s override %v weights %v, %d Gi", q, b.Quant, b.QuantOverride, b.WeightsGB, b.MemoryGi)
		}
	}
	// llmfit's silent fallback for anything else, kept only as BytesPerParam's answer.
	for _, q := range []string{"AutoRound-4bit", "IQ4_XS", ""} {
		if BytesPerParam(q) != 0.58 {
			t.Errorf("BytesPerParam(%q) = %v, want llmfit's 0.58", q, BytesPerParam(q))
		}
	}
}

func TestQuantCanonicalisation(t *testing.T) {
	// q4_k_m is the entry's own quant in another case: canonical spelling, not an override, so the
	// catalog minimum applies (6 Gi), not weights × 1.2 (4.872 → 5 Gi).
	b := resolveFixture(t, func(t *target.Target) { t.Quant = "q4_k_m" })
	if b.Quant != "Q4_K_M" || b.Target.Quant != "Q4_K_M" || b.QuantOverride || b.MemoryGi != 6 || b.MinBandwidthGBs != 148 {
		t.Errorf("q4_k_m: %s (target %s), override %v, %d Gi, %d GB/s", b.Quant, b.Target.Quant, b.QuantOverride, b.MemoryGi, b.MinBandwidthGBs)
	}
	b = resolveFixture(t, func(t *target.Target) { t.Quant = "q8_0" })
	if b.Quant != "Q8_0" || !b.QuantOverride || b.MemoryGi != 9 || b.MinBandwidthGBs != 268 {
		t.Errorf("q8_0: %s, override %v, %d Gi, %d GB/s", b.Quant, b.QuantOverride, b.MemoryGi, b.MinBandwidthGBs)
	}
	b = resolveFixture(t, func(t *target.Target) { t.Quant = "MLX-4BIT" })
	if b.Quant != "mlx-4bit" {
		t.Errorf("MLX-4BIT → %q", b.Quant)
	}
	// Unknown quant typed by a user: an error listing the known ones.
	for _, q := range []string{"IQ4_XS", "AutoRound-4bit", "Q4", " Q4_K_M"} {
		_, err := ResolveEntry(target.Target{MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1, Quant: q}, testModel7B)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != "quant" || !strings.Contains(err.Error(), "known: F32, F16, BF16, Q8_0") ||
			!strings.Contains(err.Error(), "GPTQ-Int8") {
			t.Errorf("quant %q: %v", q, err)
		}
	}
}

// The catalog's AutoRound-4bit entries keep llmfit's 0.58 so their numbers match llmfit's.
func TestAutoRoundKeepsFallback(t *testing.T) {
	n := 0
	for _, m := range catalog.Models() {
		if m.Quantization != "AutoRound-4bit" {
			continue
		}
		n++
		b := resolve(t, func(t *target.Target) { t.Model = m.Name })
		w := float64(m.ParametersRaw) / 1e9 * 0.58
		if b.Quant != "AutoRound-4bit" || b.QuantOverride || b.BytesPerParam != 0.58 || b.WeightsGB != w ||
			b.MemoryGi != int64(math.Ceil(math.Max(m.MinVRAMGB, w))) || b.MinBandwidthGBs != int64(math.Ceil(((20*w)*100)/55)) {
			t.Errorf("%s: %+v", m.Name, b)
		}
		// Its own quant in another case is still its own.
		b = resolve(t, func(t *target.Target) { t.Model, t.Quant = m.Name, "autoround-4BIT" })
		if b.Quant != "AutoRound-4bit" || b.QuantOverride {
			t.Errorf("%s autoround-4BIT: %s override %v", m.Name, b.Quant, b.QuantOverride)
		}
	}
	if n != 5 {
		t.Errorf("%d AutoRound-4bit entries, want 5", n)
	}
	// By hand: Intel/DeepSeek-V4-Flash-W4A16-AutoRound, 39,916,293,330 parameters × 0.58 = 23.1514501314 GB;
	// memory max(20.4, 23.15) → 24 Gi; bandwidth ceil(20 × 23.1514501314 × 100 / 55) = ceil(841.87) = 842.
	b := resolve(t, func(t *target.Target) { t.Model = "Intel/DeepSeek-V4-Flash-W4A16-AutoRound" })
	if b.MemoryGi != 24 || b.MinBandwidthGBs != 842 {
		t.Errorf("DeepSeek-V4-Flash AutoRound: %d Gi, %d GB/s; want 24, 842", b.MemoryGi, b.MinBandwidthGBs)
	}
	// Another entry's quant is not this one's: AutoRound-4bit on a Q4_K_M entry is unknown.
	_, err := Resolve(target.Target{Model: "NousResearch/Llama-2-7b-chat-hf", Quant: "AutoRound-4bit", MinTps: 20, EfficiencyPct: 55,
		Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1})
	if err == nil || !strings.Contains(err.Error(), `unknown quantization "AutoRound-4bit"`) {
		t.Errorf("AutoRound-4bit on a Q4_K_M entry: %v", err)
	}
}

func TestParameterCountFallback(t *testing.T) {
	cases := []struct {
		count string
		want  float64
	}{{"7.0B", 7}, {"494M", 0.494}, {"2K", 2e-6}, {"1.5T", 1500}, {" 8b ", 8}, {"7.0", 0}, {"B", 0}, {"-3B", 0}, {"abcB", 0}, {"", 0}}
	for _, c := range cases {
		m := catalog.Model{ParameterCount: c.count}
		if got := paramsB(&m); !near(got, c.want) {
			t.Errorf("paramsB(%q) = %v, want %v", c.count, got, c.want)
		}
	}
	// parameters_raw wins over the display form.
	m := catalog.Model{ParametersRaw: 494032768, ParameterCount: "494M"}
	if got := paramsB(&m); got != 0.494032768 {
		t.Errorf("raw: %v", got)
	}
	// An entry with only parameter_count is sized from it.
	e := testModel7B
	e.ParametersRaw = 0
	b, err := ResolveEntry(target.Default(), e)
	if err != nil || b.MinBandwidthGBs != 148 {
		t.Errorf("from parameter_count: %d GB/s, %v", b.MinBandwidthGBs, err)
	}
}

// llmfitBandwidth is llmfit's operation order, ((minTps × weights) × 100) / efficiencyPct.
func llmfitBandwidth(minTps, weights float64, eff int) int64 {
	return int64(math.Ceil(((minTps * weights) * 100) / float64(eff)))
}

// The cases where the order of the operations changes the bandwidth ceiling. The nine entries of
// the issue are the mlx-4bit overrides at llmfit's default speed (20 tok/s at 55 %): their exact
// value is a whole number that llmfit's order hits and another order misses by one float step.
// At the defaults with the entries' own quantizations no entry is order-sensitive. The rest are
// from the conformance grid (30 tok/s at 60 % with Q8_0, F16 overrides) and two more quants.
var orderSensitive = []struct {
	model      string
	quant      string
	minTps     float64
	eff        int
	want       int64 // llmfit's order
	altA, altB int64 // minTps × (weights × 100 / eff); (minTps × 100 / eff) × weights
}{
	{"shoumenchougou/RWKV7-G1f-1.5B-GGUF", "mlx-4bit", 20, 55, 30, 30, 31},
	{"shoumenchougou/RWKV7-G1f-2.9B-GGUF", "mlx-4bit", 20, 55, 58, 58, 59},
	{"google/gemma-3n-E2B-it", "mlx-4bit", 20, 55, 80, 81, 81},
	{"shoumenchougou/RWKV7-G1f-7.2B-GGUF", "mlx-4bit", 20, 55, 144, 145, 145},
	{"google/gemma-3n-E4B-it", "mlx-4bit", 20, 55, 160, 161, 161},
	{"google/gemma-3-12b-it", "mlx-4bit", 20, 55, 240, 240, 241},
	{"mistralai/Mistral-Small-24B-Instruct-2501", "mlx-4bit", 20, 55, 480, 480, 481},
	{"CohereForAI/c4ai-command-r-v01", "mlx-4bit", 20, 55, 700, 700, 701},
	{"tiiuae/falcon-40b-instruct", "mlx-4bit", 20, 55, 800, 800, 801},
	{"microsoft/phi-4", "Q8_0", 30, 60, 736, 735, 735},
	{"microsoft/Phi-3-medium-14b-instruct", "Q8_0", 30, 60, 736, 735, 735},
	{"microsoft/Phi-4-reasoning", "Q8_0", 30, 60, 736, 735, 735},
	{"openchat/openchat-3.5-0106", "Q6_K", 30, 60, 281, 280, 280},
	{"XiaomiMiMo/MiMo-7B-RL", "Q6_K", 30, 60, 281, 280, 280},
	{"shoumenchougou/RWKV7-G1f-7.2B-GGUF", "Q6_K", 30, 60, 288, 289, 289},
	{"shoumenchougou/RWKV7-G1f-13.3B-GGUF", "Q6_K", 30, 60, 533, 532, 532},
	{"microsoft/phi-4", "Q6_K", 30, 60, 561, 560, 560},
	{"google/gemma-3n-E2B-it", "Q5_K_M", 30, 60, 137, 136, 136},
	{"google/gemma-3n-E4B-it", "Q5_K_M", 30, 60, 273, 272, 272},
	{"tiiuae/falcon-40b-instruct", "F16", 30, 60, 4000, 4001, 4000},
}

func TestOperationOrder(t *testing.T) {
	for _, c := range orderSensitive {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Quant, t.MinTps, t.EfficiencyPct = c.model, c.quant, c.minTps, c.eff
		})
		if b.MinBandwidthGBs != c.want {
			t.Errorf("%s %s %v tok/s %d%%: %d GB/s, want llmfit's %d", c.model, c.quant, c.minTps, c.eff, b.MinBandwidthGBs, c.want)
		}
		// The case is really order-sensitive (variables, so the compiler cannot fold constants).
		tps, w, eff := c.minTps, b.WeightsGB, float64(c.eff)
		a := int64(math.Ceil(tps * (w * 100 / eff)))
		bb := int64(math.Ceil((tps * 100 / eff) * w))
		if a != c.altA || bb != c.altB || (a == c.want && bb == c.want) {
			t.Errorf("%s %s: other orders give %d and %d, table says %d and %d", c.model, c.quant, a, bb, c.altA, c.altB)
		}
	}
	// Exactly nine entries are order-sensitive for the mlx-4bit override at the defaults, none
	// with the entries' own quantizations.
	for _, q := range []string{"", "mlx-4bit"} {
		n := 0
		for _, m := range catalog.Models() {
			b := resolve(t, func(t *target.Target) { t.Model, t.Quant = m.Name, q })
			tps, w, eff := b.Target.MinTps, b.WeightsGB, float64(b.Target.EfficiencyPct)
			if int64(math.Ceil(tps*(w*100/eff))) != b.MinBandwidthGBs || int64(math.Ceil((tps*100/eff)*w)) != b.MinBandwidthGBs {
				n++
			}
		}
		if want := map[string]int{"": 0, "mlx-4bit": 9}[q]; n != want {
			t.Errorf("quant %q: %d order-sensitive entries, want %d", q, n, want)
		}
	}
}

// Every catalog entry resolves at llmfit's defaults, with llmfit's arithmetic.
func TestCatalogSweepDefaults(t *testing.T) {
	for _, m := range catalog.Models() {
		b, err := Resolve(target.Target{Model: m.Name, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1})
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if b.Model.Name != m.Name || b.Quant != m.Quantization || b.QuantOverride {
			t.Errorf("%s resolved to %s / %s", m.Name, b.Model.Name, b.Quant)
		}
		w := float64(m.ParametersRaw) / 1e9 * BytesPerParam(m.Quantization)
		if b.WeightsGB != w {
			t.Errorf("%s: weights %v, want %v", m.Name, b.WeightsGB, w)
		}
		if want := int64(math.Ceil(math.Max(m.MinVRAMGB, w))); b.MemoryGi != want || b.MemoryGi < 1 {
			t.Errorf("%s: %d Gi, want %d", m.Name, b.MemoryGi, want)
		}
		if want := llmfitBandwidth(20, w, 55); b.MinBandwidthGBs != want || b.MinBandwidthGBs < 1 {
			t.Errorf("%s: %d GB/s, want %d", m.Name, b.MinBandwidthGBs, want)
		}
		// Four MoE entries list active_parameters equal to the total (allenai/Flex-reddit-2x7B-1T, …).
		if m.MoE && (b.ActiveParamsB != float64(m.ActiveParameters)/1e9 || b.ActiveParamsB > b.ParamsB) {
			t.Errorf("%s: MoE with active %v of %v", m.Name, b.ActiveParamsB, b.ParamsB)
		}
		// Nine unmarked mixtures of experts say their active size in their name (ERNIE-4.5-21B-A3B, …).
		if !m.MoE && b.ActiveParamsB != b.ParamsB && b.ActiveParamsB != ActiveFromName(m.Name, b.ParamsB) {
			t.Errorf("%s: dense with active %v of %v", m.Name, b.ActiveParamsB, b.ParamsB)
		}
	}
}

// Every catalog entry also resolves in kv mode and for each driver but nvidia (which may find
// no product for the biggest models, an error that names candidates).
func TestCatalogSweepModes(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps the catalog")
	}
	nvidiaErrs := 0
	for _, m := range catalog.Models() {
		for _, mut := range []func(*target.Target){
			func(t *target.Target) { t.Sizing = "kv" },
			func(t *target.Target) { t.Sizing, t.KVCache, t.Sequences = "kv", "q4_0", 4 },
			func(t *target.Target) { t.Driver = "amd" },
			func(t *target.Target) { t.Driver, t.Count = "intel", 2 },
			func(t *target.Target) { t.Quant, t.MinTps, t.EfficiencyPct = "F16", 30, 60 },
		} {
			tg := target.Default()
			tg.Model = m.Name
			mut(&tg)
			b, err := Resolve(tg)
			if err != nil {
				t.Errorf("%s %+v: %v", m.Name, tg, err)
				continue
			}
			if b.MemoryGi < 1 || b.MinBandwidthGBs < 1 {
				t.Errorf("%s %+v: %d Gi %d GB/s", m.Name, tg, b.MemoryGi, b.MinBandwidthGBs)
			}
		}
		tg := target.Default()
		tg.Model, tg.Driver = m.Name, "nvidia"
		b, err := Resolve(tg)
		var fe *target.FieldError
		switch {
		case err == nil && len(b.Products) == 0:
			t.Errorf("%s nvidia: no products and no error", m.Name)
		case err != nil && (!errors.As(err, &fe) || fe.Field != "driver" || !strings.Contains(err.Error(), "best candidates: NVIDIA B200")):
			t.Errorf("%s nvidia: %v", m.Name, err)
		case err != nil:
			nvidiaErrs++
		}
	}
	t.Logf("%d entries have no single NVIDIA product at the defaults", nvidiaErrs)
}

// KV mode, hand-computed. GiB = 2^30 bytes; GB = 10^9 bytes. The llama.cpp reserve per device is
// 451 MiB of CUDA context (0.4404296875 GiB) + the compute buffer 512 × (n_vocab + n_embd) × 4 B
// (engine.go): Qwen2.5-7B, 152,064 + 3,584: 318,767,104 B = 304 MiB, reserve 0.7373046875 GiB;
// Llama-3.1-8B, 128,256 + 4,096: 271,056,896 B = 258.5 MiB, reserve 0.69287109375 GiB;
// Qwen3-30B-A3B, 151,936 + 2,048: 315,359,232 B = 300.75 MiB, reserve 0.7341308594 GiB;
// a custom model (both unknown: 262,144 + 16,384): 570,425,344 B = 0.53125 GiB, reserve 0.9716796875 GiB.
// The bandwidth floor is the calibrated model inverted (speedfloor.go): with the default driver
// (llmfit.ai: any vendor) it assumes the least efficient family of the accelerator table, intel,
// e = 0.4345, and t0 = 1.903 ms: at 20 tok/s, bandwidth ≥ read / (e × (1/20 − t0))
// = read / (0.4345 × 0.048097) = read GB / 0.0208981465. A mixture of experts adds 87.32 µs per
// layer with routed experts to t0 (fit/speed.go, moelayers.go): with 48 layers 0.001903 + 48 ×
// 0.00008732 = 0.00609436 s, and bandwidth ≥ read / (0.4345 × 0.04390564) = read GB / 0.01907700058.
// A GGUF type weighs what llama.cpp's files of it weigh (formats.go): Q4_K_M 4.58 GiB for
// Llama-3-8B's 8,030,261,248 parameters, 0.6124007 B each.
func TestKVDense(t *testing.T) {
	// Qwen/Qwen2.5-7B-Instruct at Q4_K_M: 7,615,616,512 params, real context 32,768 capped to 8,192,
	// 28 layers × 4 KV heads × 128 head dim (architectures.csv).
	// weights = 7,615,616,512 × 0.6124007 = 4,663,808,830.21 B = 4.3435 GiB
	// kv = 2 × 28 × 4 × 128 × 8,192 × 1 × 2 B = 469,762,048 B = 0.4375 GiB
	// memory = 4.3435 + 0.4375 + 0.7373 = 5.5183 → 6 Gi
	// read/token = 4,663,808,830.21 + 469,762,048 = 5,133,570,878.21 B = 5.1336 GB
	// bandwidth = 5.13357088 / 0.0208981465 = 245.65 → 246 GB/s
	q4 := func(f func(t *target.Target)) func(t *target.Target) {
		return func(t *target.Target) { t.Model, t.Sizing, t.Quant = "Qwen/Qwen2.5-7B-Instruct", "kv", "Q4_K_M"; f(t) }
	}
	b := resolve(t, q4(func(t *target.Target) {}))
	if b.ContextTokens != 8192 || b.KVBytes != 469762048 || b.KVEstimated || b.MemoryGi != 6 || b.MinBandwidthGBs != 246 ||
		!near(b.MemoryGB, 5.518315134765588) || b.OverheadGiB != 0.7373046875 || !near(b.ReadGBPerToken, 5.13357087821) {
		t.Errorf("Qwen2.5-7B kv: ctx %d, kv %v B, est %v, %v GB → %d Gi, %d GB/s", b.ContextTokens, b.KVBytes, b.KVEstimated, b.MemoryGB, b.MemoryGi, b.MinBandwidthGBs)
	}
	// fp8: kv = 234,881,024 B = 0.21875 GiB; memory 5.2996 → 6 Gi; read 4.8986899 GB → 234.41 → 235 GB/s.
	b = resolve(t, q4(func(t *target.Target) { t.KVCache = "fp8" }))
	if b.KVBytes != 234881024 || b.MemoryGi != 6 || b.MinBandwidthGBs != 235 || b.KVCache != "fp8" {
		t.Errorf("fp8: kv %v, %d Gi, %d GB/s", b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// q8_0: ggml blocks of 32 values + an fp16 scale, 34/32 B: kv = 2 × 28 × 4 × 128 × 8,192 × 1.0625
	// = 249,561,088 B; memory 5.3132 → 6 Gi; read 4.9133699 GB → 235.12 → 236 GB/s.
	b = resolve(t, q4(func(t *target.Target) { t.KVCache = "q8_0" }))
	if b.KVBytes != 249561088 || b.MemoryGi != 6 || b.MinBandwidthGBs != 236 {
		t.Errorf("q8_0: kv %v, %d Gi, %d GB/s", b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// q4_0: 18/32 B: kv = 28,672 × 8,192 × 0.5625 = 132,120,576 B = 0.12305 GiB; memory 4.3435 + 0.1230
	// + 0.7373 = 5.2039 → 6 Gi; read 4.7959294 GB → 229.50 → 230 GB/s.
	b = resolve(t, q4(func(t *target.Target) { t.KVCache = "q4_0" }))
	if b.KVBytes != 132120576 || b.MemoryGi != 6 || b.MinBandwidthGBs != 230 {
		t.Errorf("q4_0: kv %v, %d Gi, %d GB/s", b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// 4 sequences of 32,768 tokens: kv = 57,344 B/token × 32,768 × 4 = 7,516,192,768 B = 7 GiB;
	// memory 4.3435 + 7 + 0.7373 = 12.0808 → 13 Gi; read 12.1800016 GB → 582.84 → 583 GB/s.
	b = resolve(t, q4(func(t *target.Target) { t.Context, t.Sequences = 32768, 4 }))
	if b.ContextTokens != 32768 || b.KVBytes != 7516192768 || b.MemoryGi != 13 || b.MinBandwidthGBs != 583 || b.Target.Sequences != 4 {
		t.Errorf("4 × 32k: kv %v, %d Gi, %d GB/s", b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// An explicit context longer than the model's is taken as asked (the render warns).
	b = resolve(t, q4(func(t *target.Target) { t.Context = 65536 }))
	if b.ContextTokens != 65536 || b.KVBytes != 57344*65536 || b.MaxContext != 32768 {
		t.Errorf("ctx 65536: %d tokens, %v B, max %d", b.ContextTokens, b.KVBytes, b.MaxContext)
	}
	// Without a quant the model's own is its release format, BF16: 7,615,616,512 × 2 B = 14.1853 GiB;
	// memory 14.1853 + 0.4375 + 0.7373 = 15.3601 → 16 Gi; read 15.2312330 + 0.4697620 = 15.7009951 GB → 751.33 → 752.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen2.5-7B-Instruct", "kv" })
	if b.Quant != "BF16" || b.QuantOverride || b.BytesPerParam != 2 || b.MemoryGi != 16 || b.MinBandwidthGBs != 752 {
		t.Errorf("Qwen2.5-7B own format: %s override %v, %v B/param, %d Gi, %d GB/s", b.Quant, b.QuantOverride, b.BytesPerParam, b.MemoryGi, b.MinBandwidthGBs)
	}
}

// Llama-3.1-8B at 32,768 tokens × 4 sequences in fp16 (issue 11): the catalog lacks its
// architecture and puts a 4,096 placeholder in its context; architectures.csv gives 32 layers ×
// 8 KV heads × 128 and 131,072 tokens.
func TestKVLlama31At32kTimes4(t *testing.T) {
	// kv = 2 × 32 × 8 × 128 × 2 B × (32,768 × 4 = 131,072 tokens) = 17,179,869,184 B = 16.0 GiB
	// weights (its release format, BF16) = 8,030,261,248 × 2 = 16,060,522,496 B = 14.9575 GiB
	// memory = 14.9575 + 16 + 0.6929 = 31.6504 → 32 Gi (the estimate used to ask 24)
	// read = 16.0605225 + 17.1798692 = 33.2403917 GB → 33.2403917 / 0.0208981465 = 1590.59 → 1591 GB/s
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Context, t.Sequences = "meta-llama/Llama-3.1-8B-Instruct", "kv", 32768, 4
	})
	if b.KVEstimated || b.KVBytes != 17179869184 || b.KVBytes/gib != 16 || b.Quant != "BF16" || b.MemoryGi != 32 ||
		b.MinBandwidthGBs != 1591 || b.Arch.Source != SourceVerified || b.MaxContext != 131072 {
		t.Errorf("Llama-3.1-8B 32k × 4: est %v kv %v B, %s, %d Gi, %d GB/s, %s, max ctx %d",
			b.KVEstimated, b.KVBytes, b.Quant, b.MemoryGi, b.MinBandwidthGBs, b.Arch.Source, b.MaxContext)
	}
	// The default context is its real one (131,072) capped at 8,192, not the 4,096 placeholder:
	// kv = 131,072 B × 8,192 = 1 GiB; memory 14.9575 + 1 + 0.6929 = 16.6504 → 17 Gi.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "meta-llama/Llama-3.1-8B-Instruct", "kv" })
	if b.ContextTokens != 8192 || b.KVBytes != 1<<30 || b.MemoryGi != 17 {
		t.Errorf("Llama-3.1-8B default: ctx %d kv %v, %d Gi", b.ContextTokens, b.KVBytes, b.MemoryGi)
	}
	// llmfit mode does not move: max(4.1, 8,030,261,248 × 0.58 = 4.6576 GB) → 5 Gi; ceil(20 × 4.6576 × 100 / 55) = 170.
	b = resolve(t, func(t *target.Target) { t.Model = "meta-llama/Llama-3.1-8B-Instruct" })
	if b.MemoryGi != 5 || b.MinBandwidthGBs != 170 || b.OverheadGiB != 0 || b.Quant != "Q4_K_M" {
		t.Errorf("Llama-3.1-8B llmfit: %d Gi, %d GB/s", b.MemoryGi, b.MinBandwidthGBs)
	}
}

func TestKVMixtureOfExperts(t *testing.T) {
	// Qwen/Qwen3-30B-A3B-Instruct-2507: 30,531,911,680 params, release BF16, 48 layers × 4 KV heads
	// × 128, context 262,144 capped to 8,192; active 3,353,032,704 (moeactive.go, from config.json's
	// shapes; the catalog's 3,339,427,840 is within 1 %, so no params line says so).
	// weights = 30,531,911,680 × 2 = 61,063,823,360 B = 56.8701 GiB
	// kv = 2 × 48 × 4 × 128 × 8,192 × 2 = 805,306,368 B = 0.75 GiB
	// memory = 56.8701 + 0.75 + 0.7341 = 58.3542 → 59 Gi
	// read/token = active 3,353,032,704 × 2 B = 6,706,065,408 B + kv 805,306,368 B = 7.511371776 GB
	// overhead = 0.001903 + 48 × 0.00008732 = 0.00609436 s; (0.05 − 0.00609436) × 0.4345 = 0.01907700058
	// bandwidth = 7.511371776 / 0.01907700058 (48 MoE layers) = 393.74 → 394 GB/s
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "Qwen/Qwen3-30B-A3B-Instruct-2507", "kv" })
	if b.ActiveParamsB != 3.353032704 || b.ParamsB != 30.53191168 || b.KVBytes != 805306368 || b.MemoryGi != 59 ||
		b.MinBandwidthGBs != 394 || !near(b.ActiveGB, 6.706065408) || !near(b.ReadGBPerToken, 7.511371776) ||
		!near(b.SpeedOverheadSeconds, 0.00609436) || b.ParamsFrom != "" {
		t.Errorf("Qwen3-30B-A3B kv: active %v, kv %v, %d Gi, %d GB/s, read %v", b.ActiveParamsB, b.KVBytes, b.MemoryGi, b.MinBandwidthGBs, b.ReadGBPerToken)
	}
	// llmfit mode sizes on all parameters: ceil(20 × 17.7085 × 100 / 55) = ceil(643.95) = 644;
	// memory max(15.6, 17.7085) → 18 Gi.
	b = resolve(t, func(t *target.Target) { t.Model = "Qwen/Qwen3-30B-A3B-Instruct-2507" })
	if b.MinBandwidthGBs != 644 || b.MemoryGi != 18 {
		t.Errorf("Qwen3-30B-A3B llmfit: %d Gi, %d GB/s; want 18, 644", b.MemoryGi, b.MinBandwidthGBs)
	}
}

func TestKVTokensRoom(t *testing.T) {
	// Fixture in llmfit mode: 6 Gi floor; weights 4.06e9 B; overhead 0.5 GiB; no architecture, so the
	// fp16 estimate 0.000008 × 7 GB = 56,000 B per token.
	// room = 6 × 2^30 − 4.06e9 − 2^29 = 6,442,450,944 − 4,060,000,000 − 536,870,912 = 1,845,580,032 B
	// → 1,845,580,032 / 56,000 = 32,956 tokens.
	b := resolveFixture(t, nil)
	if b.KVTokensRoom != 32956 {
		t.Errorf("KVTokensRoom = %d, want 32956", b.KVTokensRoom)
	}
	// Qwen2.5-7B in llmfit mode: floor max(3.9, 4.417) → 5 Gi; room = 5 × 2^30 − 4,417,057,576.96 − 2^29
	// = 5,368,709,120 − 4,417,057,576.96 − 536,870,912 = 414,780,631.04 B; 57,344 B per token → 7,233 tokens.
	b = resolve(t, func(t *target.Target) { t.Model = "Qwen/Qwen2.5-7B-Instruct" })
	if b.MemoryGi != 5 || b.KVTokensRoom != 7233 {
		t.Errorf("Qwen2.5-7B: %d Gi, room %d tokens; want 5, 7233", b.MemoryGi, b.KVTokensRoom)
	}
}

func TestCountSplit(t *testing.T) {
	// llmfit mode, fixture on 2 devices: memory 6 / 2 = 3 → 3 Gi; bandwidth 147.636 / (2 × 0.9) = 82.02 → 83.
	b := resolveFixture(t, func(t *target.Target) { t.Count = 2 })
	if b.MemoryGi != 3 || b.MinBandwidthGBs != 83 || b.OverheadGiB != 0 {
		t.Errorf("llmfit ×2: %d Gi, %d GB/s; want 3, 83", b.MemoryGi, b.MinBandwidthGBs)
	}
	// kv mode, Qwen2.5-7B Q4_K_M on 2 devices: (4,663,808,830.21 + 469,762,048) / 2 / 2^30 + 0.7373 = 3.1278
	// → 4 Gi per device (the 0.7373 GiB llama.cpp reserve on each); each device holds half the layers, but
	// llama.cpp runs them in turn, so a token reads all 5.1335709 GB at one device's bandwidth, and 0.5 ms
	// of communication joins t0: 5.1335709 / (0.4345 × (0.05 − 0.001903 − 0.0005)) = 5.1335709 / 0.0206808965
	// = 248.23 → 249 GB/s.
	b = resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Count, t.Quant = "Qwen/Qwen2.5-7B-Instruct", "kv", 2, "Q4_K_M"
	})
	if b.MemoryGi != 4 || b.MinBandwidthGBs != 249 || !near(b.MemoryGB, 3.127809911132794) {
		t.Errorf("kv ×2: %v → %d Gi, %d GB/s; want 3.1278 → 4, 249", b.MemoryGB, b.MemoryGi, b.MinBandwidthGBs)
	}
	// Custom 405B Q4_K_M (an override: × 1.2): weights 234.9 GB, memory 281.88 GB.
	// ×1: 282 Gi, ceil(8541.82) = 8542; ×3: 93.96 → 94 Gi, 8541.82 / 2.7 = 3163.64 → 3164;
	// ×4: 70.47 → 71 Gi, 8541.82 / 3.6 = 2372.73 → 2373.
	for _, c := range []struct {
		n       int
		mem, bw int64
	}{{1, 282, 8542}, {3, 94, 3164}, {4, 71, 2373}, {8, 36, 1187}} {
		b := resolve(t, func(t *target.Target) { t.ParamsB, t.Count = 405, c.n })
		if b.MemoryGi != c.mem || b.MinBandwidthGBs != c.bw {
			t.Errorf("405B ×%d: %d Gi, %d GB/s; want %d, %d", c.n, b.MemoryGi, b.MinBandwidthGBs, c.mem, c.bw)
		}
	}
}

func TestCustomModel(t *testing.T) {
	// 70B, default quant Q4_K_M (always an override for a custom model): weights 40.6 GB,
	// memory 48.72 → 49 Gi; bandwidth ceil(20 × 40.6 × 100 / 55) = ceil(1476.36) = 1477.
	b := resolve(t, func(t *target.Target) { t.ParamsB = 70 })
	if !b.Custom || b.Model.Name != "custom 70B" || b.Quant != "Q4_K_M" || !b.QuantOverride || b.MemoryGi != 49 || b.MinBandwidthGBs != 1477 {
		t.Errorf("custom 70B: %+v", b)
	}
	// kv with layers 80 × kvHeads 8 × headDim 128 at 8,192 tokens: kv = 2 × 80 × 8 × 128 × 8,192 × 2
	// = 2,684,354,560 B = 2.5 GiB; weights 70e9 × 0.6124007 = 42.8680485e9 B; memory 42.8680485e9 / 2^30
	// + 2.5 + 0.9717 = 43.3957 → 44 Gi; read 45.5524031 GB → 45.5524031 / 0.0208981465 = 2179.73 → 2180 GB/s.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.Sizing, t.Layers, t.KVHeads, t.HeadDim = 70, "kv", 80, 8, 128 })
	if b.KVEstimated || b.ContextTokens != 8192 || b.KVBytes != 2684354560 || b.MemoryGi != 44 || b.MinBandwidthGBs != 2180 ||
		b.Arch.Source != SourceGiven {
		t.Errorf("custom 70B arch: est %v ctx %d kv %v, %d Gi, %d GB/s", b.KVEstimated, b.ContextTokens, b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// Without architecture: the estimate 0.000008 × 70 × 8,192 = 4.58752 GB = 4.2725 GiB;
	// memory 39.9240 + 4.2725 + 0.9717 = 45.1681 → 46 Gi; read 47.4555685 GB → 2270.80 → 2271 GB/s.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.Sizing = 70, "kv" })
	if !b.KVEstimated || b.KVBytes != 4587520000 || b.MemoryGi != 46 || b.MinBandwidthGBs != 2271 || b.Arch.Source != SourceEstimated {
		t.Errorf("custom 70B estimated: est %v kv %v, %d Gi, %d GB/s", b.KVEstimated, b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// A mixture of experts: 100B total, 10B active, 48 × 8 × 128: kv = 1,610,612,736 B = 1.5 GiB;
	// memory 61.240069e9 / 2^30 + 1.5 + 0.9717 = 59.5059 → 60 Gi; read 10 × 0.6124007 = 6.124007 GB
	// + 1.6106127 GB = 7.7346197 GB; its 48 layers: / 0.01907700058 = 405.44 → 406 GB/s.
	b = resolve(t, func(t *target.Target) {
		t.ParamsB, t.ActiveParamsB, t.Sizing, t.Layers, t.KVHeads, t.HeadDim = 100, 10, "kv", 48, 8, 128
	})
	if !b.Model.MoE || b.ActiveParamsB != 10 || b.KVBytes != 1610612736 || b.MemoryGi != 60 || b.MinBandwidthGBs != 406 {
		t.Errorf("custom MoE arch: moe %v active %v kv %v, %d Gi, %d GB/s", b.Model.MoE, b.ActiveParamsB, b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// The same without architecture: kv 0.000008 × 100 × 8,192 = 6.5536 GB; memory 57.0343 + 6.1035 + 0.9717
	// = 64.1095 → 65 Gi; read 6.1240069 + 6.5536 = 12.6776069 GB; its layers unknown, MoEDepth(100) = 48, the
	// median of the catalog's mixtures of experts of 50–200 B: / 0.01907700058 = 664.55 → 665 GB/s.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.ActiveParamsB, t.Sizing = 100, 10, "kv" })
	if !b.KVEstimated || !near(b.KVBytes, 6553600000) || b.MemoryGi != 65 || b.MinBandwidthGBs != 665 || !near(b.SpeedOverheadSeconds, 0.00609436) {
		t.Errorf("custom MoE estimated: kv %v, %d Gi, %d GB/s", b.KVBytes, b.MemoryGi, b.MinBandwidthGBs)
	}
	// activeParamsB equal to paramsB is not a mixture of experts.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.ActiveParamsB = 7, 7 })
	if b.Model.MoE || b.ActiveParamsB != 7 {
		t.Errorf("active = total: moe %v", b.Model.MoE)
	}
	// A quant override of a custom model.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.Quant = 7, "f16" })
	if b.Quant != "F16" || b.WeightsGB != 14 || b.MemoryGi != 17 { // 14 × 1.2 = 16.8 → 17
		t.Errorf("custom F16: %s %v %d", b.Quant, b.WeightsGB, b.MemoryGi)
	}
}

func findMatch(t *testing.T, ms []Match, id string) Match {
	t.Helper()
	for _, m := range ms {
		if m.Accelerator.ID == id {
			return m
		}
	}
	t.Fatalf("no accelerator %s", id)
	return Match{}
}

func TestMatchesMemoryAsReported(t *testing.T) {
	// Custom 114B Q4_K_M: 114 × 0.58 × 1.2 = 79.344 → 80 Gi; ceil(20 × 66.12 × 100 / 55) = 2405 GB/s.
	// An "80 GB" H100 reports 81,559 MiB < 81,920 MiB = 80 Gi: it must not fit.
	b := resolve(t, func(t *target.Target) { t.ParamsB = 114 })
	if b.MemoryGi != 80 || b.MinBandwidthGBs != 2405 {
		t.Fatalf("114B: %d Gi, %d GB/s", b.MemoryGi, b.MinBandwidthGBs)
	}
	ms := Matches(b)
	if len(ms) != 157 { // every row of data/accelerators.csv
		t.Fatalf("%d matches", len(ms))
	}
	h100 := findMatch(t, ms, "nvidia-h100-sxm")
	if h100.FitsMemory || !h100.FitsBandwidth || h100.Fits() || h100.Selected || h100.DevicesNeeded != 2 || h100.Verdict != "needs 2 devices" {
		t.Errorf("H100 SXM vs 80 Gi: %+v", h100)
	}
	// The A100 80GB reports exactly 81,920 MiB: memory fits (≥), bandwidth 2,039 < 2,405 does not.
	a100 := findMatch(t, ms, "nvidia-a100-sxm-80")
	if !a100.FitsMemory || a100.FitsBandwidth || a100.DevicesNeeded != 2 || a100.Verdict != "needs 2 devices" {
		t.Errorf("A100 80GB vs 80 Gi: %+v", a100)
	}
	// The H100 NVL (95,830 MiB, 3,900 GB/s) fits: est. 3900 × 0.55 / 66.12 = 32.44 tok/s, headroom 62.2 %.
	nvl := findMatch(t, ms, "nvidia-h100-nvl")
	if !nvl.Fits() || !nvl.Selected || nvl.DevicesNeeded != 1 || nvl.Verdict != "fits on one device" ||
		!near(nvl.EstTps, 3900*0.55/66.12) || !near(nvl.HeadroomPct, (3900*0.55/66.12/20-1)*100) {
		t.Errorf("H100 NVL: %+v", nvl)
	}
	// 79 Gi fits the H100: custom 113B → 113 × 0.696 = 78.648 → 79 Gi = 80,896 MiB ≤ 81,559.
	b = resolve(t, func(t *target.Target) { t.ParamsB = 113 })
	if h := findMatch(t, Matches(b), "nvidia-h100-sxm"); b.MemoryGi != 79 || !h.FitsMemory || !h.Fits() {
		t.Errorf("113B on H100: %d Gi, %+v", b.MemoryGi, h)
	}
	// Order: fitting devices first, then by estimated speed.
	seenMiss := false
	for i, m := range ms {
		if !m.Fits() {
			seenMiss = true
		} else if seenMiss {
			t.Errorf("fitting %s after a miss", m.Accelerator.ID)
		}
		if i > 0 && m.Fits() == ms[i-1].Fits() && m.EstTps > ms[i-1].EstTps {
			t.Errorf("%s faster than %s before it", m.Accelerator.ID, ms[i-1].Accelerator.ID)
		}
	}
	// Which fit: memory ≥ 80 Gi (81,920 MiB) and bandwidth ≥ 2,405. The MI350X and MI355X
	// (294,912 MiB, 8,000 GB/s) tie with the B200 and follow it in table order, as do the GB200,
	// B300 and GB300 (8,000 GB/s) added after them; the MI300A (96,335 MiB, 5,300 GB/s) ties with
	// the MI300X; the GH200 144 GB (4,900 GB/s) and the H20 (4,000 GB/s) fall in by speed, and the
	// GH200 120GB (4,000 GB/s, added later) follows the GH200 480GB and H20 it ties with.
	var fits []string
	for _, m := range ms {
		if m.Fits() {
			fits = append(fits, m.Accelerator.ID)
		}
	}
	if got := strings.Join(fits, ","); got != "nvidia-b200,amd-mi350x,amd-mi355x,nvidia-gb200,nvidia-b300,nvidia-gb300,amd-mi325x,amd-mi300x,amd-mi300a,nvidia-gh200-144,nvidia-h200,nvidia-h200-nvl,nvidia-gh200-96,nvidia-h20,nvidia-gh200-96-120,nvidia-h100-nvl,intel-max-1550" {
		t.Errorf("fitting devices, best first: %s", got)
	}
}

func TestSelectedPerDriver(t *testing.T) {
	// Custom 114B: 80 Gi, 2,405 GB/s (see above).
	sel := func(driver string) string {
		b := resolve(t, func(t *target.Target) { t.ParamsB, t.Driver = 114, driver })
		var ids []string
		for _, m := range Matches(b) {
			if m.Selected {
				ids = append(ids, m.Accelerator.ID)
			}
		}
		return strings.Join(ids, ",")
	}
	cases := map[string]string{
		// Both floors, any vendor.
		"llmfit": "nvidia-b200,amd-mi350x,amd-mi355x,nvidia-gb200,nvidia-b300,nvidia-gb300,amd-mi325x,amd-mi300x,amd-mi300a,nvidia-gh200-144,nvidia-h200,nvidia-h200-nvl,nvidia-gh200-96,nvidia-h20,nvidia-gh200-96-120,nvidia-h100-nvl,intel-max-1550",
		"any":    "nvidia-b200,amd-mi350x,amd-mi355x,nvidia-gb200,nvidia-b300,nvidia-gb300,amd-mi325x,amd-mi300x,amd-mi300a,nvidia-gh200-144,nvidia-h200,nvidia-h200-nvl,nvidia-gh200-96,nvidia-h20,nvidia-gh200-96-120,nvidia-h100-nvl,intel-max-1550",
		// NVIDIA products meeting both floors.
		"nvidia": "nvidia-b200,nvidia-gb200,nvidia-b300,nvidia-gb300,nvidia-gh200-144,nvidia-h200,nvidia-h200-nvl,nvidia-gh200-96,nvidia-h20,nvidia-gh200-96-120,nvidia-h100-nvl",
		// Memory only: the AMD devices with ≥ 80 Gi, fast or not; same for Intel.
		"amd":   "amd-mi350x,amd-mi355x,amd-mi325x,amd-mi300x,amd-mi300a",
		"intel": "intel-max-1550",
	}
	for d, want := range cases {
		if got := sel(d); got != want {
			t.Errorf("driver %s selects %s\n want %s", d, got, want)
		}
	}
	// The NVIDIA allow-list is exactly the selected products, in catalog order.
	b := resolve(t, func(t *target.Target) { t.ParamsB, t.Driver = 114, "nvidia" })
	if got := strings.Join(b.Products, "|"); got != "NVIDIA B200|NVIDIA H200|NVIDIA H200 NVL|NVIDIA GH200 480GB|NVIDIA H100 NVL|NVIDIA H20|NVIDIA GH200 144G HBM3e|NVIDIA GB200|NVIDIA B300 SXM6 AC|NVIDIA GB300|NVIDIA GH200 120GB" {
		t.Errorf("products = %s", got)
	}
	if b.DeviceClass != "gpu.nvidia.com" {
		t.Errorf("nvidia class = %s", b.DeviceClass)
	}
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.Driver = 114, "any" })
	if b.DeviceClass != "llmfit.ai" || len(b.Products) != 11 {
		t.Errorf("any: class %s, %d products", b.DeviceClass, len(b.Products))
	}
	for d, class := range map[string]string{"amd": "gpu.amd.com", "intel": "gpu.intel.com", "llmfit": "llmfit.ai"} {
		b := resolve(t, func(t *target.Target) { t.ParamsB, t.Driver = 114, d })
		if b.DeviceClass != class || len(b.Products) != 0 {
			t.Errorf("%s: class %s, products %v", d, b.DeviceClass, b.Products)
		}
		b = resolve(t, func(t *target.Target) { t.ParamsB, t.Driver, t.DeviceClass = 114, d, "my.class" })
		if b.DeviceClass != "my.class" {
			t.Errorf("%s with deviceClass: %s", d, b.DeviceClass)
		}
	}
	if d, ok := driverByName("nvidia"); !ok || d.Domain != "gpu.nvidia.com" || !d.ProductList || !d.Bandwidth {
		t.Errorf("driverByName(nvidia) = %+v", d)
	}
	if _, ok := driverByName("NVIDIA"); ok {
		t.Error("driver names are case-sensitive")
	}
	if got := strings.Join(DriverNames(), ","); got != "llmfit,nvidia,amd,intel,any" {
		t.Errorf("DriverNames = %s", got)
	}
	if alt := AnyAlternatives(); len(alt) != 2 || alt[0].Domain != "llmfit.ai" || alt[1].Domain != "gpu.nvidia.com" {
		t.Errorf("AnyAlternatives = %+v", alt)
	}
}

func TestDevicesNeededAndVerdicts(t *testing.T) {
	// Custom 405B (282 Gi, 8,542 GB/s on one device; see TestCountSplit for the splits).
	b := resolve(t, func(t *target.Target) { t.ParamsB = 405 })
	ms := Matches(b)
	// H100 SXM: ×3 needs 94 Gi > 79.65 GiB; ×4 needs 71 Gi and 2,373 GB/s ≤ 3,350 → 4.
	if h := findMatch(t, ms, "nvidia-h100-sxm"); h.DevicesNeeded != 4 || h.Verdict != "needs 4 devices" {
		t.Errorf("H100 SXM: %d, %q", h.DevicesNeeded, h.Verdict)
	}
	// B200 (179.06 GiB, 8,000 GB/s): ×1 282 Gi no; ×2 141 Gi, 8541.82 / 1.8 = 4745.5 → 4746 ≤ 8000 → 2.
	if m := findMatch(t, ms, "nvidia-b200"); m.DevicesNeeded != 2 || m.Verdict != "needs 2 devices" || m.FitsBandwidth != false {
		t.Errorf("B200: %+v", m)
	}
	// T4 (15 GiB, 320 GB/s): ×8 needs 36 Gi: never → both words.
	if m := findMatch(t, ms, "nvidia-t4"); m.DevicesNeeded != 0 || m.Verdict != "too little memory and too slow" {
		t.Errorf("T4: %+v", m)
	}
	// No device fits a single 405B: every match is a miss.
	for _, m := range ms {
		if m.Fits() {
			t.Errorf("%s fits 405B alone", m.Accelerator.ID)
		}
	}
	// With count 4 on H100s: each device 71 Gi, 2,373 GB/s: fits; estTps on 4 devices
	// = 3350 × 4 × 0.9 × 0.55 / 234.9 = 28.22 tok/s.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.Count = 405, 4 })
	h := findMatch(t, Matches(b), "nvidia-h100-sxm")
	if !h.Fits() || h.Verdict != "fits on 4 devices" || !near(h.EstTps, 3350*4*0.9*0.55/234.9) || h.DevicesNeeded != 4 {
		t.Errorf("H100 ×4: %+v", h)
	}
	// Too slow only: the fixture at 100,000 tok/s needs ceil(100000 × 4.06 × 100 / 55) = 738,182 GB/s.
	b = resolveFixture(t, func(t *target.Target) { t.MinTps = 100000 })
	for _, m := range Matches(b) {
		if m.Verdict != "too slow" || m.DevicesNeeded != 0 || !m.FitsMemory {
			t.Errorf("fixture at 100k tok/s on %s: %+v", m.Accelerator.ID, m)
		}
	}
	// Too little memory only: 1,000B at 0.1 tok/s: 696 Gi, ceil(0.1 × 580 × 100 / 55) = 106 GB/s.
	b = resolve(t, func(t *target.Target) { t.ParamsB, t.MinTps = 1000, 0.1 })
	if m := findMatch(t, Matches(b), "nvidia-t4"); m.Verdict != "too little memory" || !m.FitsBandwidth {
		t.Errorf("1000B on T4: %+v", m)
	}
	// A fitting device with one: the fixture on a T4 (15 GiB ≥ 6, 320 ≥ 148).
	b = resolveFixture(t, nil)
	if m := findMatch(t, Matches(b), "nvidia-t4"); !m.Fits() || m.Verdict != "fits on one device" || m.DevicesNeeded != 1 {
		t.Errorf("fixture on T4: %+v", m)
	}
}

func TestNVIDIANoProduct(t *testing.T) {
	// 405B at the defaults: 282 Gi per device is more than any NVIDIA product holds.
	// Best by estimated speed: the 8000 GB/s boards, 8000 × 0.55 / 234.9 = 18.73 → 19 tok/s, fit as 2
	// (B200 179 GiB, GB200 185 GiB, B300 268.6 GiB, GB300 277.5 GiB: none holds 282 Gi), the first
	// three in catalog order; H200 and H200 NVL (11 tok/s, fit as 3) come after them.
	_, err := Resolve(target.Target{ParamsB: 405, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "nvidia", Count: 1})
	want := "DRA driver (driver, drv): no NVIDIA accelerator in the catalog meets memory ≥ 282 Gi and bandwidth ≥ 8542 GB/s per device; " +
		"best candidates: NVIDIA B200 (19 tok/s, fits as 2 devices), NVIDIA GB200 (one GPU) (19 tok/s, fits as 2 devices), " +
		"NVIDIA B300 (19 tok/s, fits as 2 devices); lower minTps, raise count or choose another driver"
	var fe *target.FieldError
	if !errors.As(err, &fe) || err.Error() != want {
		t.Errorf("error = %v\n want  %s", err, want)
	}
	// any needs an NVIDIA alternative too.
	_, err = Resolve(target.Target{ParamsB: 405, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "any", Count: 1})
	if err == nil || !strings.Contains(err.Error(), "best candidates: NVIDIA B200") {
		t.Errorf("any: %v", err)
	}
	// With count 2 (141 Gi and 4271 GB/s each) the allow-list holds the boards with both: B200,
	// GH200 144 GB (143.4 GiB, 4900 GB/s), GB200, B300 and GB300.
	b, err := Resolve(target.Target{ParamsB: 405, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "nvidia", Count: 2})
	if err != nil || strings.Join(b.Products, ",") != "NVIDIA B200,NVIDIA GH200 144G HBM3e,NVIDIA GB200,NVIDIA B300 SXM6 AC,NVIDIA GB300" {
		t.Errorf("×2: %v, %v", b.Products, err)
	}
	// No speed at all: no "fits as".
	_, err = ResolveEntry(target.Target{MinTps: 100000, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "nvidia", Count: 1}, testModel7B)
	if err == nil || !strings.Contains(err.Error(), "best candidates: NVIDIA B200 (1084 tok/s), NVIDIA GB200 (one GPU) (1084 tok/s), NVIDIA B300 (1084 tok/s)") {
		t.Errorf("too fast: %v", err)
	}
}

// The biggest inputs the limits allow stay inside int64: no wrapped, negative floors.
func TestExtremeInputsStayPositive(t *testing.T) {
	cases := []func(*target.Target){
		func(t *target.Target) {
			t.ParamsB, t.Quant, t.MinTps, t.EfficiencyPct = target.MaxParamsB, "F32", target.MaxMinTps, 1
		},
		func(t *target.Target) {
			t.ParamsB, t.Sizing, t.Layers, t.KVHeads, t.HeadDim = target.MaxParamsB, "kv", target.MaxLayers, target.MaxKVHeads, target.MaxHeadDim
			t.Context, t.Sequences, t.MinTps, t.EfficiencyPct, t.Quant = target.MaxContext, target.MaxSequences, target.MaxMinTps, 1, "F32"
		},
		func(t *target.Target) { t.ParamsB = 1e-300 },
		func(t *target.Target) { t.ParamsB, t.Sizing = 1e-300, "kv" },
	}
	for _, mut := range cases {
		tg := target.Default()
		mut(&tg)
		b, err := Resolve(tg)
		if err != nil {
			var fe *target.FieldError
			if !errors.As(err, &fe) {
				t.Errorf("%+v: %v is not a FieldError", tg, err)
			}
			continue
		}
		if b.MemoryGi < 1 || b.MinBandwidthGBs < 1 || b.KVTokensRoom < 0 {
			t.Errorf("%+v: %d Gi, %d GB/s, room %d", tg, b.MemoryGi, b.MinBandwidthGBs, b.KVTokensRoom)
		}
		for _, m := range Matches(b) {
			if math.IsNaN(m.EstTps) || m.EstTps < 0 || m.DevicesNeeded < 0 {
				t.Errorf("%+v on %s: %+v", tg, m.Accelerator.ID, m)
			}
			// A floor of thousands of GiB fits no device (no wrap-around of memoryGi × 2^30).
			if b.MemoryGi > 1<<20 && (m.FitsMemory || m.DevicesNeeded != 0) {
				t.Errorf("%+v: %s holds %d Gi: %+v", tg, m.Accelerator.ID, b.MemoryGi, m)
			}
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	tg := target.Default()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(tg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMatches(b *testing.B) {
	tg := target.Default()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	bd, err := Resolve(tg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Matches(bd)
	}
}

// A device under the bandwidth floor whose own estimated speed meets the target is not "too
// slow": Llama-3.1-8B-Instruct (BF16, kv, 8,192 tokens) for 20 tok/s on the llmfit.ai class asks
// 820 GB/s, its floor at the least efficient family's 43.45 %; an RTX A6000 (768 GB/s, nvidia's
// 79.37 %) decodes it at 1 / ((16.06 + 1.07) GB / (768 GB/s × 0.7937) + 1.903 ms) = 33.3 tok/s,
// +67 %, which the table printed beside "too slow". An RTX 2060 (336 GB/s) is too slow.
func TestVerdictTooSlowOnlyBelowTheTarget(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing = "meta-llama/Llama-3.1-8B-Instruct", target.SizingKV
	b, err := Resolve(tg)
	if err != nil {
		t.Fatal(err)
	}
	if b.MinBandwidthGBs != 820 {
		t.Fatalf("floor %d GB/s, want 820", b.MinBandwidthGBs)
	}
	ms := Matches(b)
	a6000 := findMatch(t, ms, "nvidia-rtx-a6000")
	if a6000.FitsBandwidth || !within(a6000.EstTps, 33.3, 0.05) || a6000.Verdict != "under the bandwidth floor" {
		t.Errorf("RTX A6000: fits bandwidth %v, %.2f tok/s, %q", a6000.FitsBandwidth, a6000.EstTps, a6000.Verdict)
	}
	for _, m := range ms {
		if slow := strings.HasSuffix(m.Verdict, "too slow"); slow && m.EstTps >= tg.MinTps || !m.FitsBandwidth && !slow && m.EstTps < tg.MinTps && m.DevicesNeeded <= 1 && m.FitsMemory {
			t.Errorf("%s: %.2f tok/s for %v: %q", m.Accelerator.ID, m.EstTps, tg.MinTps, m.Verdict)
		}
	}
	if m := findMatch(t, ms, "nvidia-rtx-2060"); m.Verdict != "too little memory and too slow" {
		t.Errorf("RTX 2060: %.2f tok/s, %q", m.EstTps, m.Verdict)
	}
}

// llmfit mode's warning counts the room its floor leaves with the KV cache the KV-aware sizing
// counts where the architecture is known, not llmfit's per-parameter estimate:
// Llama-3.1-8B-Instruct (catalog: no layers; architectures.csv: 32 layers × 8 KV heads × 128)
// at Q4_K_M, floor 5 Gi: room = 5 × 2^30 − 8.03 B × 0.58 − 2^29 B = 174,220,000 B or so;
// 2 × 32 × 8 × 128 × 2 B = 131,072 B a token → 1,329 tokens (the estimate's 64,240 B: 2,712).
// Gemma-3-27B's sliding layers hold at most 1,024 tokens each, so its room is more than the
// full-attention count alone would give, and never more than the longest context a target asks.
func TestKVTokensRoomOnTheArchitecture(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model = "meta-llama/Llama-3.1-8B-Instruct" })
	if b.MemoryGi != 5 || b.KVTokensRoom != 1329 {
		t.Errorf("Llama-3.1-8B: %d Gi, room %d tokens; want 5, 1329", b.MemoryGi, b.KVTokensRoom)
	}
	b = resolve(t, func(t *target.Target) { t.Model = "google/gemma-3-27b-it" })
	room := float64(b.MemoryGi)*gib - b.residentWeightBytes() - runtimeOverhead*gib
	if got := b.Arch.KVCacheBytes(int(b.KVTokensRoom), 2); got > room || b.Arch.KVCacheBytes(int(b.KVTokensRoom)+1, 2) <= room {
		t.Errorf("gemma-3-27b: room %d tokens is not the largest that fits %.0f B", b.KVTokensRoom, room)
	}
	b = resolve(t, func(t *target.Target) { t.Model = "mistralai/Mistral-7B-v0.1" })
	if b.Arch.SlidingLayers == b.Arch.Layers && b.KVTokensRoom != target.MaxContext {
		t.Errorf("Mistral-7B-v0.1 (every layer a window): room %d", b.KVTokensRoom)
	}
}

// The NVIDIA driver's refusal asks to raise the count only where a count up to 8 would do:
// Llama-3.1-8B-Instruct (kv, llama.cpp's layer split) at 400 tok/s needs 36,161 GB/s a device,
// which no number of devices taking their layers in turn reaches; the best candidates fit at no
// count, and the refusal said "lower minTps, raise count or choose another driver".
func TestNVIDIANoProductRaiseCountOnlyWhereItHelps(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Driver, tg.MinTps = "meta-llama/Llama-3.1-8B-Instruct", target.SizingKV, "nvidia", 400
	_, err := Resolve(tg)
	if err == nil || !strings.HasSuffix(err.Error(), "NVIDIA B300 (217 tok/s); lower minTps or choose another driver") {
		t.Errorf("error = %v", err)
	}
}

// The memory parts (the page's picture of one device, and each match's free memory) add up to the
// floor before its ceiling in the KV-aware mode, whatever each device keeps of the KV cache:
// DeepSeek-V3 on 8 under vLLM keeps all 8.58 GiB of its MLA latent on each device (the parts
// drew 1.07, 1/8, and summed to 95.51 GiB under the 104 Gi floor of 103.02); Llama-3.3-70B's 8
// KV heads on 3 keep 3/8; Qwen3-235B's 4 on 8 are copied, 1/4; llama.cpp splits 1/n.
func TestPartsAddUpToTheFloor(t *testing.T) {
	for _, tc := range []func(*target.Target){
		func(t *target.Target) {
			t.Model, t.Context, t.Sequences, t.Count, t.Engine, t.KVCache = "deepseek-ai/DeepSeek-V3", 32768, 8, 8, "vllm", "fp8"
		},
		func(t *target.Target) { t.Model, t.Count, t.Engine = "meta-llama/Llama-3.3-70B-Instruct", 3, "vllm" },
		func(t *target.Target) { t.Model, t.Count, t.Engine = "Qwen/Qwen3-235B-A22B-Instruct-2507", 8, "vllm" },
		func(t *target.Target) { t.Model, t.Count, t.Context = "meta-llama/Llama-3.3-70B-Instruct", 2, 32768 },
		func(t *target.Target) { t.Model = "google/gemma-3-27b-it" },
	} {
		b := resolve(t, func(t *target.Target) { t.Sizing = target.SizingKV; tc(t) })
		p := b.Parts()
		if !within(p.Total(), b.MemoryGB, 1e-9) || !within(p.KVGiB, b.KVBytes*b.KVDeviceShare(b.Target.Count)/gib, 1e-12) {
			t.Errorf("%s on %d: parts %.3f + %.3f + %.3f = %.3f GiB, floor %.3f (%d Gi)", b.Model.Name, b.Target.Count,
				p.WeightsGiB, p.KVGiB, p.ReserveGiB, p.Total(), b.MemoryGB, b.MemoryGi)
		}
	}
}
