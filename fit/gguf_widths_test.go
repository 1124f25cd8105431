package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Files whose width is not a multiple of 256, counted tensor by tensor (gguf_widths.go) against
// their published sizes (llama-bench's size column: the tensors' bytes, without the metadata).
// Q4_K_M; use_more_bits(i, n) holds for 13 of gemma-3-1b-it's 26 layers (0, 1, 2, 5, 8, 11, 14,
// 17, 20, 22-25) and 12 of Qwen2.5-0.5B's 24 (0, 1, 2, 5, 8, 11, 14, 17, 20-23).
//
// gemma-3-1b-it (width 1,152, 26 layers, 4 query heads and 1 KV head of 256, MLP 6,912, vocabulary
// 262,144, embedding tied), 999,885,952 parameters (llama-bench: 999.89 M), Q4_K_M:
//
//	q, k, gate, up (rows 1,152 wide: Q4_K → Q5_0, 5.5 bits): 26 × (1,179,648 + 294,912 + 15,925,248)
//	  × 5.5 = 2,488,172,544 bits
//	v (294,912): 13 layers Q6_K → Q8_0 (8.5), 13 Q4_K → Q5_0 (5.5): 13 × 294,912 × 14 = 53,673,984
//	o (rows 1,024 wide: Q4_K, 4.5): 26 × 1,179,648 × 4.5 = 138,018,816
//	down (rows 6,912 wide: Q6_K 6.5625 / Q4_K 4.5): 13 × 7,962,624 × 11.0625 = 1,145,124,864
//	the tied embedding 262,144 × 1,152 = 301,989,888 in Q8_0: × 8.5 = 2,566,914,048
//	= 6,391,904,256 bits = 798,988,032 B, + the F32 rest 999,885,952 − 999,751,680 matrices =
//	134,272 × 4 = 537,088 B → 799,525,120 B = 762.487 MiB; published 762.49 MiB (five runs).
//
// Qwen2.5-0.5B (width 896, 24 layers, 14 query and 2 KV heads of 64, MLP 4,864, vocabulary
// 151,936, tied), 494,032,768 parameters (llama-bench: 494.03 M), Q4_K_M:
//
//	q, o (802,816 each, o's rows 14 × 64 = 896 wide too), k (114,688), gate, up (4,358,144 each),
//	all Q5_0: 24 × 10,435,584 × 5.5 = 1,377,632,256 bits; v: 12 × 114,688 × 14 = 19,267,584;
//	down (rows 4,864 wide): 12 × 4,358,144 × 11.0625 = 578,543,616; embedding 136,134,656 × 8.5 =
//	1,157,144,576; = 3,132,588,032 bits = 391,573,504 B, + (494,032,768 − 493,961,216) × 4 =
//	286,208 → 391,859,712 B; published 373.71 MiB, and Qwen2.5-Coder-0.5B's llama-bench JSON
//	model_size 391,859,712 (same shape) to the byte.
//
// The same with its own LM head (Qwen's own qwen2.5-0.5b-instruct-q4_k_m.gguf, 630.17 M: llama-bench
// 462.96 MiB; a Rust llama-bench port's test fixture: 485,452,288 B, 630,167,424 parameters): the
// output matrix in Q8_0 and token_embd in Q5_0, + 136,134,656 × 5.5 = 748,740,608 bits =
// 93,592,576 B → 391,573,504 + 93,592,576 + (630,167,424 − 630,095,872) × 4 = 485,452,288 B.
func TestGGUFWidthsAgainstPublished(t *testing.T) {
	const mib = 1 << 20
	qwen := ggufShape{hidden: 896, layers: 24, heads: 14, kvHeads: 2, headDim: 64, vocab: 151936, mlp: 4864, plain: true}
	for _, c := range []struct {
		name   string
		shape  ggufShape
		params float64
		want   float64 // bytes, hand-computed above
		tied   bool
	}{
		{"gemma-3-1b-it", ggufShape{hidden: 1152, layers: 26, heads: 4, kvHeads: 1, headDim: 256, vocab: 262144, mlp: 6912, plain: true},
			999885952, 799525120, true},
		{"Qwen2.5-0.5B", qwen, 494032768, 391859712, true},
		{"Qwen2.5-0.5B, own LM head", qwen, 630167424, 485452288, false},
	} {
		got, tied, ok := ggufCount(ggufRecipes["Q4_K_M"], c.shape, c.params)
		if !ok || got != c.want || tied != c.tied {
			t.Errorf("%s: %.0f B (tied %v, counted %v), want %.0f (tied %v)", c.name, got, tied, ok, c.want, c.tied)
		}
	}
	if got := 799525120.0 / mib; math.Abs(got-762.49) > 0.005 {
		t.Errorf("gemma-3-1b-it: %.3f MiB, published 762.49", got)
	}
	if got := 485452288.0 / mib; math.Abs(got-462.96) > 0.005 {
		t.Errorf("Qwen2.5-0.5B untied: %.3f MiB, published 462.96", got)
	}
}

