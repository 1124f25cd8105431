package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// ggufTwins against the catalog: each count is its entry's, to the parameter, the entry has a row
// whose MLP width ggufMLPWidths knows, and every other such entry of that count has the same
// shape (layers, query and KV heads, head size, width, vocabulary, MLP width); every 16-bit
// release among them whose count its shape accounts for has its count in the table.
func TestGGUFTwinsTable(t *testing.T) {
	type shape struct{ layers, heads, kvHeads, headDim, hidden, vocab, mlp int }
	shapeOf := func(m *catalog.Model) shape {
		a := &m.Arch
		return shape{a.Layers, a.AttentionHeads, a.KVHeads, a.HeadDim, a.HiddenSize, m.Vocabulary(), ggufMLPWidths[a.Base]}
	}
	want := map[int64]shape{}
	for count, name := range ggufTwins {
		m, err := catalog.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.ParametersRaw != count || !m.Arch.Known() || ggufMLPWidths[m.Arch.Base] <= 0 {
			t.Errorf("%s: count %d (table %d), row %v, MLP %d", name, m.ParametersRaw, count, m.Arch.Known(), ggufMLPWidths[m.Arch.Base])
		}
		want[count] = shapeOf(m)
	}
	for _, m := range catalog.Models() {
		if !m.Arch.Known() || ggufMLPWidths[m.Arch.Base] <= 0 || !sixteenBitRelease(&m) {
			continue
		}
		s, ok := want[m.ParametersRaw]
		if !ok {
			// a count its shape does not account for is no count of a file's tensors: a VLM's (SmolVLM-
			// 256M-Instruct, with its vision tower), or Qwen/Qwen2-0.5B's 422,395,904 (its shape's is 494,032,768)
			a := ArchitectureOf(&m)
			if _, _, counted := ggufCount(ggufRecipes["Q4_K_M"], ggufShapeOf(&m, &a), float64(m.ParametersRaw)); counted {
				t.Errorf("%s: count %d not in ggufTwins", m.Name, m.ParametersRaw)
			}
			continue
		}
		if got := shapeOf(&m); got != s {
			t.Errorf("%s: shape %+v, its count's twin %+v", m.Name, got, s)
		}
	}
}

// Entries without a row, counted with their twin's heads and MLP width, and so as the twin:
//
//	microsoft/harrier-oss-v1-270m: google/gemma-3-270m's 268,098,176 parameters and shape: Q4_K_M
//	  246,587,904 B (gguf_widths_test.go's count); unsloth/gemma-3-270m-it, the same, has had a row
//	  of its own since the fifteenth session (s15-mlaswa), so counts on its own shape, to the byte
//	Qwen/Qwen2.5-Coder-0.5B(-Instruct): Qwen2.5-0.5B's 494,032,768 and shape: 391,859,712 B, the
//	  llama-bench model_size of Qwen2.5-Coder-0.5B's Q4_K_M file to the byte (gguf_widths_test.go)
//	Qwen/Qwen2-0.5B-Instruct (a row, now with its MLP width 4,864): the same 391,859,712 B
//
// Before, each was bounded: the 270M ones at 167,772,160 × 8.5 / 8 = 178,257,920 B for the
// embedding in Q8_0 + 100,326,016 × 6.25 / 8 = 78,379,700 B + 18 × 32 × 640 × 4 = 1,474,560 B of
// F32: 258,112,180 B (4.7 % over; google/gemma-3-270m itself, without a vocabulary, at
// 286,328,872), and the 0.5B ones at 136,134,656 × 8.5 / 8 = 144,643,072 B + 357,898,112 × 6.25 / 8
// = 279,607,900 B + 24 × 32 × 896 × 4 = 2,752,512 B: 427,003,484 B (9.0 % over).
func TestGGUFTwinsCounted(t *testing.T) {
	for _, c := range []struct {
		model, twin string
		want        float64
	}{
		{"unsloth/gemma-3-270m-it", "", 246587904},
		{"microsoft/harrier-oss-v1-270m", "google/gemma-3-270m", 246587904},
		{"Qwen/Qwen2.5-Coder-0.5B", "Qwen/Qwen2.5-0.5B", 391859712},
		{"Qwen/Qwen2.5-Coder-0.5B-Instruct", "Qwen/Qwen2.5-0.5B", 391859712},
		{"Qwen/Qwen2-0.5B-Instruct", "", 391859712},
	} {
		b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing, tg.Quant = c.model, target.SizingKV, "Q4_K_M" })
		if got := b.ParamsB * 1e9 * b.BytesPerParam; math.Abs(got-c.want) > 1 {
			t.Errorf("%s: weights %.0f B, want %.0f", c.model, got, c.want)
		}
		if !strings.HasPrefix(b.WeightsRule, "GGUF Q4_K_M counted tensor by tensor") || (c.twin != "") != strings.Contains(b.WeightsRule, c.twin+"'s, whose parameter count and shape it has") {
			t.Errorf("%s: rule %q", c.model, b.WeightsRule)
		}
	}
}

