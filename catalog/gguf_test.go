package catalog

import "testing"

// llama.cpp's -hf downloads GGUF files; the safetensors repository of a model holds none. The
// catalog's re-uploads (data/llmfit-hf-models-2026-05-12.json, downloads in brackets):
// unsloth/Qwen3-8B-GGUF (60,297); modularai/Llama-3.1-8B-Instruct-GGUF (25,521) and
// unsloth/Llama-3.1-8B-Instruct-GGUF (15,403): the more downloaded is chosen.
func TestGGUFRepository(t *testing.T) {
	for _, c := range []struct {
		model, repo  string
		reupload, ok bool
	}{
		{"Qwen/Qwen3-8B", "unsloth/Qwen3-8B-GGUF", true, true},
		{"unsloth/Qwen3-8B", "unsloth/Qwen3-8B-GGUF", true, true},
		{"meta-llama/Llama-3.1-8B-Instruct", "modularai/Llama-3.1-8B-Instruct-GGUF", true, true},
		{"openai/gpt-oss-120b", "unsloth/gpt-oss-120b-GGUF", true, true},
		{"unsloth/Qwen3-8B-GGUF", "unsloth/Qwen3-8B-GGUF", false, true},
		// An FP8 release is not the base model's weights under another name: no GGUF is known.
		{"nvidia/Llama-3.1-8B-Instruct-FP8", "", false, false},
		{"Qwen/Qwen3-30B-A3B-Instruct-2507", "", false, false},
	} {
		m, err := Lookup(c.model)
		if err != nil {
			t.Fatal(err)
		}
		repo, reupload, ok := GGUFRepository(m)
		if repo != c.repo || reupload != c.reupload || ok != c.ok {
			t.Errorf("%s: got %q %v %v, want %q %v %v", c.model, repo, reupload, ok, c.repo, c.reupload, c.ok)
		}
	}
}
