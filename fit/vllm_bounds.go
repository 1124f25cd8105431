package fit

import (
	"slices"

	"github.com/fitclaim/fitclaim/catalog"
)

// A resolved target as a vLLM start-up, and a catalog device's memory as vLLM sees it.

// vllmCUDATotalGiB is the device total vLLM logs (torch.cuda.mem_get_info, CUDA's figure) for
// the accelerators data/vllm-train.tsv shows it for (its README lists them): the driver's
// figure less what the driver keeps for itself.
var vllmCUDATotalGiB = map[string]float64{
	"nvidia-h100-sxm":     79.18, // llmd-01..10, logged (79.18–79.22)
	"nvidia-a100-sxm-80":  79.15, // dl-01..05, web-02, a typical value for the board
	"nvidia-a100-pcie-80": 79.15,
	"nvidia-a100-sxm-40":  39.38, // gh-08, logged
	"nvidia-a100-pcie-40": 39.38,
	"nvidia-l4":           22.16, // uns-09, logged
	"nvidia-t4":           14.74, // uns-02..06, logged
	"nvidia-rtx-3090":     23.58, // gh-02, logged
}

// VLLMDriverShortfallGiB is what CUDA's total falls short of the driver's on a device the table
// does not list: the median shortfall of the six boards it does list (H100 0.47, A100 80GB 0.85,
// A100 40GB 0.62, L4 0.33, T4 0.26, RTX 3090 0.42 GiB; TestVLLMShortfallIsTheMedian).
const VLLMDriverShortfallGiB = 0.44

// VLLMTotalGiB converts a catalog accelerator's driver memory to the total vLLM sees: the logged
// figure where the training data has one, else the driver's less VLLMDriverShortfallGiB.
func VLLMTotalGiB(a *catalog.Accelerator) float64 {
	if t, ok := vllmCUDATotalGiB[a.ID]; ok {
		return t
	}
	return float64(a.MemoryMiB)/1024 - VLLMDriverShortfallGiB
}

// vllmShortfalls lists the driver-minus-CUDA shortfall of every board the table lists once
// (the PCIe twins share their SXM board's figures), for the test of the median.
func vllmShortfalls() []float64 {
	var out []float64
	for _, a := range catalog.Accelerators() {
		if t, ok := vllmCUDATotalGiB[a.ID]; ok && !slices.Contains([]string{"nvidia-a100-pcie-80", "nvidia-a100-pcie-40"}, a.ID) {
			out = append(out, float64(a.MemoryMiB)/1024-t)
		}
	}
	slices.Sort(out)
	return out
}

// VLLMInputFor is a resolved target's vLLM start-up on a device of totalGiB (as CUDA sees it)
// named device, one per Count (the tensor-parallel size): weights split evenly, the model's
// vocabulary and hidden size, its KV shape at the target's KV-cache element size, and the
// target's vLLM arguments.
func VLLMInputFor(b *Bounds, totalGiB float64, device string) VLLMInput {
	m := &b.Model
	n := max(1, b.Target.Count)
	_, elem, _ := kvElementBytes(b.KVCache)
	in := VLLMInput{
		TotalGiB: totalGiB, Device: device, TP: n,
		WeightsGiB:  b.residentWeightBytes() / float64(n) / gib,
		Vocab:       m.Vocabulary(), // a gated repository's from its re-uploads (catalog.Model.Vocabulary)
		Hidden:      m.Width(),
		MaxModelLen: b.ContextTokens,
		// the target's vLLM arguments (0 = vLLM's defaults)
		Utilization: b.Target.GPUMemoryUtilization,
		MaxNumSeqs:  b.Target.MaxNumSeqs,
		MaxTokens:   b.Target.MaxNumBatchedTokens,
	}
	if in.Vocab <= 0 {
		in.Vocab = VLLMFallbackVocab
	}
	if in.Hidden <= 0 {
		in.Hidden = VLLMFallbackHidden
	}
	in.Cache = vllmCacheOf(b, elem)
	return in
}

// When the catalog lacks a model's vocabulary or width, the activation is sized for a large
// one, so the floor errs high: Qwen2/2.5's 152,064 tokens (the largest common vocabulary among
// the catalog's families, beside Llama-3's 128,256 and Mistral's 32,768) and a 8,192 width.
const (
	VLLMFallbackVocab  = 152064
	VLLMFallbackHidden = 8192
)

// vllmCacheOf is the KV shape vLLM allocates for the resolved architecture: full-attention and
// sliding-window layers of K and V heads, an MLA latent per layer, DeepSeek-V4's compressed
// entries with each layer's window and its compressors' state, a hybrid model's full-attention
// layers and each request's recurrent state (vllm_request.go); an unknown shape is llmfit's
// per-parameter estimate, split evenly over the devices.
func vllmCacheOf(b *Bounds, elem float64) VLLMCache {
	a := &b.Arch
	switch {
	case a.Layers <= 0:
		return VLLMCache{FullLayers: 1, TokenBytes: b.kvBytesPerToken(elem), ElemBytes: elem}
	case a.Attention == AttentionMLA:
		return VLLMCache{FullLayers: a.Layers, MLALatent: a.KVLoraRank + a.QKRopeHeadDim, ElemBytes: elem,
			MLAExtraBytes: vllmDSAExtraBytes(a, elem)}
	case a.Attention == AttentionCSA:
		// DeepSeek-V4: the compressed entries of all layers, per token, as one latent that every
		// rank keeps whole (as MLA's); every layer's window of single-head entries and the
		// compressors' state beside them, per request, whole on every rank.
		return VLLMCache{FullLayers: 1, MLALatent: a.csaTokenElements(), ElemBytes: elem,
			Window: a.SlidingWindow, WindowLayers: a.Layers, WindowTokenBytes: float64(a.KVHeads*a.HeadDim) * elem,
			StateBytes: a.CSAStateBytes(), BlockSize: VLLMDeepSeekV4BlockSize}
	case a.Attention == AttentionHybrid && (a.FullAttentionLayers > 0 || a.RecurrentOnly()):
		// the attention layers' K and V heads, or their MLA latent (Kimi-Linear), whole on every rank
		return VLLMCache{FullLayers: a.FullAttentionLayers, KVHeads: a.KVHeads, HeadDim: a.HeadDim, MLALatent: a.HybridLatent(),
			ElemBytes: elem, StateBytes: a.VLLMRecurrentStateBytes(), StateSplit: true, StateLayers: stateLayersOf(&b.Model, a)}
	}
	// full and sliding layers that keep a cache of their own (a Gemma-4 E model's last layers reuse
	// earlier ones'), the full layers in their own shape where they have one (Gemma-4's global layers)
	full, sliding := a.CachedLayers()
	fullHeads, fullDim := a.FullLayerShape()
	c := VLLMCache{FullLayers: full, KVHeads: a.KVHeads, HeadDim: a.HeadDim, VHeadDim: a.VHeadDim, ElemBytes: elem}
	if fullHeads != a.KVHeads || fullDim != a.HeadDim {
		c.FullKVHeads, c.FullHeadDim = fullHeads, fullDim
	}
	if sliding > 0 {
		c.SlidingLayers, c.Window = sliding, a.SlidingWindow
	}
	return c
}
