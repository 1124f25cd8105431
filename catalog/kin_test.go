package catalog

import "testing"

// meta-llama/Llama-3.1-8B-Instruct records no vocabulary or width in llmfit's catalog; its
// architecture (meta-llama/Llama-3.1-8B(-Instruct)) is shared by re-uploads that do, the most
// downloaded of them unsloth/Llama-3.1-8B-Instruct (668,080 downloads): 128,256 tokens; its width
// is architectures.csv's 4,096. google/gemma-3-27b-it: ISTA-DASLab's GPTQ re-upload, 262,208.
// A model with a vocabulary of its own keeps it (Qwen/Qwen3-8B: 151,936).
func TestVocabularyAndWidthFromKin(t *testing.T) {
	for _, c := range []struct {
		name          string
		vocab, hidden int
	}{
		{"meta-llama/Llama-3.1-8B-Instruct", 128256, 4096},
		{"google/gemma-3-27b-it", 262208, 5376},
		{"Qwen/Qwen3-8B", 151936, 4096},
	} {
		m, err := Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Vocabulary() != c.vocab || m.Width() != c.hidden {
			t.Errorf("%s: vocabulary %d width %d, want %d and %d", c.name, m.Vocabulary(), m.Width(), c.vocab, c.hidden)
		}
	}
}
