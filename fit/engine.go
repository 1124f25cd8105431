package fit

import (
	"github.com/fitclaim/fitclaim/target"
	"strconv"
)

// An Engine is the inference server the KV-aware mode sizes for: it turns what one device holds
// (weights and KV cache) into the memory that device must report, and says how in the header.
// Helper packages add engines to the engines table (vLLM's budget is a share of the device, not a
// sum, hence a function rather than a constant).
type Engine struct {
	Name string
	// Floor returns the memory one device must report, in GiB, to start the engine and hold
	// weightsGiB of weights and kvGiB of KV cache on that device, and the words for the header
	// (what the reserve is, e.g. "0.69 GiB llama.cpp reserve (…)").
	Floor func(b *Bounds, weightsGiB, kvGiB float64) (gib float64, reserve string)
}

// engines is the table of engines the claim's KV-aware sizing knows, the default
// (target.EngineLlamaCpp) first. vLLM's budget (VLLMFloorGiB) joins it here.
var engines = []Engine{{Name: target.EngineLlamaCpp, Floor: llamaCppFloor}, {Name: target.EngineVLLM, Floor: vllmEngineFloor}}

// floor is e.Floor, called by name for the engines of the table: a call through the function
// value made every resolved Bounds escape to the heap (1.3 KB allocated and cleared per
// resolve; the fitting list resolves dozens per request). TestEngineFloorByName checks that it
// knows every engine of the table and gives what Floor gives.
func (e *Engine) floor(b *Bounds, weightsGiB, kvGiB float64) (float64, string) {
	switch e.Name {
	case target.EngineLlamaCpp:
		return llamaCppFloor(b, weightsGiB, kvGiB)
	case target.EngineVLLM:
		return vllmEngineFloor(b, weightsGiB, kvGiB)
	}
	panic("fit: Engine.floor does not know engine " + e.Name)
}

// EngineNames lists the known engines, the default first.
func EngineNames() []string { return namesOf(engines, func(e *Engine) string { return e.Name }) }

// LookupEngine returns the engine whose reserve the KV-aware floor holds: the named one, else
// the default (llama.cpp). The Target's engine field is the Deployment's too (package deploy
// checks it); an engine whose budget is not in this table yet is sized with the default's
// reserve, and the header names that reserve.
func LookupEngine(name string) Engine {
	for _, e := range engines {
		if e.Name == name {
			return e
		}
	}
	return engines[0]
}

// llama.cpp's reserve beside weights and KV cache, per device, in two parts:
//
//   - a fixed part, the CUDA context, cuBLAS workspace and driver allocations, which llama.cpp
//     does not count: 451–456 MiB "unaccounted" on each of three RTX 4090s in the memory breakdown
//     llama.cpp prints (ggml-org/llama.cpp#15860, the pull request that added it), taken as
//     451 MiB. It grows with the device's SM count: an RTX PRO 6000 Blackwell (188 SMs against the
//     4090's 128) showed 749 MiB (ggml-org/llama.cpp#27953), so on the largest boards the floor errs
//     low by up to 0.3 GiB, inside the whole Gi the claim rounds up to at least half the time;
//     a 4 GiB Pascal board (6 SMs) needs far less, and holds the small models llmfit's community
//     measured on it (data/truth-train.tsv: gemma-4-E2B-it Q4_K_M on a GTX 1050 Ti). The same
//     figure is used as an estimate for AMD's and Intel's runtimes, whose own is not measured in
//     public: the words name their runtime and say so (runtime_words.go: ROCm/HIP, Level Zero).
//   - the compute buffer, which scales with the model: every tensor is fp32, and with flash
//     attention (llama.cpp's default, -fa auto) the largest live at once are the logits of one
//     micro-batch and its hidden states, n_ubatch (512) × (n_vocab + n_embd) × 4 B. llama.cpp's
//     own example log says so: phi-2 (n_vocab 51,200, n_embd 2,560) at n_ubatch 512 reserves
//     "CUDA0 compute buffer size = 105.00 MiB" (examples/eval-callback/README.md) and
//     512 × (51,200 + 2,560) × 4 B = 110,100,480 B = 105.00 MiB. A model whose vocabulary or
//     width the catalog lacks is sized at the largest common ones (Gemma's 262,144; 16,384).
//     Without flash attention the K·Q scores n_ctx × n_head × n_ubatch × 4 B can dominate instead
//     (ikawrakow/ik_llama.cpp#235): keep flash attention on. With it, the part that grows with the
//     context is the K·Q mask, n_ctx × n_ubatch × 2 B (fp16) over the whole pool (--ctx-size, all
//     slots): 128 MiB at 131,072 tokens. This term does not count it: a pool of hundreds of
//     thousands of tokens may need up to that much more.
const (
	llamaCppContextMiB    = 451
	llamaCppContextGiB    = llamaCppContextMiB / 1024.0
	llamaCppUBatch        = 512
	llamaCppMaxVocabulary = 262144
	llamaCppMaxWidth      = 16384
	fp32Bytes             = 4
)

// llamaCppComputeGiB is the compute buffer for a vocabulary and width (0 = unknown: the bounds).
func llamaCppComputeGiB(vocab, width int) float64 {
	if vocab <= 0 {
		vocab = llamaCppMaxVocabulary
	}
	if width <= 0 {
		width = llamaCppMaxWidth
	}
	return float64(llamaCppUBatch) * float64(vocab+width) * fp32Bytes / gib
}

// llamaCppReserveGiB is the reserve per device for b's model (nil: an unknown model).
func llamaCppReserveGiB(b *Bounds) (reserve, compute float64) {
	vocab, width := 0, 0
	if b != nil && !b.Custom {
		vocab, width = b.Model.Vocabulary(), b.Model.Width()
	}
	compute = llamaCppComputeGiB(vocab, width)
	return llamaCppContextGiB + compute, compute
}

func llamaCppFloor(b *Bounds, weightsGiB, kvGiB float64) (float64, string) {
	reserve, compute := llamaCppReserveGiB(b)
	return weightsGiB + kvGiB + reserve, strconv.FormatFloat(reserve, 'f', 2, 64) +
		" GiB llama.cpp reserve (0.44 " + runtimeOf(b).Context + " + " + strconv.FormatFloat(compute, 'f', 2, 64) + " compute buffer)"
}
