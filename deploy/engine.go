package deploy

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// container is the serving container an engine asks for.
type container struct {
	Name  string // the container's name (a DNS label)
	Image string
	Args  []string
	Port  int  // where the OpenAI-compatible server listens; /health answers there
	SHM   bool // mount a memory-backed /dev/shm (tensor-parallel workers talk through it)
}

// plan is an engine's answer for a fit: the container, the header lines that explain its
// numbers, and whether it will serve what the claim was sized for.
type plan struct {
	container
	Explain  []string
	Problems []string // each says what goes wrong and the fix
	Starts   bool
	Summary  string // one line: "vLLM starts: N requests of L tokens at once", or why not
}

// checkpointQuantized reports whether a repository's format (checkpointFormat) is pre-quantized
// weights the engine reads from the checkpoint's config: AWQ, GPTQ, AutoRound, FP8, INT8 (W8A8),
// NVFP4, MXFP4 and the mixed releases (gpt-oss's MXFP4 experts + BF16). GGUF and MLX are files
// vLLM does not serve from these repositories; the rest hold 16-bit weights.
func checkpointQuantized(own string) bool {
	switch own {
	case "AWQ-4bit", "AWQ-8bit", "GPTQ-Int4", "GPTQ-Int8", "AutoRound-4bit", "FP8", "INT8", "NVFP4", "MXFP4":
		return true
	}
	return strings.Contains(own, " experts + ") && !strings.Contains(own, "mlx") // gpt-oss, DeepSeek-V4, Kimi-K2.5
}

// ggufType reports whether a quantization is one of llama.cpp's GGUF tensor types (the names
// llama.cpp's -hf REPO:TYPE selects a file by).
func ggufType(q string) bool {
	switch q {
	case "F32", "F16", "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0", "Q3_K_M", "Q2_K":
		return true
	}
	return false
}

func itoa(n int) string            { return strconv.Itoa(n) }
func itoa64(n int64) string        { return strconv.FormatInt(n, 10) }
func twoDecimals(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// plural writes "1 device", "2 devices".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}

// vendorNote is the problem of running a CUDA build on another vendor's devices (under vLLM, whose
// pinned image is the CUDA build, it stops the pod; an image given is taken at its word).
func vendorNote(b *fit.Bounds, engine string) string {
	switch b.Target.Driver {
	case fit.DriverAMD:
		return "the " + engine + " image is its CUDA build and the claim asks for AMD devices: set image to its ROCm build"
	case fit.DriverIntel:
		return "the " + engine + " image is its CUDA build and the claim asks for Intel devices: set image to its XPU build"
	}
	return ""
}
