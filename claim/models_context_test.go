package claim

import "testing"

// The search shows a model's real maximum context (architectures.csv's max_position_embeddings,
// RoPE scaling already in it), not llmfit's catalog figure, which multiplies it by the RoPE
// factor (DeepSeek-R1: 163,840 × 40 = 6,553,600) or holds a 4,096 placeholder for gated repos
// (meta-llama/Llama-3.1-8B-Instruct: 131,072). A model architectures.csv does not cover keeps
// the catalog's figure (NousResearch/Llama-2-7b-chat-hf: 4,096).
func TestSearchModelsRealContext(t *testing.T) {
	for name, want := range map[string]int{
		"deepseek-ai/DeepSeek-R1":          163840,
		"meta-llama/Llama-3.1-8B-Instruct": 131072,
		"openai/gpt-oss-120b":              131072,
		"NousResearch/Llama-2-7b-chat-hf":  4096,
	} {
		found := SearchModels(name, 1)
		if len(found) != 1 || found[0].Name != name || found[0].ContextLength != want {
			t.Errorf("%s: %+v, want context %d", name, found, want)
		}
	}
}
