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
	// (what the reserve is, e.g. "1.25 GiB llama.cpp reserve (…)").
	Floor func(b *Bounds, weightsGiB, kvGiB float64) (gib float64, reserve string)
}

// engines is the table of engines the claim's KV-aware sizing knows, the default
// (target.EngineLlamaCpp) first. vLLM's budget (VLLMFloorGiB) joins it here.
var engines = []Engine{{Name: target.EngineLlamaCpp, Floor: llamaCppFloor}, {Name: target.EngineVLLM, Floor: vllmEngineFloor}}

// EngineNames lists the known engines, the default first.
func EngineNames() []string {
	out := make([]string, len(engines))
	for i, e := range engines {
		out[i] = e.Name
	}
	return out
}

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

// llama.cpp's reserve beside weights and KV cache, per device:
//   - the CUDA context, cuBLAS workspace and driver allocations, which llama.cpp does not count:
//     0.75 GiB ("unaccounted" in llama.cpp's memory breakdown: 749 MiB on an RTX PRO 6000,
//     ggml-org/llama.cpp#27953);
//   - the compute buffer: every tensor is fp32, and with flash attention (llama.cpp's default,
//     -fa auto) the largest is the logits of one micro-batch, n_ubatch (512) × n_vocab × 4 B;
//     at the largest common vocabulary (Gemma's 262,144) 512 × 262,144 × 4 B = 512 MiB. Without
//     flash attention the K·Q scores n_ctx × n_head × n_ubatch × 4 B dominate instead
//     (ikawrakow/ik_llama.cpp#235) and can be far larger: keep flash attention on.
const (
	llamaCppContextGiB = 0.75
	llamaCppUBatch     = 512
	llamaCppVocabulary = 262144
	llamaCppComputeGiB = llamaCppUBatch * llamaCppVocabulary * 4.0 / gib
	llamaCppReserveGiB = llamaCppContextGiB + llamaCppComputeGiB // 1.25 GiB
)

func llamaCppFloor(_ *Bounds, weightsGiB, kvGiB float64) (float64, string) {
	return weightsGiB + kvGiB + llamaCppReserveGiB, strconv.FormatFloat(llamaCppReserveGiB, 'f', -1, 64) +
		" GiB llama.cpp reserve (0.75 CUDA context + 0.5 compute buffer)"
}
