package fit

import "github.com/fitclaim/fitclaim/catalog"

// A fine-tune or copy of a small model that architectures.csv has a row for, published under a
// name of its own (unsloth/gemma-3-270m-it, microsoft/harrier-oss-v1-270m, Qwen/Qwen2.5-Coder-0.5B-
// Instruct), has no row and no kin (kinarch.go matches names), so its GGUF files, at a width that
// is not a multiple of 256, were only bounded: its query heads and MLP width, which llmfit's
// catalog does not record, were unknown. Where such an entry holds, to the parameter, the count
// of a row's entry whose MLP width ggufMLPWidths knows, and llmfit's catalog gives it that entry's
// layers, KV heads, head size, width and vocabulary, it has that entry's tensors (the count pins
// the MLP width: one more MLP column is 3 × width × layers parameters), and its file is counted
// with that entry's query heads and MLP width. The count check (ggufCount) still has to hold.

// ggufTwins are the parameter counts of the architectures.csv entries whose MLP width
// ggufMLPWidths knows, each with one such entry (entries of one count share every shape fact:
// gguf_twins_test.go).
var ggufTwins = map[int64]string{
	134515008: "HuggingFaceTB/SmolLM2-135M", // and HuggingFaceTB/SmolLM-135M, SmolLM2-135M-Instruct
	268098176: "google/gemma-3-270m",
	361821120: "HuggingFaceTB/SmolLM2-360M",
	494032768: "Qwen/Qwen2.5-0.5B", // and Qwen/Qwen2.5-0.5B-Instruct, Qwen/Qwen2-0.5B-Instruct
	999885952: "google/gemma-3-1b-it",
}

// ggufTwin is the entry whose tensors a catalog entry without a row or kin has, by the rule
// above, or nil.
func ggufTwin(m *catalog.Model) *catalog.Model {
	name, ok := ggufTwins[m.ParametersRaw]
	if !ok || m.Arch.Known() || archKin(m) != nil {
		return nil
	}
	t, err := catalog.Lookup(name)
	if err != nil {
		return nil
	}
	a := &t.Arch
	if m.Layers != a.Layers || m.KVHeads != a.KVHeads || m.HeadDim != a.HeadDim || m.HiddenSize != a.HiddenSize ||
		m.Vocabulary() != t.Vocabulary() || ggufMLPWidths[a.Base] <= 0 {
		return nil
	}
	return t
}
