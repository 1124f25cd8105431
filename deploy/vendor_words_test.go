package deploy

import (
	"slices"
	"strings"
	"testing"
)

// On AMD and Intel devices no surface of the deployment speaks of CUDA's context, graphs or
// count of memory as theirs; the only CUDA left is the true warning that the pinned vLLM image is
// its CUDA build, and the header's reserve line saying whose measurements the reserve's figures are
// (fit/runtime_words.go). Llama-3.1-8B BF16 at 8,192 tokens under vLLM, llama.cpp at Q4_K_M.
func TestVendorWordsNotCUDA(t *testing.T) {
	for _, c := range []struct{ drv, context, graphs, sees string }{
		{"amd", "ROCm/HIP context", "HIP graphs", "as HIP sees it"},
		{"intel", "Level Zero context", "XPU graphs", "as Level Zero sees it"},
	} {
		v := mustRender(t, "m=meta-llama%2FLlama-3.1-8B-Instruct&q=BF16&s=kv&ctx=8192&drv="+c.drv, with{})
		l := mustRender(t, "m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&ctx=8192&drv="+c.drv, with{Engine: "llama.cpp"})
		flat := strings.Join(slices.DeleteFunc(strings.Fields(v.YAML), func(w string) bool { return w == "#" }), " ") // a header line's wrap leaves a "#"
		for _, want := range []string{"(vLLM's " + c.graphs + ", ≤ 1.12)", c.sees, c.graphs + " (≤ 1.12 GiB)"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s vLLM: no %q in\n%s", c.drv, want, v.YAML)
			}
		}
		if !strings.Contains(strings.Join(strings.Fields(l.YAML), " "), "(0.44 "+c.context+" + ") {
			t.Errorf("%s llama.cpp: no %q in\n%s", c.drv, c.context, l.YAML)
		}
		for _, s := range []string{v.YAML, l.YAML, v.Summary, l.Summary} {
			words := strings.Fields(s) // a header line's wrap leaves a "#" between its words
			words = slices.DeleteFunc(words, func(w string) bool { return w == "#" })
			rest := strings.ReplaceAll(strings.Join(words, " "), "image is its CUDA build", "")
			rest = strings.ReplaceAll(rest, "are CUDA measurements on NVIDIA boards", "")
			rest = strings.ReplaceAll(rest, "is llama.cpp's CUDA context on RTX 4090s", "")
			if strings.Contains(rest, "CUDA") || strings.Contains(rest, "NVIDIA") {
				t.Errorf("%s: CUDA or NVIDIA in\n%s", c.drv, s)
			}
		}
	}
}
