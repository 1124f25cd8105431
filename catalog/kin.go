package catalog

import "sync"

// The gated repositories of llmfit's catalog (meta-llama's, google's) carry no vocabulary or
// width, while their re-uploads, which share the architecture (Arch.Base), do. vLLM's activation
// peak grows with both, so a model without its own takes them from its kin.

// kinVocab maps an architecture base to the vocabulary of its most downloaded catalog entry
// that records one.
var kinVocab = sync.OnceValue(func() map[string]int {
	best := map[string]*Model{}
	all := Models()
	for i := range all {
		m := &all[i]
		if m.Arch.Base == "" || m.VocabSize <= 0 {
			continue
		}
		if b, ok := best[m.Arch.Base]; !ok || m.Downloads > b.Downloads {
			best[m.Arch.Base] = m
		}
	}
	out := make(map[string]int, len(best))
	for base, m := range best {
		out[base] = m.VocabSize
	}
	return out
})

// Vocabulary is the model's tokenizer vocabulary (its embedding's rows): its own, else its
// architectures.csv row's, else that of the most downloaded entry of the same architecture
// (Arch.Base) that records one; 0 = unknown.
func (m *Model) Vocabulary() int {
	switch {
	case m.VocabSize > 0 || m.Arch.Base == "":
		return m.VocabSize
	case m.Arch.VocabSize > 0:
		return m.Arch.VocabSize
	}
	needFull("the vocabulary of " + m.Arch.Base) // before kinVocab's Once reads the whole table
	return kinVocab()[m.Arch.Base]
}

// Width is the model's hidden size: its own (llmfit's field), else architectures.csv's; 0 =
// unknown.
func (m *Model) Width() int {
	if m.HiddenSize > 0 {
		return m.HiddenSize
	}
	return m.Arch.HiddenSize
}
