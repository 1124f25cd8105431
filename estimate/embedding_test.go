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
