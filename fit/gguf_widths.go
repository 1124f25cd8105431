package fit

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// A GGUF file of a model whose width is not a multiple of 256 (the K-quants' super-block) is not
// the Llama-3-8B mix ggufFormats prices: llama.cpp's quantizer (src/llama-quant.cpp, read at
// ggml-org/llama.cpp 007dbbf) stores each tensor whose rows (ne[0], its input width) its type's
// block does not divide in a fallback type (tensor_type_fallback), and the output matrix, or the
// token embedding tied to it, in Q8_0 (llama_tensor_get_type_impl: "nx % qk_k != 0"). For such a
// model the KV-aware mode counts the file's tensors by those rules (ggufWidthBytes) instead.

// ggmlType is one of llama.cpp's block types: bits per weight, weights per block, and the type
// tensor_type_fallback stores a tensor in when the block does not divide its rows.
type ggmlType struct {
	name     string
	bits     float64
	block    int
	fallback *ggmlType
}

// Bits per weight from ggml-common.h's block structs (bytes per block × 8 / weights per block).
var (
	ggmlQ8_0 = &ggmlType{"Q8_0", 34 * 8 / 32.0, 32, nil}         // fp16 scale + 32 int8 = 34 B: 8.5 bits
	ggmlQ5_1 = &ggmlType{"Q5_1", 24 * 8 / 32.0, 32, nil}         // 2 fp16 + 4 B high bits + 16 B = 24 B: 6 bits
	ggmlQ5_0 = &ggmlType{"Q5_0", 22 * 8 / 32.0, 32, nil}         // fp16 + 4 B high bits + 16 B = 22 B: 5.5 bits
	ggmlQ4_1 = &ggmlType{"Q4_1", 20 * 8 / 32.0, 32, nil}         // 2 fp16 + 16 B = 20 B: 5 bits
	ggmlQ4_0 = &ggmlType{"Q4_0", 18 * 8 / 32.0, 32, nil}         // fp16 + 16 B = 18 B: 4.5 bits
	ggmlQ6K  = &ggmlType{"Q6_K", 210 * 8 / 256.0, 256, ggmlQ8_0} // 210 B per 256: 6.5625 bits
	ggmlQ5K  = &ggmlType{"Q5_K", 176 * 8 / 256.0, 256, ggmlQ5_1} // 176 B per 256: 5.5 bits
	ggmlQ4K  = &ggmlType{"Q4_K", 144 * 8 / 256.0, 256, ggmlQ5_0} // 144 B per 256: 4.5 bits
	ggmlQ3K  = &ggmlType{"Q3_K", 110 * 8 / 256.0, 256, ggmlQ4_0} // 110 B per 256: 3.4375 bits
	ggmlQ2K  = &ggmlType{"Q2_K", 84 * 8 / 256.0, 256, ggmlQ4_0}  // 84 B per 256: 2.625 bits
)

// f32Bytes is what a tensor llama.cpp does not quantize (norms, biases, the MoE router) holds per
// element: convert_hf_to_gguf.py writes them in F32.
const f32Bytes = 4

// storedIn is the type a tensor of rows cols wide is stored in when its recipe says t.
func (t *ggmlType) storedIn(cols int) *ggmlType {
	if cols%t.block != 0 && t.fallback != nil {
		return t.fallback
	}
	return t
}

// ggufRecipe is a file type's choice of tensor type by role and layer (llama_tensor_get_type_impl
// for a dense model without 8 experts, not Falcon, not LLM_TYPE_70B).
type ggufRecipe struct {
	base    *ggmlType                                 // q, k, gate, up, an untied token embedding
	attnV   func(layer, layers, groups int) *ggmlType // groups: query heads per KV head (n_gqa)
	attnQKV *ggmlType                                 // a fused q/k/v (Falcon, Phi-3)
	attnOut *ggmlType
	down    func(layer, layers int) *ggmlType
}

// useMoreBits is llama-quant.cpp's use_more_bits: the first and last eighth of the layers and
// every third between them.
func useMoreBits(i, n int) bool { return i < n/8 || i >= 7*n/8 || (i-n/8)%3 == 2 }

func moreBits(more, less *ggmlType) func(i, n int) *ggmlType {
	return func(i, n int) *ggmlType {
		if useMoreBits(i, n) {
			return more
		}
		return less
	}
}