// The same count with another shape is no twin: microsoft/harrier-oss-v1-270m with a layer more,
// or with another vocabulary, is bounded.
func TestGGUFTwinNeedsTheShape(t *testing.T) {
	m, err := catalog.Lookup("microsoft/harrier-oss-v1-270m")
	if err != nil {
		t.Fatal(err)
	}
	if ggufTwin(m) == nil {
		t.Fatal("microsoft/harrier-oss-v1-270m: no twin")
	}
	deeper, wider := *m, *m
	deeper.Layers++
	wider.VocabSize = 256000
	for _, x := range []*catalog.Model{&deeper, &wider} {
		if tw := ggufTwin(x); tw != nil {
			t.Errorf("%d layers, vocabulary %d: twin %s", x.Layers, x.Vocabulary(), tw.Name)
		}
	}
}

// HuggingFaceTB/SmolLM2-360M (architectures.csv: litgpt's SmolLM2-360M{}, width 960, 32 layers, 15
// query and 5 KV heads of 64, MLP 2,560, vocabulary 49,152, tied), 361,821,120 parameters, Q4_K_M;
// use_more_bits(i, 32) holds for 16 layers (0-3, 6, 9, …, 27, 28-31):
//
//	q, o (921,600 each; o's rows 15 × 64 = 960 wide), k (307,200), gate, up (2,457,600 each), all
//	  Q4_K → Q5_0 (5.5 bits): 32 × 7,065,600 × 5.5 = 1,243,545,600 bits
//	v (307,200): 16 layers Q6_K → Q8_0 (8.5), 16 Q4_K → Q5_0: 16 × 307,200 × 14 = 68,812,800
//	down (rows 2,560 wide: Q6_K 6.5625 / Q4_K 4.5): 16 × 2,457,600 × 11.0625 = 434,995,200
//	the tied embedding 49,152 × 960 = 47,185,920 in Q8_0: 401,080,320
//	= 2,148,433,920 bits = 268,554,240 B, + (361,821,120 − 361,758,720) × 4 = 249,600 →
//	268,803,840 B = 256.35 MiB.
//
// (Q8_0: 361,758,720 × 8.5 / 8 + 249,600 = 384,618,240 B, under the "386 MB" of
// HuggingFaceTB's smollm2-360m-instruct-q8_0.gguf by its metadata.) SmolLM2-360M-Instruct, whose
// catalog count (322,437,119) is none, is sized on the base's shapes (params.go) and so the same;
// HuggingFaceTB/SmolLM-360M-Instruct holds the same count and llmfit shape: SmolLM2-360M's twin.
// Before, SmolLM2-360M and SmolLM-360M-Instruct were bounded at 47,185,920 × 8.5 / 8 = 50,135,040 B +
// 314,635,200 × 6.25 / 8 = 245,808,750 B + 32 × 32 × 960 × 4 = 3,932,160 B = 299,875,950 B (11.6 %
// over), and SmolLM2-360M-Instruct's bound rested on its catalog count.
func TestGGUFSmolLM2_360M(t *testing.T) {
	for _, c := range []struct {
		model  string
		params float64
	}{
		{"HuggingFaceTB/SmolLM2-360M", 0.36182112},
		{"HuggingFaceTB/SmolLM2-360M-Instruct", 0.36182112},
		{"HuggingFaceTB/SmolLM-360M-Instruct", 0.36182112},
	} {
		b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing, tg.Quant = c.model, target.SizingKV, "Q4_K_M" })
		if got := b.ParamsB * 1e9 * b.BytesPerParam; !near(b.ParamsB, c.params) || math.Abs(got-268803840) > 1 ||
			!strings.HasPrefix(b.WeightsRule, "GGUF Q4_K_M counted tensor by tensor") {
			t.Errorf("%s: %v B parameters, weights %.0f B by %q; want %v and 268,803,840 counted", c.model, b.ParamsB, got, b.WeightsRule, c.params)
		}
	}
}
