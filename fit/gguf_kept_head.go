package fit

import (
	"strconv"

	"github.com/fitclaim/fitclaim/catalog"
)

// A GGUF file of Qwen3-0.6B or 1.7B may hold the tied LM head twice. Their repositories store a
// copy of the tied embedding as lm_head.weight, which vLLM and mlx-lm skip (params.go counts them
// without it), and which llama.cpp's convert_hf_to_gguf.py keeps as output.weight: its Gemma
// converters skip lm_head.weight ("lm_head is not used in llama.cpp"), its Qwen2/Qwen3 ones do
// not. Qwen's own Q8_0 files were made without it (596.05 M parameters, 604.15 MiB), but the
// files converted straight from the repository — FlagScale's F16 (751.63 M, 1.40 GiB), Docker's
// ai/qwen3:0.6B-Q4_K_M (751.63 M), ggml-org's Qwen3-1.7B-Q4_K_M (1,282,439,264 B), llama-bench's
// "qwen3 1.7B Q4_K - Medium | 1.19 GiB | 2.03 B" — hold it (tied_head_evidence_test.go). A
// memory floor must fit either file, so a GGUF type of these models holds the copy too: resident,
// never read by a decoded token (the output matrix is read, not the embedding, in either file),
// so the bytes a token reads stay the tied count's.

// ggufKeepsHeadBases are the bases whose repositories store the tied head's copy and whose
// llama.cpp converter keeps it (Qwen3ForCausalLM; not Gemma 3, whose converter drops it).
var ggufKeepsHeadBases = map[string]bool{"Qwen/Qwen3-0.6B": true, "Qwen/Qwen3-0.6B-Base": true, "Qwen/Qwen3-1.7B": true}

// ggufKeptHeadB is the parameters (billions) of the tied LM head's stored copy that a GGUF file
// of quant converted from m's repository holds beside the countedB the KV-aware mode sizes m on:
// vocabulary × width when m's base is one of ggufKeepsHeadBases and its catalog count is countedB
// plus that matrix (within ggufCountTolerance: Qwen3-0.6B-FP8's scales); else 0.
func ggufKeptHeadB(quant string, m *catalog.Model, base string, countedB float64) float64 {
	if !ggufKeepsHeadBases[base] {
		return 0
	}
	if _, ok := rowFold(ggufFormats, quant, (*servingFormat).name); !ok {
		return 0
	}
	return tiedHeadCopyB(paramsB(m), countedB, m)
}

// keptHeadWords says what the weights figure adds, for the header.
func keptHeadWords(quant string, headB float64) string {
	return "GGUF " + quant + " with the tied LM head's stored copy (" + strconv.FormatFloat(headB*1e3, 'f', 1, 64) +
		"M parameters) as output.weight, as llama.cpp's convert_hf_to_gguf.py keeps it from the repository: resident, not read per token " +
		"(Qwen's own Q8_0 files drop it and are that much smaller)"
}

// residentWeightBytes is the bytes the weights hold in memory over all devices: the counted
// parameters at the format's bytes, plus a converted GGUF file's stored copy of a tied head.
func (b *Bounds) residentWeightBytes() float64 {
	w := b.ParamsB * 1e9 * b.BytesPerParam
	if b.KeptHeadB > 0 {
		w += b.KeptHeadB * 1e9 * b.BytesPerParam
	}
	return w
}
