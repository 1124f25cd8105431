package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

// Re-uploads without an architectures.csv row take their verified kin's maximum context when the
// catalog's is it times a RoPE factor:
//
//	unsloth/Llama-3.2-3B-Instruct-GGUF 4,194,304 = 32 × 131,072 (meta-llama/Llama-3.2-3B-Instruct), 28 layers both
//	Qwen/Qwen2.5-14B-Instruct          131,072 = 4 × 32,768 (Qwen/Qwen2.5-14B-Instruct-AWQ's config)
//	unsloth/Qwen3-8B-Base              32,768 stays: a pre-trained release, and not a multiple of 40,960
//	pearl-ai/Llama-3.1-8B-Instruct-pearl 1,048,576 stays: a fine-tune's name, no stem in common
func TestKinContext(t *testing.T) {
	for _, c := range []struct {
		name, from string
		want       int
	}{
		{"unsloth/Llama-3.2-3B-Instruct-GGUF", "meta-llama/Llama-3.2-3B-Instruct", 131072},
		{"Qwen/Qwen2.5-14B-Instruct", "Qwen/Qwen2.5-14B-Instruct-AWQ", 32768},
		{"unsloth/Qwen3-8B-Base", "", 32768},
		{"pearl-ai/Llama-3.1-8B-Instruct-pearl", "", 1048576},
	} {
		m, err := catalog.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		a := ArchitectureOf(m)
		if a.MaxContext != c.want || a.MaxContextFrom != c.from {
			t.Errorf("%s: max context %d from %q; want %d from %q", c.name, a.MaxContext, a.MaxContextFrom, c.want, c.from)
		}
	}
}
