package estimate

import (
	"strings"
	"testing"
)

// An embedding model's estimate says that the decode speed is not its throughput.
func TestEmbeddingModelSaysSo(t *testing.T) {
	e, err := RunRaw("m=BAAI%2Fbge-small-en-v1.5&on=nvidia-rtx-4090")
	if err != nil {
		t.Fatal(err)
	}
	if got := Text(e); !strings.Contains(got, "BAAI/bge-small-en-v1.5 is an embedding or reranker model: it generates no text") {
		t.Errorf("no embedding note:\n%s", got)
	}
	e, err = RunRaw("m=Qwen%2FQwen3-8B&on=nvidia-rtx-4090")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(Text(e), "embedding") {
		t.Errorf("a note for a text generator:\n%s", Text(e))
	}
}

// vLLM's MXFP4 padding is said where vLLM sizes an MXFP4 release (data/vllm-train.tsv: 13.47 GiB
// loaded against gpt-oss-20b's 12.82 GiB checkpoint), and not for llama.cpp.
func TestVLLMPaddingSaid(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{"m=openai%2Fgpt-oss-20b&on=nvidia-h100-sxm&engine=vllm", true},
		{"m=openai%2Fgpt-oss-20b&on=nvidia-h100-sxm", false},
		{"m=Qwen%2FQwen3-8B&on=nvidia-h100-sxm&engine=vllm", false},
	} {
		e, err := RunRaw(c.raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(Text(e), "vLLM pads MXFP4 expert matrices"); got != c.want {
			t.Errorf("%s: padding said %v, want %v", c.raw, got, c.want)
		}
	}
}