// The catalog's gemma-3-1b-it in kv mode at Q4_K_M: the count above (799,525,120 B = 0.7995 GB, 30.6 %
// over ggufFormats' 0.612400693 × 999,885,952 = 612,330,850 B), and the header says which rule sized
// it. Without its MLP width (a shape the table does not have) it is bounded: the embedding
// 301,989,888 × 8.5 / 8 = 320,864,256 B, the other 697,896,064 parameters at (7.0 + 5.5) / 2 = 6.25
// bits (ffn_down's layers half Q8_0, half Q5_0: 7.0; Q5_0: 5.5) = 545,231,300 B, F32 26 × 32 ×
// 1,152 × 4 = 3,833,856 B: 869,929,412 B, 8.8 % over the file's 799,525,120 and so never under it.
func TestGGUFWidthsKVMode(t *testing.T) {
	b := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Quant = "google/gemma-3-1b-it", target.SizingKV, "Q4_K_M"
	})
	if got := b.ParamsB * 1e9 * b.BytesPerParam; math.Abs(got-799525120) > 1 {
		t.Errorf("weights %.0f B, want 799,525,120", got)
	}
	if !strings.HasPrefix(b.WeightsRule, "GGUF Q4_K_M counted tensor by tensor") {
		t.Errorf("rule %q", b.WeightsRule)
	}
	s := ggufShape{hidden: 1152, layers: 26, heads: 4, kvHeads: 1, headDim: 256, vocab: 262144, plain: true}
	if got := ggufBound(ggufRecipes["Q4_K_M"], s, 999885952); math.Abs(got-869929412) > 1 {
		t.Errorf("bound %.0f B, want 869,929,412", got)
	}
}

// The bound is never below the count, for every catalog entry the count covers and every type,
// nor below ggufFormats' figure; and Q8_0 (but for gpt-oss's MXFP4 experts) and widths that are
// multiples of 256 keep that figure.
func TestGGUFWidthsBoundCoversCount(t *testing.T) {
	counted := 0
	for _, m := range catalog.Models() {
		a := ArchitectureOf(&m)
		p := paramsB(&m) * 1e9
		for q, r := range ggufRecipes {
			b, rule, ok := ggufWidthBytes(q, p, &m, &a)
			if m.Width()%256 == 0 || m.Width() <= 0 {
				if ok {
					t.Errorf("%s %s: width %d re-sized (%s)", m.Name, q, m.Width(), rule)
				}
				continue
			}
			if !ok {
				t.Errorf("%s %s: width %d not re-sized", m.Name, q, m.Width())
				continue
			}
			// the Llama-3-8B mix is no floor for a file whose experts stay in MXFP4 (gpt-oss)
			if b < RealBytesPerParam(q)*p && !strings.Contains(rule, "experts in MXFP4") {
				t.Errorf("%s %s: %.0f B under the table's %.0f", m.Name, q, b, RealBytesPerParam(q)*p)
			}
			s := ggufShapeOf(&m, &a)
			if c, _, ok := ggufCount(r, s, p); ok {
				counted++
				if bound := ggufBound(r, s, p); bound < c {
					t.Errorf("%s %s: bound %.0f B under the count %.0f", m.Name, q, bound, c)
				}
			}
		}
		if _, rule, ok := ggufWidthBytes("Q8_0", p, &m, &a); ok && !strings.Contains(rule, "experts in MXFP4") {
			t.Errorf("%s: Q8_0 re-sized (%s)", m.Name, rule)
		}
	}
	if counted == 0 {
		t.Error("no catalog entry counted")
	}
}

