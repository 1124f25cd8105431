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

// The llmfit.ai class (driver llmfit, the default, and driver any's first alternative) publishes
// no vendor, so its claim may get an AMD or Intel device, where the pinned images (the engines'
// CUDA builds) stop at CUDA's initialisation. Not a refusal (the device may be NVIDIA's), but a
// warning on every surface of the problems (the header's WARNING lines, the page's list, the
// command line's stderr) that names the risk and both fixes. An image given, or a vendor's
// driver, has none.
func TestPinnedImageUnderNoVendor(t *testing.T) {
	for _, c := range []struct {
		link, class string
		o           with
		warned      bool
	}{
		{"m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096", "the claim's class, llmfit.ai, names no vendor", with{}, true},
		{"m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096&drv=any", "the claim's first alternative, the llmfit.ai class, names no vendor", with{}, true},
		{"m=Qwen%2FQwen3-8B&s=kv&ctx=4096", "the claim's class, llmfit.ai, names no vendor", with{Engine: "llama.cpp"}, true},
		{"m=Qwen%2FQwen3-8B&s=kv&ctx=4096&drv=any", "the claim's first alternative, the llmfit.ai class, names no vendor", with{Engine: "llama.cpp"}, true},
		{"m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096", "", with{Image: "registry.example/vllm-rocm:v1"}, false},
		{"m=Qwen%2FQwen3-8B&s=kv&ctx=4096&drv=any", "", with{Engine: "llama.cpp", Image: "ghcr.io/ggml-org/llama.cpp:server-rocm-b9603"}, false},
		{"m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096&drv=nvidia", "", with{}, false},
		{"m=Qwen%2FQwen3-8B&s=kv&ctx=4096&drv=nvidia", "", with{Engine: "llama.cpp"}, false},
	} {
		r := mustRender(t, c.link, c.o)
		i := slices.IndexFunc(r.Problems, func(p string) bool { return strings.Contains(p, "names no vendor") })
		if !c.warned {
			if i >= 0 {
				t.Errorf("%s %+v: warned %q", c.link, c.o, r.Problems[i])
			}
			continue
		}
		if i < 0 {
			t.Errorf("%s %+v: no warning of the CUDA build under a class of no vendor in %q", c.link, c.o, r.Problems)
			continue
		}
		engine := "vLLM"
		if c.o.Engine != "" {
			engine = c.o.Engine
		}
		for _, want := range []string{"the " + engine + " image is its CUDA build", c.class, "AMD or Intel device",
			"set driver to your devices' vendor", "set image to the build for your devices"} {
			if !strings.Contains(r.Problems[i], want) {
				t.Errorf("%s %+v: the warning %q does not say %q", c.link, c.o, r.Problems[i], want)
			}
		}
		if !r.Starts {
			t.Errorf("%s %+v: a warning, not a refusal: starts false (%s)", c.link, c.o, r.Summary)
		}
		words := slices.DeleteFunc(strings.Fields(r.YAML), func(w string) bool { return w == "#" }) // a wrapped line's "#"
		if !strings.Contains(strings.Join(words, " "), "WARNING: the "+engine+" image is its CUDA build and "+c.class) {
			t.Errorf("%s %+v: the header has no WARNING line for it:\n%s", c.link, c.o, r.YAML)
		}
	}
}
