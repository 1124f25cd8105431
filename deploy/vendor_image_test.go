package deploy

import (
	"slices"
	"strings"
	"testing"
)

// vLLM's pinned image is its CUDA build: on the AMD or Intel devices the claim asks for, the pod
// would not run, so the Deployment does not start as written and says which build to set. An
// image given for the vendor (ROCm's vLLM) is taken at its word: no note that it is CUDA's.
func TestVLLMImageForTheVendor(t *testing.T) {
	const link = "m=Qwen%2FQwen3-8B&s=kv&ctx=8192&drv=amd"
	r := mustRender(t, link, with{})
	if r.Starts || !strings.HasPrefix(r.Summary, "vLLM does not start on the claimed devices: the vLLM image is its CUDA build and the claim asks for AMD devices: set image to its ROCm build") {
		t.Errorf("pinned CUDA image on AMD: starts %v, summary %q", r.Starts, r.Summary)
	}
	r = mustRender(t, link, with{Image: "rocm/vllm:rocm6.4.1_vllm_0.10.1_20250909"})
	if !r.Starts || slices.ContainsFunc(r.Problems, func(p string) bool { return strings.Contains(p, "CUDA build") }) ||
		strings.Contains(r.YAML, "CUDA build") {
		t.Errorf("ROCm image given: starts %v, summary %q, problems %q", r.Starts, r.Summary, r.Problems)
	}
}
