package fit

import (
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// Serving formats: how vLLM, SGLang and TensorRT-LLM hold weights, with their real bytes per
// parameter, scales included. llmfit's table (quants, quant.go) keeps its own rounder figures for
// llmfit mode; the KV-aware mode uses these wherever a format is in both.
var servingFormats = []servingFormat{
	{"BF16", 2, "16-bit brain float"},
	{"FP16", 2, "16-bit float"},
	{"FP8", 1, "8-bit E4M3; one fp32 scale per tensor, channel or 128×128 block: < 0.01 bit per weight, not counted"},
	{"INT8", 1, "W8A8: 8-bit integers, one scale per output channel (thousands of weights): not counted"},
	{"MXFP4", 4.25 / 8, "OCP Microscaling: 4-bit E2M1 + one 8-bit E8M0 scale per 32 weights = 4 + 8/32 = 4.25 bits"},
	{"NVFP4", 4.5 / 8, "4-bit E2M1 + one FP8 E4M3 scale per 16 weights = 4 + 8/16 = 4.5 bits (+ one fp32 per tensor)"},
	// AutoAWQ and GPTQ pack, per group of 128 input weights, one fp16 scale and one zero point at
	// the weights' own width (qzeros packed in int32 like qweight).
	{"AWQ-4bit", (4 + (16+4)/128.0) / 8, "4-bit + fp16 scale and 4-bit zero per 128 = 4 + 20/128 = 4.15625 bits"},
	{"GPTQ-Int4", (4 + (16+4)/128.0) / 8, "4-bit + fp16 scale and 4-bit zero per 128 = 4 + 20/128 = 4.15625 bits"},
	{"AWQ-8bit", (8 + (16+8)/128.0) / 8, "8-bit + fp16 scale and 8-bit zero per 128 = 8 + 24/128 = 8.1875 bits"},
	{"GPTQ-Int8", (8 + (16+8)/128.0) / 8, "8-bit + fp16 scale and 8-bit zero per 128 = 8 + 24/128 = 8.1875 bits"},
}

// expertFormats are formats a release keeps only its routed experts in, named in its WeightFormat
// but not offered as a quantization of the whole model.
var expertFormats = []servingFormat{
	// Kimi-K2-Thinking, K2.5 and K2.6 (config.json quantization_config: compressed-tensors
	// pack-quantized, num_bits 4, group_size 32, symmetric, the routed experts only): one bf16
	// scale per 32 weights and no zero point. K2-Thinking's routed 1,014.69 B × 0.5625 + its other
	// 11.72 B in BF16 = 594.2 GB, the size Moonshot gives its checkpoint; the catalog's counts hold
	// the scales as parameters (1,058.12 B = 1,026.41 + 1,014.69 / 32), params.go.
	{"INT4", 4.5 / 8, "W4A16: 4-bit, one bf16 scale per 32 weights, symmetric = 4 + 16/32 = 4.5 bits"},
}

type servingFormat struct {
	Name string
	BPP  float64
	// Why is the derivation, for the reader of this table.
	Why string
}

func (f *servingFormat) name() string { return f.Name }

// ServingFormats lists the serving-format names (beside llmfit's and the GGUF types in Quants).
func ServingFormats() []string { return namesOf(servingFormats, (*servingFormat).name) }

// servingBPP is a serving format's real bytes per parameter, and its name as the table spells it.
func servingBPP(name string) (string, float64, bool) {
	if f, ok := rowFold(servingFormats, name, (*servingFormat).name); ok {
		return f.Name, f.BPP, true
	}
	return "", 0, false
}

// ggufFormats are llama.cpp's GGUF types as whole files hold them: the mix of tensor types a
// type's name stands for (Q4_K_M: Q4_K, 144 B per 256 weights = 4.5 bits, with attn_v and
// ffn_down of about half the layers and the output matrix in Q6_K, 6.5625 bits), as the size of
// one model's file gives it. llama.cpp's tools/quantize/quantize.cpp (QUANT_OPTIONS) lists each
// type's file for Llama-3-8B, whose 8,030,261,248 parameters they divide: Q4_K_M "4.58G" (GiB)
// = 4.58 × 2^30 / 8,030,261,248 = 0.6124 B = 4.90 bits (a real Llama-3.1-8B-Instruct Q4_K_M
// file: 4.92 GB / 8.03 B = 0.6128; llmfit's 0.58 is 5 % low). Their output and embedding
// matrices are Llama-3's share of the model; a model with another share is a little off. (The
// quantize README's table for Llama-3.1-8B, tools/quantize/README.md, prints the same files' bits
// per weight to four decimals, Q4_K_M 4.8944 = 0.6118 B: the GiB rounding here is within 0.2 %.)
//
// Checked against other published files (TestGGUFSizesAgainstPublished):
//   - Llama-3.1-70B and 405B at Q4_K_M, 43.1 GB and 249.1 GB (the quantize README's "Quantized
//     size"): +0.25 % and −0.22 %; TinyLlama-1.1B, 636.18 MiB (llama-bench's size column,
//     geerlingguy/ai-benchmarks#54): +0.99 %; Llama-3.2-3B, 1.87 GiB (same issue): −2.01 %, its
//     embedding tied to the LM head and so stored once, in Q6_K; Qwen2-7B at Q8_0, 7.54 GiB
//     (llama-bench, ggml-org/llama.cpp#16894): +0.12 %. So within about 2 % for a dense model
//     whose width is a multiple of 256.
//   - Not this table's: a width that is not a multiple of 256, the K-quants' super-block.
//     llama.cpp then stores each tensor whose rows are that wide in the next type that fits
//     (src/llama-quant.cpp, tensor_type_fallback: Q4_K → Q5_0, Q6_K → Q8_0, Q2_K and Q3_K → Q4_0,
//     Q5_K → Q5_1) and the output matrix in Q8_0. gemma-3-1b-it (width 1,152) at Q4_K_M is
//     762.49 MiB (llama-bench's size column, with 999.89 M parameters, in five public runs found
//     in GitHub repositories' benchmark notes), which this table, at 0.6124 × 999,885,952 B, puts
//     23 % low. The KV-aware mode sizes such a model's file by those rules instead
//     (gguf_widths.go): tensor by tensor where its MLP width is known (gemma-3-1b-it: 762.49 MiB;
//     Qwen2.5-0.5B: 373.71 MiB, to the byte), else with a bound that cannot be under the file.
var ggufFormats = []servingFormat{
	{"Q8_0", 7.96 * gib / 8030261248, "7.96 GiB: Q8_0, 34 B per 32 weights = 8.5 bits, everywhere"},
	{"Q6_K", 6.14 * gib / 8030261248, "6.14 GiB: Q6_K, 210 B per 256 = 6.5625 bits, everywhere"},
	{"Q5_K_M", 5.33 * gib / 8030261248, "5.33 GiB: Q5_K (5.5 bits) with Q6_K attn_v, ffn_down and output"},
	{"Q4_K_M", 4.58 * gib / 8030261248, "4.58 GiB: Q4_K (4.5 bits) with Q6_K attn_v, ffn_down and output"},
	{"Q4_0", 4.34 * gib / 8030261248, "4.34 GiB: Q4_0, 18 B per 32 = 4.5 bits, output in Q6_K"},
	{"Q3_K_M", 3.74 * gib / 8030261248, "3.74 GiB: Q3_K (3.4375 bits) with Q4_K/Q5_K attn_v, ffn_down and output Q6_K"},
	{"Q2_K", 2.96 * gib / 8030261248, "2.96 GiB: Q2_K (2.625 bits) with Q3_K/Q4_K mixes, output Q6_K"},
}

// RealBytesPerParam is what the KV-aware mode counts per weight: a serving format's real size,
// a GGUF type's as its files hold it (ggufFormats), else llmfit's figure for the MLX types (and
// its fallback).
func RealBytesPerParam(q string) float64 {
	if _, bpp, ok := servingBPP(q); ok {
		return bpp
	}
	if f, ok := rowFold(expertFormats, q, (*servingFormat).name); ok {
		return f.BPP
	}
	if f, ok := rowFold(ggufFormats, q, (*servingFormat).name); ok {
		return f.BPP
	}
	return BytesPerParam(q)
}

// WeightFormat is how a repository releases its weights: one format, or (gpt-oss, Kimi-K2.5,
// DeepSeek-V4) the routed experts in one format and everything else in another.
type WeightFormat struct {
	Name    string // what the header and the target say: "FP8", "MXFP4 experts + BF16"
	Experts string // the routed experts' format; "" = one format for all weights
	Rest    string // the format of all weights (Experts == "") or of the non-expert weights
}

// BytesPerParam is the format's average real bytes per parameter for a model of paramsB total
// and activeB active parameters with the architecture's experts, of which embedB (the token
// embedding and the LM head, EmbeddingParamsB) stay 16-bit. Routed experts hold
// E × (total − active) / (E − k) parameters: each of the E experts has the same size x, and
// total − active = (E − k) × x.
func (f WeightFormat) BytesPerParam(paramsB, activeB, embedB float64, a *Architecture) float64 {
	rest := RealBytesPerParam(f.Rest)
	if _, _, serving := servingBPP(f.Rest); !serving {
		embedB = 0 // the GGUF and MLX figures are averages over the whole file already
	}
	if f.Experts == "" || a.Experts <= a.ExpertsPerToken || !(paramsB > activeB) {
		return sixteenBitEmbeddings(rest, paramsB, embedB)
	}
	experts := float64(a.Experts) * (paramsB - activeB) / float64(a.Experts-a.ExpertsPerToken)
	if a.RoutedParamsB > 0 {
		experts = a.RoutedParamsB // counted from config.json (params.go): the derivation above also counts what active holds beside the experts (gpt-oss: its unembedding)
	}
	share := min(experts/paramsB, 1)
	restShare := 1 - share
	if restShare > 0 {
		rest = sixteenBitEmbeddings(rest, restShare*paramsB, embedB)
	}
	return share*RealBytesPerParam(f.Experts) + restShare*rest
}

// The quantized serving formats (FP8, INT8, NVFP4, MXFP4, AWQ, GPTQ) quantize the linear layers
// and leave the token embedding and the LM head in 16 bits: llm-compressor, ModelOpt, AutoAWQ
// and GPTQ skip them, and vLLM's load-time fp8 quantizes linear layers only. Their logged sizes
// say so: RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic loaded 33.88 GiB per device on 2
// (data/vllm-train.tsv, llmd-03), (70.560 − 2.101) × 1 B + 2.101 × 2 B = 72.661 GB = 67.67 GiB,
// 33.84 each; counted at 1 B for all: 32.86. unsloth/Qwen3-8B-FP8 loaded 8.96 GiB (uns-09):
// 9.435 GB = 8.79 GiB, against 7.63.

// bf16Bytes is the 16-bit width the embedding and the LM head keep.
const bf16Bytes = 2

// EmbeddingParamsB is the token embedding and the LM head, in billions of parameters:
// 2 × vocabulary × hidden size, both counted (an LM head of its own, as in the Llama, Qwen3 8B+,
// Mistral and DeepSeek models; a small model that ties them errs high by one matrix); 0 when
// either size is unknown.
func EmbeddingParamsB(vocab, hidden int) float64 {
	if vocab <= 0 || hidden <= 0 {
		return 0
	}
	return 2 * float64(vocab) * float64(hidden) / 1e9
}

// sixteenBitEmbeddings is the average bytes per parameter of paramsB parameters at bpp of which
// embedB stay 16-bit; formats of 16 bits or more are unchanged.
func sixteenBitEmbeddings(bpp, paramsB, embedB float64) float64 {
	if bpp >= bf16Bytes || embedB <= 0 || !(paramsB > embedB) {
		return bpp
	}
	return ((paramsB-embedB)*bpp + embedB*bf16Bytes) / paramsB
}

// ReleaseFormat is "the model's own" format in the KV-aware mode: the repository's release
// format (architectures.csv's prequant and native_dtype, else what the name says), else BF16,
// the format a safetensors repository is served in. GGUF, MLX and bitsandbytes repositories keep
// llmfit's quantization for them, which is what they are run with.
func ReleaseFormat(m *catalog.Model) WeightFormat {
	if k := sameTensors(m); k != nil { // a copy of a natively quantized release (kinarch.go)
		m = k
	}
	one := func(q string) WeightFormat { return WeightFormat{Name: q, Rest: q} }
	p := strings.ToLower(m.Arch.Prequant)
	if p == "" && !m.Arch.Known() {
		p = formatFromName(m.Name)
	}
	switch {
	case p == "mxfp4 weights": // a repository named MXFP4 that architectures.csv does not cover
		return one("MXFP4")
	case strings.Contains(p, "mxfp4") && strings.HasPrefix(p, "fp8"): // DeepSeek-V4: FP8 attention + MXFP4 experts
		return WeightFormat{Name: "MXFP4 experts + FP8", Experts: "MXFP4", Rest: "FP8"}
	case strings.Contains(p, "mxfp4") && strings.Contains(p, "8-bit"): // an MLX copy of gpt-oss
		return WeightFormat{Name: "MXFP4 experts + mlx-8bit", Experts: "MXFP4", Rest: "mlx-8bit"}
	case strings.Contains(p, "mxfp4"): // gpt-oss: MXFP4 experts, BF16 attention and embeddings
		return WeightFormat{Name: "MXFP4 experts + BF16", Experts: "MXFP4", Rest: "BF16"}
	case strings.Contains(p, "int4 (experts"): // Kimi-K2-Thinking/K2.5/K2.6: INT4 W4A16 experts (group 32), BF16 elsewhere
		return WeightFormat{Name: "INT4 experts + BF16", Experts: "INT4", Rest: "BF16"}
	case strings.HasPrefix(p, "fp8"):
		return one("FP8")
	case strings.HasPrefix(p, "nvfp4"):
		return one("NVFP4")
	case strings.HasPrefix(p, "awq-int4"):
		return one("AWQ-4bit")
	case strings.HasPrefix(p, "awq-int8"):
		return one("AWQ-8bit")
	case strings.HasPrefix(p, "gptq-int8"):
		return one("GPTQ-Int8")
	case strings.HasPrefix(p, "gptq-int4"), strings.HasPrefix(p, "autoround-int4"), strings.HasPrefix(p, "int4 w4a16"):
		return one("GPTQ-Int4") // AutoRound and compressed-tensors W4A16 export the GPTQ layout
	case strings.HasPrefix(p, "int8 w8a8"):
		return one("INT8")
	case p == "mlx 4-bit":
		return one("mlx-4bit")
	case p == "mlx 8-bit":
		return one("mlx-8bit")
	case p != "": // gguf, bitsandbytes, other MLX widths: what llmfit runs them with
		return one(m.Quantization)
	case m.Arch.NativeDtype == "float16":
		return one("FP16")
	}
	return one("BF16")
}

// formatFromName reads a release format from a repository name that architectures.csv does not
// cover, in prequant's words; "" for a plain repository.
func formatFromName(name string) string {
	n := strings.ToLower(name)
	if strings.Contains(n, "mlx") && !strings.Contains(n, "mxfp4") {
		switch {
		case strings.Contains(n, "4bit"):
			return "mlx 4-bit"
		case strings.Contains(n, "8bit"):
			return "mlx 8-bit"
		}
	}
	for _, c := range []struct{ in, p string }{
		{"nvfp4", "nvfp4"}, {"mxfp4", "mxfp4 weights"}, {"fp8", "fp8"}, {"w8a8", "int8 w8a8"},
		{"gguf", "gguf"}, {"mlx", "mlx"}, {"bnb", "bitsandbytes"}, {"awq", "awq"}, {"gptq", "gptq"},
		{"autoround", "autoround"},
		// compressed-tensors W4A16 / W8A16 (RedHatAI's "quantized.w4a16"): the GPTQ layout
		{"w4a16", "int4 w4a16"}, {"w8a16", "gptq-int8"},
		{"4bit", "4bit"}, {"8bit", "8bit"}, {"int4", "int4"}, {"int8", "int8"},
	} {
		if strings.Contains(n, c.in) {
			return c.p
		}
	}
	return ""
}