// ggufRecipes are the GGUF types of ggufFormats whose files change at such a width (Q8_0, with
// 32-weight blocks everywhere and its output in Q8_0 anyway, does not).
var ggufRecipes = map[string]ggufRecipe{
	"Q6_K": {base: ggmlQ6K, attnV: func(int, int, int) *ggmlType { return ggmlQ6K }, attnQKV: ggmlQ6K, attnOut: ggmlQ6K,
		down: func(int, int) *ggmlType { return ggmlQ6K }},
	"Q5_K_M": {base: ggmlQ5K, attnV: func(i, n, _ int) *ggmlType { return moreBits(ggmlQ6K, ggmlQ5K)(i, n) },
		attnQKV: ggmlQ6K, attnOut: ggmlQ5K, down: moreBits(ggmlQ6K, ggmlQ5K)},
	"Q4_K_M": {base: ggmlQ4K, attnV: func(i, n, _ int) *ggmlType { return moreBits(ggmlQ6K, ggmlQ4K)(i, n) },
		attnQKV: ggmlQ5K, attnOut: ggmlQ4K, down: moreBits(ggmlQ6K, ggmlQ4K)},
	// Q4_0 changes only its output matrix (Q6_K, whose fallback is Q8_0); its ffn_down of the first
	// eighth of the layers is Q4_1 when the file was made with an importance matrix, as most
	// published ones are: counted so, which can only be high.
	"Q4_0": {base: ggmlQ4_0, attnV: func(int, int, int) *ggmlType { return ggmlQ4_0 }, attnQKV: ggmlQ4_0, attnOut: ggmlQ4_0,
		down: func(i, n int) *ggmlType {
			if i < n/8 {
				return ggmlQ4_1
			}
			return ggmlQ4_0
		}},
	"Q3_K_M": {base: ggmlQ3K, attnV: func(i, _, _ int) *ggmlType {
		if i < 2 {
			return ggmlQ5K
		}
		return ggmlQ4K
	}, attnQKV: ggmlQ4K, attnOut: ggmlQ4K, down: func(i, n int) *ggmlType {
		if i < n/16 {
			return ggmlQ5K
		}
		return ggmlQ4K
	}},
	"Q2_K": {base: ggmlQ2K, attnV: func(_, _, groups int) *ggmlType {
		if groups >= 4 {
			return ggmlQ4K
		}
		return ggmlQ3K
	}, attnQKV: ggmlQ2K, attnOut: ggmlQ3K, down: func(int, int) *ggmlType { return ggmlQ3K }},
}

// ggufMLPWidths are MLP widths (config.json's intermediate_size, as Lightning-AI/litgpt's
// litgpt/config.py copies it) of architectures.csv bases whose width is not a multiple of 256,
// which the catalog does not record. Whether the embedding is tied is read from the parameter
// count (ggufCount). Only for architectures with q, k and v projections of their own and a gated
// MLP (gate, up, down): a fused q/k/v (Falcon, Phi-3) has the same count and other types.
var ggufMLPWidths = map[string]int{
	"google/gemma-3-1b-it":         6912, // litgpt config.py Gemma-3-1b-it
	"Qwen/Qwen2.5-0.5B(-Instruct)": 4864, // litgpt config.py Qwen2.5-0.5B{}
	"Qwen/Qwen2-0.5B-Instruct":     4864, // mlc-ai/mlc-llm model_preset.py qwen2_0_5b (architectures.csv's source)
	"Qwen/Qwen2-0.5B":              4864, // mlc-ai/mlc-llm model_preset.py qwen2_0_5b (architectures.csv's source)
	"HuggingFaceTB/SmolLM2-135M":   1536, // litgpt config.py SmolLM2-135M{}
	"HuggingFaceTB/SmolLM2-360M":   2560, // litgpt config.py SmolLM2-360M{}
	"google/gemma-3-270m":          2048, // rasbt/LLMs-from-scratch ch05/12_gemma3 GEMMA3_CONFIG_270M hidden_dim (architectures.csv's source)
	"HuggingFaceTB/SmolLM-135M":    1536, // SmolLM2-135M's shape (30 × 576, 9/3 heads, vocabulary 49,152): only the count check confirms it
}

// ggufShape is what counting a file's tensors needs.
type ggufShape struct {
	hidden, layers, heads, kvHeads, headDim, vocab, mlp, experts int
	plain                                                        bool   // q, k, v and o projections of their own (gqa, mha, mqa)
	twin                                                         string // the entry whose count and shape it has, which gave heads and MLP (gguf_twins.go)
}

