package fit

import (
	"math"
	"strconv"
)

// gpt-oss's GGUF files keep its routed experts in MXFP4, whatever type the file is named for.
// Its release ships them so (config.json quantization_config: mxfp4, the MoE weights only),
// convert_hf_to_gguf.py writes them so, and the published quantizations leave them so:
// bartowski's openai_gpt-oss-20b-GGUF (llama.cpp b6096) "All quants keep the feed forward
// networks at mxfp4", and llama-quantize would not requantize them anyway without
// --allow-requantize ("requantizing from type MXFP4 is disabled", src/llama-quant.cpp at
// 007dbbf). Only the other tensors follow the type's recipe, by tensor_type_fallback at gpt-oss's
// width of 2,880. Counted so, unsloth's Q4_K_M files and ggml-org's MXFP4_MOE files (a Q8_0 file's
// tensor types) are what llama-bench reports to the 0.01 GiB (gguf_mxfp4_experts_test.go); by
// the bound (every weight at a fallback's rate) the Q4_K_M files were 42 and 46 % over, by
// ggufFormats' Q8_0 figure the Q8_0 files 84 and 96 %.

// ggufMXFP4ExpertWidths are the expert MLP widths (config.json's intermediate_size) of the
// architectures.csv bases whose GGUF files keep the routed experts in MXFP4.
var ggufMXFP4ExpertWidths = map[string]int{
	"openai/gpt-oss-20b":  2880, // maxtext hf_model_configs.py gpt_oss_20b_dict intermediate_size
	"openai/gpt-oss-120b": 2880, // maxtext hf_model_configs.py gpt_oss_120b_dict intermediate_size
}

// mxfp4Bits is GGML_TYPE_MXFP4's block: one E8M0 scale byte and 16 bytes of 4-bit E2M1 per 32
// weights, 17 B = 4.25 bits (ggml-common.h block_mxfp4).
const mxfp4Bits = 17 * 8 / 32.0

// ggufMXFP4Q8_0 is a Q8_0 file's recipe: Q8_0 everywhere (32-weight blocks, which gpt-oss's width
// of 2,880 holds), the output matrix too. With the experts in MXFP4 it is llama.cpp's MXFP4_MOE
// file type (llama_tensor_get_type_impl: "MoE tensors -> MXFP4, other tensors -> Q8_0"), which
// ggml-org's gpt-oss files are.
var ggufMXFP4Q8_0 = ggufRecipe{base: ggmlQ8_0, attnV: func(int, int, int) *ggmlType { return ggmlQ8_0 }, attnQKV: ggmlQ8_0,
	attnOut: ggmlQ8_0, down: func(int, int) *ggmlType { return ggmlQ8_0 }}

// ggufMXFP4ExpertBytes is a quant's GGUF file of a model whose files keep the routed experts in
// MXFP4, and the rule that sized it, for the header; ok false for other models, other types and
// shapes it cannot count.
func ggufMXFP4ExpertBytes(quant string, s ggufShape, base string, params float64) (bytes float64, rule string, ok bool) {
	w := ggufMXFP4ExpertWidths[base]
	r, known := ggufRecipes[quant]
	if quant == "Q8_0" {
		r, known = ggufMXFP4Q8_0, true
	}
	if w <= 0 || !known {
		return 0, "", false
	}
	b, ok := ggufMXFP4ExpertCount(r, s, w, params)
	if !ok {
		return 0, "", false
	}
	rest := "the rest in Q8_0, as in llama.cpp's MXFP4_MOE files"
	if quant != "Q8_0" {
		rest = "the rest by llama.cpp's rules: width " + strconv.Itoa(s.hidden) + " not a multiple of 256, so rows that wide in " +
			fallbackWords(r, s.layers, false, false) + "; its own LM head in Q8_0"
	}
	return b, "GGUF " + quant + " counted tensor by tensor: the routed experts in MXFP4 (4.25 bits), as gpt-oss's GGUF files keep them; " +
		rest + "; the router, biases and norms in F32", true
}

// ggufMXFP4ExpertCount counts such a file: the routed experts (gate, up and down, each experts ×
// width × expert width a layer) in MXFP4; q, k, v and o by the recipe with its fallbacks; the
// token embedding in the default type's fallback and the output matrix in Q8_0 (the embedding is
// not tied); the router (ffn_gate_inp, width × experts a layer), which llama.cpp never
// quantizes, and the rest (biases, attention sinks, norms) in F32. ok false unless the shape's
// matrices account for the catalog's parameters within ggufCountTolerance.
func ggufMXFP4ExpertCount(r ggufRecipe, s ggufShape, expertWidth int, params float64) (bytes float64, ok bool) {
	if expertWidth <= 0 || s.experts <= 0 || s.layers <= 0 || s.heads <= 0 || s.kvHeads <= 0 || s.headDim <= 0 || s.vocab <= 0 {
		return 0, false
	}
	h, q, kv := float64(s.hidden), float64(s.heads*s.headDim), float64(s.kvHeads*s.headDim)
	layers, embed := float64(s.layers), float64(s.vocab)*h
	experts := layers * float64(s.experts) * 3 * h * float64(expertWidth)
	router := layers * h * float64(s.experts)
	matrices := experts + layers*(2*h*q+2*h*kv) + 2*embed + router
	rest := params - matrices
	if rest < 0 || rest > ggufCountTolerance*params {
		return 0, false
	}
	bits := experts * mxfp4Bits
	for i := range s.layers {
		bits += h * q * r.base.storedIn(s.hidden).bits                                   // attn_q
		bits += h * kv * r.base.storedIn(s.hidden).bits                                  // attn_k
		bits += h * kv * r.attnV(i, s.layers, s.heads/s.kvHeads).storedIn(s.hidden).bits // attn_v
		bits += q * h * r.attnOut.storedIn(s.heads*s.headDim).bits                       // attn_output: rows heads × head_dim wide
	}
	bits += embed * r.base.storedIn(s.hidden).bits // token_embd
	bits += embed * ggmlQ8_0.bits                  // output
	return math.Round(bits/8) + (router+rest)*f32Bytes, true
}
