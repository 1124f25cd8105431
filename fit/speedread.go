package fit

import "github.com/fitclaim/fitclaim/target"

// The weights one decoded token reads, when a mixture of experts keeps its routed experts in
// another format than the rest (gpt-oss: MXFP4 experts, BF16 attention, router and LM head;
// DeepSeek-V4: MXFP4 experts, FP8 rest). The file's average bytes per parameter is mostly the
// experts' (gpt-oss-120b: 114.66 of 116.83 B), but a token reads only k of the E experts and all
// of the rest, so it reads a much larger BF16 share than the file holds: the active routed
// experts at the experts' bytes, the other active parameters at the rest's.
//
// Only vLLM is sized this way: it serves the checkpoint as released, its non-expert weights in
// 16 bits. The llama.cpp-style engines run conversions (GGUF, MLX) whose attention need not stay
// in 16 bits, and the measured runs say they read about the file's average: gpt-oss-20b's six
// runs in data/truth-train.tsv (llama.cpp, MLX, Ollama on AMD, Apple and NVIDIA) fall within the
// calibrated estimate at the average bytes (M4 Pro llama.cpp 66.5 tok/s measured, 62.8
// estimated) and well outside it read split (48.3; RX 7900 XT 162.6 measured, 129.7 at the
// average, 101.4 split; docs/SPEED.md). The
// calibration (internal/speedcal) reads those runs at the average too, so that is the rule its
// accuracy figures describe.

// ActiveSplit is a split-format mixture of experts' active parameters (billions): those in the
// routed experts (k/E of them) and the rest; ok is false for a model in one format (or without
// the expert counts) or an engine other than vLLM, whose active parameters are read at the
// average bytes per parameter.
func (b *Bounds) ActiveSplit() (expertsB, restB float64, ok bool) {
	f, a := &b.Format, &b.Arch
	if b.Engine != target.EngineVLLM || f.Experts == "" || !b.isMoE() || a.Experts <= a.ExpertsPerToken || a.ExpertsPerToken <= 0 ||
		EffectiveParamsB(b.Model.Name) > 0 {
		return 0, 0, false
	}
	routed := a.RoutedParamsB
	if routed <= 0 {
		routed = float64(a.Experts) * (b.ParamsB - b.ActiveParamsB) / float64(a.Experts-a.ExpertsPerToken)
	}
	expertsB = min(routed*float64(a.ExpertsPerToken)/float64(a.Experts), b.ActiveParamsB)
	return expertsB, b.ActiveParamsB - expertsB, true
}

// weightBytesPerToken is the weights one decoded step reads over all devices, in bytes.
func (b *Bounds) weightBytesPerToken() float64 {
	experts, rest, ok := b.ActiveSplit()
	if !ok {
		return WeightsReadB(b.ParamsB, b.ActiveParamsB, EffectiveParamsB(b.Model.Name), b.isMoE()) * 1e9 * b.BytesPerParam
	}
	return (experts*RealBytesPerParam(b.Format.Experts) + rest*b.restBytesPerParam()) * 1e9
}

// restBytesPerParam is the average bytes per parameter of a split format's non-expert weights:
// the rest's format, with the token embedding and LM head in 16 bits (WeightFormat.BytesPerParam).
func (b *Bounds) restBytesPerParam() float64 {
	rest := RealBytesPerParam(b.Format.Rest)
	if _, _, serving := servingBPP(b.Format.Rest); !serving {
		return rest
	}
	routed := b.Arch.RoutedParamsB
	if routed <= 0 {
		routed = float64(b.Arch.Experts) * (b.ParamsB - b.ActiveParamsB) / float64(b.Arch.Experts-b.Arch.ExpertsPerToken)
	}
	return sixteenBitEmbeddings(rest, b.ParamsB-routed, EmbeddingParamsB(b.Model.Vocabulary(), b.Model.Width()))
}
