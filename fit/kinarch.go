package fit

import "github.com/fitclaim/fitclaim/catalog"

// Many catalog entries are re-uploads or quantizations of a model data/architectures.csv has a row
// for, without a row of their own: nvidia/DeepSeek-V3.2-NVFP4, nvidia/GLM-5-NVFP4,
// cyankiwi/GLM-5.1-AWQ-4bit, unsloth/Qwen3.6-27B, cyankiwi/GLM-4.5-Air-AWQ-4bit, … The catalog
// records no base model, so kv mode sized them on llmfit's layers × KV heads × head size:
// DeepSeek-V3.2-NVFP4 at 131,072 tokens in fp8 held 114.6 GB of KV (61 layers × 128 heads × 56)
// where the model's MLA latent holds 4.6 GB, and read all of it where the indexer's top-k leaves
// 1.1 GB.
//
// Such an entry takes the row of its stem (params.go: the repository name without its owner and
// its format words — nvidia/DeepSeek-V3.2-NVFP4 and deepseek-ai/DeepSeek-V3.2 are both
// "deepseek-v3.2"), the most downloaded row of it, when the catalog's own shape agrees with the
// row where the catalog has one: the same decoder layers and hidden size. A fine-tune with a name
// of its own (Huihui-Qwen3.5-27B-abliterated), a pruned model (GLM-5.1-555B-A14B-REAP) or a
// distillation into another model is no such re-upload, and its stem differs.

// archKin is the entry of data/architectures.csv whose facts a catalog entry shares: its own row,
// else the row of its stem that its catalog shape agrees with; nil when there is none.
func archKin(m *catalog.Model) *catalog.Model {
	if m.Arch.Known() {
		return m
	}
	k := rowsByStem(stem(m.Name))
	if k == nil || m.Layers > 0 && m.Layers != k.Arch.Layers ||
		m.HiddenSize > 0 && k.Arch.HiddenSize > 0 && m.HiddenSize != k.Arch.HiddenSize {
		return nil
	}
	return k
}

// rowsByStem is the most downloaded entry of a stem with a row in architectures.csv, or nil: a
// table generated from the catalog (kin_gen.go; kin_tables_test.go says how it is made).
func rowsByStem(s string) *catalog.Model { return entryOfStem(rowsByStemTable[:], s) }
