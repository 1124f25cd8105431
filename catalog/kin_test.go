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

// The gated entries no re-upload of the same architecture gives a vocabulary to take theirs
// from architectures.csv's vocab_size (each with its source in the row):
// google/gemma-3-270m 262,144 (its 268,098,176 parameters are 18 layers × 5,570,560 matrix
// weights + 262,144 × 640 = 167,772,160 for the tied embedding + 55,936 norm weights, exactly);
// google/gemma-3-4b-it 262,208 (unsloth/gemma-3-4b-it's, of the same 4,300,079,472 parameters);
// meta-llama/Llama-4-Maverick-17B-128E-Instruct 202,048; google/gemma-2-2b-it 256,000. Every
// entry with a row knows its vocabulary, and a row's vocab_size never contradicts the entry's own.
func TestVocabularyFromTheRow(t *testing.T) {
	for _, c := range []struct {
		name  string
		vocab int
	}{
		{"google/gemma-3-270m", 262144},
		{"google/gemma-3-4b-it", 262208},
		{"meta-llama/Llama-4-Maverick-17B-128E-Instruct", 202048},
		{"google/gemma-2-2b-it", 256000},
	} {
		m, err := Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.VocabSize != 0 || m.Vocabulary() != c.vocab {
			t.Errorf("%s: own vocabulary %d, Vocabulary() %d, want none and %d", c.name, m.VocabSize, m.Vocabulary(), c.vocab)
		}
	}
	for _, m := range Models() {
		if !m.Arch.Known() {
			continue
		}
		if m.Vocabulary() <= 0 {
			t.Errorf("%s: a row in architectures.csv but no vocabulary (give the row a vocab_size)", m.Name)
		}
		if m.VocabSize > 0 && m.Arch.VocabSize > 0 && m.VocabSize != m.Arch.VocabSize {
			t.Errorf("%s: vocab_size %d in its row, %d in llmfit's catalog", m.Name, m.Arch.VocabSize, m.VocabSize)
		}
	}
}
