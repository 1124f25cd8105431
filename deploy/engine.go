package deploy

import (
	"strconv"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// container is the serving container an engine asks for.
type container struct {
	Name    string // the container's name (a DNS label)
	Image   string
	Command []string // the container's command; none: the image's entrypoint
	Args    []string
	Port    int  // where the OpenAI-compatible server listens; /health answers there
	SHM     bool // mount a memory-backed /dev/shm (tensor-parallel workers talk through it)
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

// anyVendorNote is the risk of a pinned image (the engines' CUDA builds) under a driver whose class
// names no vendor: the llmfit.ai class (driver llmfit, and the first alternative of driver any)
// publishes no vendor attribute, so the claim may be given an AMD or Intel device, where the CUDA
// build stops at CUDA's initialisation. Not a refusal: the device may well be NVIDIA's. An image
// given is taken at its word, as vendorNote's is.
func anyVendorNote(b *fit.Bounds, engine string) string {
	var class string
	switch b.Target.Driver {
	case fit.DriverLlmfit:
		class = "the claim's class, llmfit.ai, names no vendor"
	case fit.DriverAny:
		class = "the claim's first alternative, the llmfit.ai class, names no vendor"
	default:
		return ""
	}
	return "the " + engine + " image is its CUDA build and " + class + ", so the claim may get an AMD or Intel device, " +
		"where that build does not run: set driver to your devices' vendor (nvidia; amd or intel with their build as image), " +
		"or set image to the build for your devices"
}

// kvSizedAs is what the header's kv line says of the claim beside the engine's KV-cache flag:
// the claim was sized for that cache in sizing kv; in llmfit's sizing it holds no KV cache at
// all (the line said "as the claim was sized" there too).
func kvSizedAs(b *fit.Bounds, unit string) string {
	if b.Target.Sizing == target.SizingKV {
		return ", as the claim was sized" + unit
	}
	return unit + "; the claim, in llmfit's sizing, holds no KV cache (sizing kv sizes one)"
}
