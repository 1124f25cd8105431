package deploy

import "github.com/fitclaim/fitclaim/fit"

// VLLMVersion is the vLLM release the Deployment runs: the newest of the range whose memory
// budget fitclaim models (v0.11–v0.20, issue 13), so the flags it writes mean what it computed.
const VLLMVersion = "v0.20.0"

// VLLMImage is vLLM's own OpenAI-compatible server image (CUDA build), pinned.
const VLLMImage = "vllm/vllm-openai:" + VLLMVersion

// LlamaCppBuild is the llama.cpp release (its build number) the Deployment runs.
const LlamaCppBuild = "b9603"

// llamaCppImage is llama.cpp's server image for the driver's vendor, pinned: ggml-org publishes
// server-cuda12-, server-rocm- and server-intel- (SYCL) images per build; the bare "server" tag
// is the CPU build. llmfit.ai and any select NVIDIA devices first, so they get the CUDA build.
func llamaCppImage(driver string) string {
	flavour := "cuda12"
	switch driver {
	case fit.DriverAMD:
		flavour = "rocm"
	case fit.DriverIntel:
		flavour = "intel"
	}
	return "ghcr.io/ggml-org/llama.cpp:server-" + flavour + "-" + LlamaCppBuild
}
