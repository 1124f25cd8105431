package claim

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// The search shows a model's real maximum context (architectures.csv's max_position_embeddings,
// RoPE scaling already in it), not llmfit's catalog figure, which multiplies it by the RoPE
// factor (DeepSeek-R1: 163,840 × 40 = 6,553,600) or holds a 4,096 placeholder for gated repos
// (meta-llama/Llama-3.1-8B-Instruct: 131,072). A model architectures.csv does not cover keeps
// the catalog's figure (NousResearch/Llama-2-7b-chat-hf: 4,096). Llama-4-Maverick's 4,096 was the
// catalog's placeholder: its config.json's text_config.max_position_embeddings is 1,048,576 = 2^20
// (architectures.csv cites a copy of it in NVIDIA/TensorRT-LLM's tests), for both releases.
func TestSearchModelsRealContext(t *testing.T) {
	for name, want := range map[string]int{
		"deepseek-ai/DeepSeek-R1":                           163840,
		"meta-llama/Llama-3.1-8B-Instruct":                  131072,
		"openai/gpt-oss-120b":                               131072,
		"NousResearch/Llama-2-7b-chat-hf":                   4096,
		"meta-llama/Llama-4-Maverick-17B-128E-Instruct":     1048576,
		"meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8": 1048576,
	} {
		found := SearchModels(name, 1)
		if len(found) != 1 || found[0].Name != name || found[0].ContextLength != want {
			t.Errorf("%s: %+v, want context %d", name, found, want)
		}
	}
}

// A 131,072-token context for Llama-4-Maverick is within its 1,048,576 (it warned "longer than
// the model's 4096 tokens" while the catalog's placeholder stood), and the header says so.
func TestMaverickContextNoFalseWarning(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Context = "meta-llama/Llama-4-Maverick-17B-128E-Instruct", "kv", 131072
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		if strings.Contains(w, "longer than the model's") {
			t.Errorf("false warning: %s", w)
		}
	}
	if !strings.Contains(r.YAML, "maximum context 1048576 tokens") {
		t.Errorf("header lacks the maximum context:\n%s", r.YAML)
	}
}
