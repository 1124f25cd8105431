package deploy

import (
	"slices"
	"strings"
	"testing"
)

// vLLM serves a repository's checkpoint as released: an FP8, INT8, NVFP4 or MXFP4 release carries
// its quantization_config, which vLLM reads itself. Deploy judged the checkpoint by llmfit's
// quantization column (Q4_K_M for all of these) and refused every one of them as "an Apple MLX
// format".
func TestVLLMServesTheReleaseFormat(t *testing.T) {
	for _, c := range []struct{ link, format string }{
		{"m=nvidia%2FLlama-3.1-8B-Instruct-FP8&s=kv&ctx=8192&drv=nvidia", "FP8"},
		{"m=RedHatAI%2FMeta-Llama-3.1-8B-Instruct-quantized.w8a8&s=kv&ctx=8192&drv=nvidia", "INT8"},
		{"m=nvidia%2FQwen3-8B-NVFP4&s=kv&ctx=8192&drv=nvidia", "NVFP4"},
		{"m=openai%2Fgpt-oss-20b&s=kv&ctx=8192&drv=nvidia", "MXFP4 experts + BF16"},
		{"m=deepseek-ai%2FDeepSeek-R1&s=kv&ctx=8192&drv=nvidia&n=8", "FP8"},
	} {
		r := mustRender(t, c.link, with{})
		if !r.Starts || slices.Contains(r.Args, "--quantization") || slices.Contains(r.Args, "--dtype") {
			t.Errorf("%s: starts %v, %q, args %q", c.link, r.Starts, r.Summary, r.Args)
		}
		if want := "weights: " + c.format + ", read from the checkpoint's quantization_config"; !strings.Contains(strings.Join(strings.Fields(r.YAML), " "), want) {
			t.Errorf("%s: the header lacks %q", c.link, want)
		}
	}
	// FP8 asked of a 16-bit checkpoint: vLLM quantizes it as it loads, 1 byte per parameter.
	r := mustRender(t, "m=Qwen%2FQwen3-8B&q=FP8&s=kv&ctx=8192&drv=nvidia", with{})
	if !r.Starts || !slices.Contains(r.Args, "--quantization") || !slices.Contains(r.Args, "fp8") {
		t.Errorf("FP8 of a BF16 checkpoint: starts %v, %q, args %q", r.Starts, r.Summary, r.Args)
	}
	// A float16 checkpoint's own format, FP16, is cast with --dtype float16.
	r = mustRender(t, "m=meta-llama%2FLlama-2-7b-hf&s=kv&ctx=4096&drv=nvidia", with{})
	if !r.Starts || !slices.Contains(r.Args, "float16") {
		t.Errorf("FP16 checkpoint: starts %v, %q, args %q", r.Starts, r.Summary, r.Args)
	}
	// NVFP4 cannot be made from a 16-bit checkpoint as vLLM loads it: refused, naming why.
	r = mustRender(t, "m=Qwen%2FQwen3-8B&q=NVFP4&s=kv&ctx=8192&drv=nvidia", with{})
	if r.Starts || !strings.Contains(r.Summary, "Qwen/Qwen3-8B is not an NVFP4 checkpoint") || strings.Contains(r.Summary, "Apple MLX") {
		t.Errorf("NVFP4 of a BF16 checkpoint: starts %v, %q", r.Starts, r.Summary)
	}
}

// A GGUF or MLX repository holds no 16-bit weights for vLLM to load: the message says what the
// repository holds and what serves it, instead of "vLLM would load its 16-bit weights".
func TestVLLMRefusesGGUFAndMLXRepositories(t *testing.T) {
	for link, want := range map[string]string{
		"m=unsloth%2FQwen3-8B-GGUF&s=kv&ctx=8192&drv=nvidia":       "unsloth/Qwen3-8B-GGUF holds GGUF files (llama.cpp's), which vLLM does not serve: engine llama.cpp, or the original 16-bit repository",
		"m=mlx-community%2FQwen3-8B-4bit&s=kv&ctx=8192&drv=nvidia": "mlx-community/Qwen3-8B-4bit holds Apple MLX weights (mlx-4bit), which vLLM does not serve: engine llama.cpp with a GGUF repository, or the original 16-bit repository",
	} {
		r := mustRender(t, link, with{})
		if r.Starts || !strings.Contains(r.Summary, want) || strings.Contains(r.Summary, "16-bit weights") {
			t.Errorf("%s: starts %v, %q", link, r.Starts, r.Summary)
		}
	}
}