func ggufShapeOf(m *catalog.Model, a *Architecture) ggufShape {
	s := ggufShape{hidden: m.Width(), layers: a.Layers, kvHeads: a.KVHeads, headDim: a.HeadDim,
		vocab: m.Vocabulary(), experts: a.Experts, mlp: ggufMLPWidths[a.Base]}
	if k := archKin(m); k != nil { // a re-upload takes its kin's row (kinarch.go)
		s.heads = k.Arch.AttentionHeads
	} else if t := ggufTwin(m); t != nil && a.Attention == "" { // its twin's tensors (gguf_twins.go)
		s.heads, s.mlp, s.twin = t.Arch.AttentionHeads, ggufMLPWidths[t.Arch.Base], t.Name
		s.plain = t.Arch.Experts == 0
	}
	switch a.Attention {
	case AttentionGQA, AttentionMHA, AttentionMQA:
		s.plain = a.Experts == 0
	}
	return s
}

// ggufCountTolerance is how far the matrices counted from the shape may fall below the catalog's
// parameters, the rest being norms and biases (gemma-3-1b-it: 134,272 of 999,885,952 = 0.013 %;
// Qwen2.5-0.5B: 71,552 of 494,032,768 = 0.014 %). An untied LM head, counted as tied, is off by
// vocabulary × width (gemma-3-1b-it: 30 %), far outside.
const ggufCountTolerance = 0.001

// ggufWidthBytes is the bytes of the tensors of a quant's GGUF file (what llama-bench's size
// column and the loader's model buffer hold, without the file's metadata) for a model whose width
// is not a multiple of 256, and the rule that sized it, for the header; ok false for any other
// model or type, which ggufFormats sizes.
func ggufWidthBytes(quant string, params float64, m *catalog.Model, a *Architecture) (bytes float64, rule string, ok bool) {
	s := ggufShapeOf(m, a)
	if s.hidden <= 0 || s.hidden%ggmlQ4K.block == 0 || !(params > 0) {
		return 0, "", false
	}
	if b, rule, ok := ggufMXFP4ExpertBytes(quant, s, a.Base, params); ok { // gpt-oss, Q8_0 included
		return b, rule, true
	}
	r, known := ggufRecipes[quant]
	if !known {
		return 0, "", false
	}
	if b, tied, ok := ggufCount(r, s, params); ok {
		head := "its own LM head"
		if tied {
			head = "the LM head tied to the embedding"
		}
		return b, "GGUF " + quant + " counted tensor by tensor by llama.cpp's rules: width " + strconv.Itoa(s.hidden) +
			" not a multiple of 256, so rows that wide in " + fallbackWords(r, s.layers, false, true) + "; " + head + " in Q8_0; MLP " + strconv.Itoa(s.mlp) + twinWords(s), true
	}
	// never under ggufFormats' figure either: the Llama-3-8B files' mix, which a Q4_0 file of a model
	// with a smaller output share (gpt-oss) can be 2 % under, is no size to go below on a bound
	b := max(ggufBound(r, s, params), RealBytesPerParam(quant)*params)
	return b, "GGUF " + quant + " bounded above by llama.cpp's rules: width " + strconv.Itoa(s.hidden) +
		" not a multiple of 256, so rows that wide in " + fallbackWords(r, max(s.layers, 1), true, true) + "; MLP width or LM-head tie unknown: " +
		"every tensor priced in its fallback, half the non-embedding weights at ffn_down's rate, the embedding in Q8_0", true
}

// twinWords says whose heads and MLP width a file was counted with, when not its own row's.
func twinWords(s ggufShape) string {
	if s.twin == "" {
		return ""
	}
	return " and " + strconv.Itoa(s.heads) + " query heads, " + s.twin + "'s, whose parameter count and shape it has"
}

// fallbackWords names the fallbacks of the types a recipe uses: "Q4_K → Q5_0, Q6_K → Q8_0"; fused:
// with the fused q/k/v's, which a counted file (separate q, k and v) does not have; down: with
// ffn_down's, which a file whose MLP is all MXFP4 experts (gpt-oss) does not have.
func fallbackWords(r ggufRecipe, layers int, fused, down bool) string {
	var seen []*ggmlType
	note := func(t *ggmlType) {
		if t.fallback != nil && !slices.Contains(seen, t) {
			seen = append(seen, t)
		}
	}
	note(r.base)
	if fused {
		note(r.attnQKV)
	}
	note(r.attnOut)
	for i := range layers {
		note(r.attnV(i, layers, 1))
		note(r.attnV(i, layers, 4))
		if down {
			note(r.down(i, layers))
		}
	}
	words := make([]string, len(seen))
	for i, t := range seen {
		words[i] = t.name + " → " + t.fallback.name
	}
	return strings.Join(words, ", ")
}

