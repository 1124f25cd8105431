package fit

import (
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

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

// A re-upload takes its kin's shape, and so its kin's attention and state; its weights are its
// own release's. Two of its catalog fields can still not be its own (kv mode's audit of the 359):
//
//   - A copy named for no format whose count is its kin's to the parameter holds its kin's
//     tensors. Where the kin's release is the authors' only one, natively quantized
//     (architectures.csv's "native release": gpt-oss's MXFP4 experts, Kimi-K2-Thinking/K2.5/K2.6's
//     INT4 experts, DeepSeek's and MiniMax's FP8), the copy is that release too: unsloth/gpt-oss-120b
//     (120,412,337,472, openai/gpt-oss-120b's count) was sized as 120.4 B BF16 parameters, 240.8 GB,
//     where the MXFP4 release is 65.2 GB; unsloth/Kimi-K2.6 as 2,117.2 GB BF16 where it is 595.1 GB.
//     A kin whose release is a packed one (an AWQ row) is not matched: its catalog count is no count
//     of its tensors (Qwen/Qwen3-14B-AWQ counts Qwen3-14B's 14,768,307,200, as does the 16-bit
//     Qwen/Qwen3-14B-Base).
//   - A count under packedShare of the kin's, for a release of the same layers and width, is no
//     count of its weights: a packed release no same-named entry counts (nvidia/Kimi-K2-Thinking-
//     NVFP4, 29.8 B for Kimi-K2-Thinking's 1,026.4 B), or llmfit's figure for a 16-bit copy
//     (unsloth/Qwen3-8B 6.66 B, NousResearch/Meta-Llama-3-8B-Instruct 6.43 B: Qwen3-8B's 8.19 B and
//     Llama-3-8B's 8.03 B). The kin's count stands in for it (kinCount, params.go) where the kin's
//     count is of its weights (an unpacked release, or one releaseFacts counts).

// sameTensors is the kin whose natively quantized release a re-upload without a row copies (the
// same count to the parameter, no format in its name), or nil.
func sameTensors(m *catalog.Model) *catalog.Model {
	if m.Arch.Known() || formatFromName(m.Name) != "" {
		return nil
	}
	k := archKin(m)
	if k == nil || k == m || k.ParametersRaw != m.ParametersRaw || !strings.Contains(k.Arch.Prequant, "native release") {
		return nil
	}
	return k
}
