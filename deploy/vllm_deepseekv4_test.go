package deploy

import (
	"slices"
	"strings"
	"testing"
)

// DeepSeek-V4 gets vLLM recipe's flags under any image, and the pinned v0.20.0 a warning that the
// recipe needs v0.20.1 or later; other models get none of them.
func TestVLLMDeepSeekV4Flags(t *testing.T) {
	const link = "m=deepseek-ai%2FDeepSeek-V4-Flash&s=kv&ctx=65536&drv=nvidia&n=4"
	r := mustRender(t, link, with{})
	tail := r.Args[len(r.Args)-6:]
	if want := []string{"--block-size", "256", "--tokenizer-mode", "deepseek_v4", "--kv-cache-dtype", "fp8"}; !slices.Equal(tail, want) {
		t.Errorf("args end %q, want %q", tail, want)
	}
	const warning = "DeepSeek-V4 needs vLLM v0.20.1 or later (its recipe's minimum: V4-Base support and the top-k 1024 fix V4-Pro needs), newer than the pinned v0.20.0: give image vllm/vllm-openai:v0.20.1 or later"
	if !slices.Contains(r.Problems, warning) || !strings.Contains(r.YAML, "# WARNING: DeepSeek-V4 needs vLLM v0.20.1") {
		t.Errorf("pinned image: problems %q", r.Problems)
	}
	// sized for an fp16 KV cache, the header says vLLM keeps fp8
	if h := strings.Join(strings.Fields(strings.ReplaceAll(r.YAML, "#", " ")), " "); !strings.Contains(h, "--kv-cache-dtype fp8 (the claim was sized for an fp16 KV cache, more than vLLM keeps") {
		t.Errorf("header lacks the fp8 note")
	}
	// an image given is taken at its word; an fp8 claim gets --kv-cache-dtype once
	r = mustRender(t, link+"&kv=fp8", with{Image: "vllm/vllm-openai:v0.20.2"})
	if slices.ContainsFunc(r.Problems, func(p string) bool { return strings.HasPrefix(p, "DeepSeek-V4 needs") }) {
		t.Errorf("given image: problems %q", r.Problems)
	}
	n := 0
	for _, a := range r.Args {
		if a == "--kv-cache-dtype" {
			n++
		}
	}
	if n != 1 || !slices.Contains(r.Args, "--block-size") {
		t.Errorf("fp8 claim: args %q", r.Args)
	}
	// another model: none of them
	r = mustRender(t, "m=Qwen%2FQwen3-8B&s=kv&ctx=8192&drv=nvidia", with{})
	if slices.Contains(r.Args, "--block-size") || slices.Contains(r.Args, "--tokenizer-mode") {
		t.Errorf("Qwen3-8B args %q", r.Args)
	}
}
