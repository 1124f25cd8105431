package fit

import (
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// How vLLM loads a repository's weights (moved from package deploy, so the estimate and the claim
// under vLLM refuse what the Deployment refuses).

// VLLMWeights says how vLLM loads the weights the claim was sized for: the flags, the header
// line, or why it cannot. vLLM serves a repository's checkpoint; AWQ, GPTQ and FP8 checkpoints
// carry a quantization_config that vLLM reads itself (no --quantization); a 16-bit checkpoint
// can be cast (--dtype) or quantized to fp8 as it loads (--quantization fp8, which needs no
// calibration and takes 1 byte per parameter, within Q8_0's 1.05); GGUF needs a GGUF file, which
// the catalog's repositories do not hold.
func VLLMWeights(b *Bounds) (flags []string, line, problem string) {
	q, model := b.Quant, b.Model.Name
	own := vllmCheckpointFormat(&b.Model)
	switch {
	case b.Model.IsGGUFRepository():
		return nil, "", model + " holds GGUF files (llama.cpp's), which vLLM does not serve: engine llama.cpp, or the original 16-bit repository"
	case strings.HasPrefix(own, "mlx-"):
		return nil, "", model + " holds Apple MLX weights (" + own + "), which vLLM does not serve: engine llama.cpp with a GGUF repository, or the original 16-bit repository"
	}
	if CheckpointQuantized(own) {
		if strings.EqualFold(q, own) {
			return nil, "weights: " + own + ", read from the checkpoint's quantization_config (vLLM needs no --quantization)", ""
		}
		return nil, "", "vLLM loads " + model + " as its checkpoint is, " + own + ", and the claim is sized for " + q +
			": set quant " + own + ", or choose a " + q + " repository"
	}
	switch q {
	case "BF16", "F16", "FP16", "F32":
		dtype := map[string]string{"BF16": "bfloat16", "F16": "float16", "FP16": "float16", "F32": "float32"}[q]
		return []string{"--dtype", dtype}, "weights: " + q + " (--dtype " + dtype + "), as the claim was sized", ""
	case "Q8_0", "FP8":
		return []string{"--quantization", "fp8"}, "weights: --quantization fp8 quantizes the 16-bit checkpoint to 1 byte per parameter " +
			"as it loads (its embedding and LM head stay 16-bit), as the claim (" + q + ") was sized", ""
	}
	why := model + " is not " + article(q) + " " + q + " checkpoint" // AWQ, GPTQ, INT8, NVFP4, MXFP4 need one
	switch {
	case GGUFType(q):
		why = q + " is a llama.cpp (GGUF) format"
	case strings.HasPrefix(q, "mlx-"):
		why = q + " is an Apple MLX format"
	}
	return nil, "", "vLLM would load " + model + "'s 16-bit weights, but the claim is sized for " + q + " and " + why +
		": set quant BF16 (or FP8 for fp8 weights) so the claim holds what vLLM loads, or engine llama.cpp"
}

// vllmCheckpointFormat is how the repository holds its weights: its release format (ReleaseFormat:
// FP8 for an FP8 repository, MXFP4 experts + BF16 for gpt-oss), else llmfit's quantization where
// that names a quantized checkpoint.
func vllmCheckpointFormat(m *catalog.Model) string {
	if own := ReleaseFormat(m).Name; CheckpointQuantized(own) || !CheckpointQuantized(m.Quantization) {
		return own
	}
	return m.Quantization
}

// article is "an" before a vowel sound of the format names ("an NVFP4", "an INT8", "an AWQ-4bit").
func article(q string) string {
	if strings.ContainsRune("AEIOUFHLMNRSX", rune(q[0])) {
		return "an"
	}
	return "a"
}

// CheckpointQuantized reports whether a repository's format (vllmCheckpointFormat) is pre-quantized
// weights the engine reads from the checkpoint's config: AWQ, GPTQ, AutoRound, FP8, INT8 (W8A8),
// NVFP4, MXFP4 and the mixed releases (gpt-oss's MXFP4 experts + BF16). GGUF and MLX are files
// vLLM does not serve from these repositories; the rest hold 16-bit weights.
func CheckpointQuantized(own string) bool {
	switch own {
	case "AWQ-4bit", "AWQ-8bit", "GPTQ-Int4", "GPTQ-Int8", "AutoRound-4bit", "FP8", "INT8", "NVFP4", "MXFP4":
		return true
	}
	return strings.Contains(own, " experts + ") && !strings.Contains(own, "mlx") // gpt-oss, DeepSeek-V4, Kimi-K2.5
}

// GGUFType reports whether a quantization is one of llama.cpp's GGUF tensor types (the names
// llama.cpp's -hf REPO:TYPE selects a file by).
func GGUFType(q string) bool {
	switch q {
	case "F32", "F16", "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0", "Q3_K_M", "Q2_K":
		return true
	}
	return false
}