// google/gemma-3-270m (width 640, 18 layers, 4 query heads and 1 KV head of 256, MLP 2,048,
// vocabulary 262,144 from its architectures.csv row, embedding tied), 268,098,176 parameters:
// matrices 18 × (q 655,360 + k 163,840 + v 163,840 + o 655,360 + gate, up, down 3 × 1,310,720 =
// 5,570,560) = 100,270,080, + the embedding 167,772,160 = 268,042,240; the F32 rest 55,936.
//
// Q8_0 (every matrix 8.5 bits): 268,042,240 × 8.5 / 8 = 284,794,880 B + 55,936 × 4 = 223,744 →
// 285,018,624 B = 271.815 MiB; llama-bench printed 271.81 MiB for gemma-3-270m-Q8_0.gguf
// (ggml-org/llama.cpp#15764), so the vocabulary, the tie and the MLP width are the file's.
//
// Q4_K_M: use_more_bits(i, 18) holds for 9 layers (0, 1, 4, 7, 10, 13, 15, 16, 17).
//
//	q, k, gate, up (rows 640 wide: Q4_K → Q5_0, 5.5 bits): 18 × 3,440,640 × 5.5 = 340,623,360 bits
//	v: 9 layers Q6_K → Q8_0 (8.5), 9 Q4_K → Q5_0 (5.5): 9 × 163,840 × 14 = 20,643,840
//	o (rows 1,024 wide: Q4_K, 4.5): 18 × 655,360 × 4.5 = 53,084,160
//	down (rows 2,048 wide: Q6_K 6.5625 / Q4_K 4.5): 9 × 1,310,720 × 11.0625 = 130,498,560
//	the tied embedding in Q8_0: 167,772,160 × 8.5 = 1,426,063,360
//	= 1,970,913,280 bits = 246,364,160 B + 223,744 → 246,587,904 B = 235.16 MiB.
//
// Without the vocabulary kv mode bounded it at 268,098,176 × 8.5 / 8 + 18 × 32 × 640 × 4 =
// 286,328,872 B (every weight at Q8_0's rate, as the embedding could be most of the file): 16 % over.
func TestGGUFWidthsGemma3_270m(t *testing.T) {
	const mib = 1 << 20
	s := ggufShape{hidden: 640, layers: 18, heads: 4, kvHeads: 1, headDim: 256, vocab: 262144, mlp: 2048, plain: true}
	q8 := func(int, int) *ggmlType { return ggmlQ8_0 }
	allQ8 := ggufRecipe{base: ggmlQ8_0, attnV: func(int, int, int) *ggmlType { return ggmlQ8_0 }, attnQKV: ggmlQ8_0,
		attnOut: ggmlQ8_0, down: q8}
	for _, c := range []struct {
		quant  string
		recipe ggufRecipe
		want   float64
	}{
		{"Q8_0", allQ8, 285018624},
		{"Q4_K_M", ggufRecipes["Q4_K_M"], 246587904},
	} {
		got, tied, ok := ggufCount(c.recipe, s, 268098176)
		if !ok || !tied || got != c.want {
			t.Errorf("%s: %.0f B (tied %v, counted %v), want %.0f tied", c.quant, got, tied, ok, c.want)
		}
	}
	if got := 285018624.0 / mib; math.Abs(got-271.81) > 0.01 {
		t.Errorf("Q8_0: %.3f MiB, llama-bench 271.81", got)
	}
	b := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Sizing, tg.Quant = "google/gemma-3-270m", target.SizingKV, "Q4_K_M"
	})
	if got := b.ParamsB * 1e9 * b.BytesPerParam; math.Abs(got-246587904) > 1 {
		t.Errorf("kv mode: weights %.0f B, want 246,587,904", got)
	}
	if !strings.HasPrefix(b.WeightsRule, "GGUF Q4_K_M counted tensor by tensor") {
		t.Errorf("rule %q", b.WeightsRule)
	}
}
