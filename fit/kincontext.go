package fit

import (
	"slices"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// llmfit's catalog multiplies a model's context by its RoPE scaling factor (data/architectures.md,
// "Corrections"): Llama-3.1 131072 → 1048576, Llama-3.2 and gpt-oss → 4194304, DeepSeek-V3/R1
// 163840 → 6553600. architectures.csv corrects the entries it has a row for; the many re-uploads
// without one (unsloth/Llama-3.2-3B-Instruct-GGUF, RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic,
// nvidia/DeepSeek-V3.2-NVFP4, …) kept the multiplied figure, so kv mode warned about nothing up
// to four million tokens and the estimate offered contexts the model has no positions for.
//
// Such an entry takes the maximum of the verified entry of its stem (params.go: the name without
// its owner and format words) when its own figure is that maximum times a whole factor of 2 or
// more, the bug's signature, and its layers, where the catalog has them, are the same. A
// pre-trained "-Base" release is only matched with another, as its context can differ (Qwen2.5's
// base configs say 131072, its instruct ones 32768).

// kinContext is an entry's maximum context: its catalog figure, or the verified kin's when the
// catalog's is that × a RoPE factor, with the kin's name.
func kinContext(m *catalog.Model) (int, string) {
	own := m.ContextLength
	k := verifiedByStem(contextStem(m.Name))
	if k == nil || m.Arch.Known() {
		return own, ""
	}
	limit := k.Arch.MaxContext
	if own < 2*limit || own%limit != 0 || (m.Layers > 0 && m.Layers != k.Arch.Layers) {
		return own, ""
	}
	return limit, k.Name
}

// contextStem is stem, kept apart for pre-trained "-Base" releases.
func contextStem(name string) string {
	s := stem(name)
	_, repo, _ := strings.Cut(strings.ToLower(name), "/")
	if slices.Contains(strings.Split(repo, "-"), "base") {
		s += "+base"
	}
	return s
}

// verifiedByStem is the most downloaded entry of architectures.csv with a verified maximum
// context whose stem (contextStem) is s, or nil: a table generated from the catalog (kin_gen.go;
// kin_tables_test.go says how it is made).
func verifiedByStem(s string) *catalog.Model { return entryOfStem(verifiedByStemTable[:], s) }