// ggufCount counts the file tensor by tensor where the shape is fully known and its matrices
// account for the catalog's parameters (tied or untied), the remainder held in F32.
func ggufCount(r ggufRecipe, s ggufShape, params float64) (bytes float64, tied, ok bool) {
	if !s.plain || s.mlp <= 0 || s.layers <= 0 || s.heads <= 0 || s.kvHeads <= 0 || s.headDim <= 0 || s.vocab <= 0 {
		return 0, false, false
	}
	h, q, kv, mlp := float64(s.hidden), float64(s.heads*s.headDim), float64(s.kvHeads*s.headDim), float64(s.mlp)
	embed := float64(s.vocab) * h
	layerMatrices := h*q + 2*h*kv + q*h + 3*h*mlp // q, k, v, o; gate, up, down
	matrices := float64(s.layers)*layerMatrices + embed
	switch {
	case math.Abs(params-matrices) <= ggufCountTolerance*params:
		tied = true
	case math.Abs(params-matrices-embed) <= ggufCountTolerance*params:
		matrices += embed
	default:
		return 0, false, false
	}
	if matrices > params {
		return 0, false, false
	}
	bits := 0.0
	for i := range s.layers {
		bits += h * q * r.base.storedIn(s.hidden).bits                                   // attn_q
		bits += h * kv * r.base.storedIn(s.hidden).bits                                  // attn_k
		bits += h * kv * r.attnV(i, s.layers, s.heads/s.kvHeads).storedIn(s.hidden).bits // attn_v
		bits += q * h * r.attnOut.storedIn(s.heads*s.headDim).bits                       // attn_output: rows heads × head_dim wide
		bits += 2 * h * mlp * r.base.storedIn(s.hidden).bits                             // ffn_gate, ffn_up
		bits += mlp * h * r.down(i, s.layers).storedIn(s.mlp).bits                       // ffn_down: rows MLP-wide
	}
	bits += embed * ggmlQ8_0.bits // the output matrix, or the embedding tied to it
	if !tied {
		bits += embed * r.base.storedIn(s.hidden).bits // token_embd
	}
	return bits/8 + (params-matrices)*f32Bytes, tied, true
}

// ggufBound is a size that cannot be below the file's: vocabulary × width in Q8_0 (the output
// matrix or the tied embedding), and every other parameter at the mean of the highest rate
// ffn_down's layers can take (each in its fallback type) and the default type's fallback — an
// MLP's down projection is at most half of it (a gated MLP's third, a plain one's half), an
// untied embedding is in the default type, and q/k/v/o are at most at ffn_down's rate — at
// least the fused q/k/v's fallback; plus, for what llama.cpp leaves in F32 (norms, biases, the
// MoE router, Mamba's conv1d, A and D), 32 × width + experts × width elements a layer at 4 B
// over their price at the rate: an allowance, not a count (a transformer layer's norms are a few
// widths: gemma-3-1b-it's 5,120 = 4.4 × 1,152); where an architecture keeps more in F32 (gpt-oss's
// expert biases, 0.03 % of its weights), the bound rests on its other margins (gpt-oss's experts,
// priced here at 6.25 bits, are MXFP4's 4.25 in its files; it is bounded only when an override
// leaves its shape uncountable, gguf_mxfp4_experts.go).
func ggufBound(r ggufRecipe, s ggufShape, params float64) float64 {
	embed := float64(s.vocab) * float64(s.hidden)
	if embed > params {
		embed = 0
	}
	layers := max(s.layers, 1)
	down := 0.0
	for i := range layers {
		down += max(r.down(i, layers).storedIn(1).bits, r.attnV(i, layers, 1).storedIn(1).bits, r.attnV(i, layers, 4).storedIn(1).bits)
	}
	down /= float64(layers)
	rate := max((down+r.base.storedIn(1).bits)/2, r.attnQKV.storedIn(1).bits, r.attnOut.storedIn(1).bits)
	if embed == 0 { // the vocabulary unknown: the embedding could be most of the file (gemma-3-270m: 63 %), in Q8_0
		rate = max(rate, ggmlQ8_0.bits)
	}
	if s.experts == 8 { // Mixtral's rule: attn_k and attn_v in Q8_0
		rate = max(rate, ggmlQ8_0.bits)
	}
	if s.hidden%ggmlQ8_0.block != 0 { // not even a 32-weight block fits: tensor_type_fallback stores F16
		rate = max(rate, 16)
	}
	f32 := float64(s.layers) * float64(32+s.experts) * float64(s.hidden)
	return (params-embed)*rate/8 + embed*ggmlQ8_0.bits/8 + f32*f32Bytes
}
