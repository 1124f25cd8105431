package fit

import (
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// Attention kinds (data/architectures.md, column `attention`).
const (
	AttentionGQA    = "gqa"    // fewer KV heads than query heads
	AttentionMHA    = "mha"    // as many KV heads as query heads
	AttentionMQA    = "mqa"    // one KV head
	AttentionMLA    = "mla"    // multi-head latent attention: one compressed latent per layer
	AttentionHybrid = "hybrid" // only FullAttentionLayers keep a per-token cache
	// AttentionCSA is DeepSeek-V4's compressed attention: every layer keeps a window of recent
	// tokens; CSALayers also keep one entry per CSACompressRatio tokens (with an indexer key),
	// HCALayers one per HCACompressRatio tokens (kvcache.go).
	AttentionCSA = "csa"
)

// Where the architecture facts come from, as the header says it.
const (
	SourceVerified  = "config.json via architectures.csv"
	SourceLlmfit    = "llmfit catalog"
	SourceGiven     = "given" // a custom model's own inputs
	SourceOverride  = "override"
	SourceEstimated = "estimated"
)

// Architecture is the shape the KV-aware sizing uses, with where it came from. Zero fields are
// unknown. KVHeads and HeadDim are those of the attention layers that cache K and V (MLA caches
// a latent of KVLoraRank + QKRopeHeadDim instead).
type Architecture struct {
	Attention           string // one of the Attention* kinds; "" = plain attention of unknown kind (GQA formula)
	Layers              int
	KVHeads             int
	HeadDim             int
	SlidingWindow       int // tokens a windowed layer keeps
	SlidingLayers       int // layers that use the window
	FullAttentionLayers int // hybrid: the layers that keep a per-token cache
	KVLoraRank          int // MLA
	QKRopeHeadDim       int // MLA
	Experts             int // routed experts (mixture of experts)
	ExpertsPerToken     int
	CSALayers           int // csa: layers with compressed sparse attention (compress ratio 4)
	HCALayers           int // csa: layers with heavily compressed attention (compress ratio 128)
	RecurrentState      int // hybrid: elements of one sequence's linear-attention / SSM state (0: unknown)
	// RecurrentConvState is, of RecurrentState, the convolutions' last kernel − 1 inputs (0:
	// unknown), which vLLM keeps in the model's dtype; SSMStateDtype is the dtype vLLM keeps the
	// rest in by default ("float32", else the model's): vllm_state.go.
	RecurrentConvState int
	SSMStateDtype      string
	// IndexHeadDim is the DeepSeek sparse attention indexer's key width (DeepSeek-V3.2, GLM-5);
	// vLLM caches one such key per layer and token beside the MLA latent (vllm_dsa.go); 0 = none.
	IndexHeadDim int
	// IndexTopK is how many compressed entries of a CSA layer the lightning indexer selects for each
	// decoded token (csa: config.json's index_topk; 0 = unknown: decode is taken to read them all).
	IndexTopK int
	// GlobalKVHeads and GlobalHeadDim are the full-attention layers' KV heads and head size where
	// they differ from the sliding-window layers' (Gemma-4's global layers: head 512); 0 = the same.
	GlobalKVHeads, GlobalHeadDim int
	// VHeadDim is every layer's value head size where it differs from the key heads' (HeadDim, or
	// GlobalHeadDim for a full layer): MiMo-V2-Flash's keys of 192 and values of 128
	// (config.json's v_head_dim, swa_v_head_dim); 0 = the same.
	VHeadDim int
	// KVSharedLayers are the last layers, which reuse an earlier layer's KV cache and keep none
	// (Gemma-4 E2B/E4B's num_kv_shared_layers); 0 = none.
	KVSharedLayers int
	MaxContext     int // the real maximum context (0: unknown)
	// Base is the architectures.csv base whose config.json gave the verified facts ("" = none);
	// KinFrom names the entry whose row a re-upload without one of its own takes (kinarch.go).
	Base, KinFrom string
	// MaxContextFrom names the verified entry whose config.json gave MaxContext to an entry without
	// a row of its own, whose catalog context is that × a RoPE factor (kincontext.go); "" = its own.
	MaxContextFrom string
	// RoutedParamsB is the routed experts' matrices in billions where a count is known exactly
	// (ReleaseParams.RoutedB); 0 = derived from the total, the active and the expert counts.
	RoutedParamsB float64

	Source     string   // Source* : where the facts came from
	Overridden []string // fields replaced by an override (JSON names), in the order of ArchOverride
}

// ArchitectureOf is what the catalog knows of a model's shape: the verified row of
// architectures.csv where there is one, else llmfit's layers/KV heads/head size, else nothing
// (Source "estimated": the KV cache falls back to llmfit's per-parameter estimate).
func ArchitectureOf(m *catalog.Model) Architecture {
	if k := archKin(m); k != nil {
		a := &k.Arch
		out := Architecture{
			Attention: a.Attention, Layers: a.Layers, KVHeads: a.KVHeads, HeadDim: a.HeadDim,
			SlidingWindow: a.SlidingWindow, SlidingLayers: a.SlidingLayers, FullAttentionLayers: a.FullAttentionLayers,
			KVLoraRank: a.KVLoraRank, QKRopeHeadDim: a.QKRopeHeadDim, Experts: a.Experts, ExpertsPerToken: a.ExpertsPerToken,
			CSALayers: a.CSALayers, HCALayers: a.HCALayers, MaxContext: a.MaxContext, Source: SourceVerified,
			GlobalKVHeads: a.GlobalKVHeads, GlobalHeadDim: a.GlobalHeadDim, KVSharedLayers: a.KVSharedLayers,
			RecurrentState: a.RecurrentState, IndexHeadDim: a.IndexHeadDim, IndexTopK: a.IndexTopK,
			RecurrentConvState: a.RecurrentConvState, SSMStateDtype: a.SSMStateDtype, Base: a.Base,
			VHeadDim: a.VHeadDim,
		}
		if k != m { // a re-upload: the kin's shape, its own context unless that is the kin's × a RoPE factor
			out.KinFrom = k.Name
			out.MaxContext, out.MaxContextFrom = kinContext(m)
		} else if out.MaxContext == 0 { // architectures.md: left empty where no source confirmed it; the catalog's stands
			out.MaxContext = m.ContextLength
		}
		return out
	}
	if m.HasArchitecture() {
		a := Architecture{Layers: m.Layers, KVHeads: m.KVHeads, HeadDim: m.HeadDim, MaxContext: m.ContextLength, Source: SourceLlmfit}
		a.MaxContext, a.MaxContextFrom = kinContext(m)
		return a
	}
	a := Architecture{Source: SourceEstimated}
	a.MaxContext, a.MaxContextFrom = kinContext(m)
	return a
}

// ArchOverride replaces single architecture facts of a catalog or custom model; zero fields keep
// what is known. Attention, when set, is one of the Attention* kinds.
type ArchOverride struct {
	Layers              int
	KVHeads             int
	HeadDim             int
	Attention           string
	SlidingWindow       int
	SlidingLayers       int
	FullAttentionLayers int
	KVLoraRank          int
	QKRopeHeadDim       int
	Experts             int
	ExpertsPerToken     int
	CSALayers           int
	HCALayers           int
}

// Apply returns a with the override's non-zero fields in place, noting each one in Overridden.
// A model known only by estimate that gets its layers, KV heads and head size becomes "override".
func (o ArchOverride) Apply(a Architecture) Architecture {
	set := func(name string, dst *int, v int) {
		if v != 0 {
			*dst = v
			a.Overridden = append(a.Overridden, name)
		}
	}
	if o.Attention != "" {
		a.Attention = o.Attention
		a.Overridden = append(a.Overridden, "attention")
	}
	set("layers", &a.Layers, o.Layers)
	set("kvHeads", &a.KVHeads, o.KVHeads)
	set("headDim", &a.HeadDim, o.HeadDim)
	if o.HeadDim != 0 {
		a.VHeadDim = 0 // the head size given is the keys' and the values'
	}
	set("slidingWindow", &a.SlidingWindow, o.SlidingWindow)
	set("slidingLayers", &a.SlidingLayers, o.SlidingLayers)
	set("fullAttentionLayers", &a.FullAttentionLayers, o.FullAttentionLayers)
	set("kvLoraRank", &a.KVLoraRank, o.KVLoraRank)
	set("qkRopeHeadDim", &a.QKRopeHeadDim, o.QKRopeHeadDim)
	set("experts", &a.Experts, o.Experts)
	set("expertsPerToken", &a.ExpertsPerToken, o.ExpertsPerToken)
	set("csaLayers", &a.CSALayers, o.CSALayers)
	set("hcaLayers", &a.HCALayers, o.HCALayers)
	if o.Experts != 0 || o.ExpertsPerToken != 0 {
		a.RoutedParamsB = 0 // a count for the model's own experts: derive it for the overridden ones
	}
	if a.Source == SourceEstimated && a.CachesKV() {
		a.Source = SourceOverride
	}
	return a
}

// checkOverridden refuses a shape an override left impossible or incomplete, naming the field to
// give (by its label): layers of a kind beyond the model's layers, an MLA or hybrid kind without
// its sizes, a sliding window without the layers that use it, or the other way round. A shape
// nothing overrode is the catalog's, and stands as it is.
func (a *Architecture) checkOverridden() error {
	if len(a.Overridden) == 0 {
		return nil
	}
	atMostLayers := func(name string, n int) error {
		if a.Layers > 0 && n > a.Layers {
			return deviceField(name).Err("must be at most the model's " + itoa(a.Layers) + " layers (got " + itoa(n) + ")")
		}
		return nil
	}
	needs := func(name, why string) error {
		f := deviceField(name)
		return f.Err(why + ": give " + f.Ref() + " too")
	}
	switch {
	case a.Attention == AttentionMLA && a.KVLoraRank+a.QKRopeHeadDim <= 0:
		return needs("kvLoraRank", "attention mla caches one latent per layer")
	case a.Attention == AttentionHybrid && a.FullAttentionLayers <= 0 && !a.RecurrentOnly():
		return needs("fullAttentionLayers", "attention hybrid caches only its full-attention layers")
	case a.Attention == AttentionCSA && a.CSALayers+a.HCALayers <= 0:
		return needs("csaLayers", "attention csa compresses the context in its CSA and HCA layers")
	case a.SlidingWindow > 0 && a.SlidingLayers <= 0 && a.Attention != AttentionCSA: // csa: every layer keeps the window
		return needs("slidingLayers", "a sliding window applies to the layers that use it")
	case a.SlidingLayers > 0 && a.SlidingWindow <= 0:
		return needs("slidingWindow", "sliding-window layers keep a window of tokens")
	}
	if err := atMostLayers("slidingLayers", a.SlidingLayers); err != nil {
		return err
	}
	if err := a.checkShapeKnown(needs); err != nil {
		return err
	}
	switch a.Attention {
	case AttentionHybrid:
		return atMostLayers("fullAttentionLayers", a.FullAttentionLayers)
	case AttentionCSA: // the compressed layers are some of the model's layers; the rest keep only the window
		if a.Layers > 0 && a.CSALayers+a.HCALayers > a.Layers {
			return deviceField("hcaLayers").Err("with " + itoa(a.CSALayers) + " CSA layers, must be at most the model's " +
				itoa(a.Layers-a.CSALayers) + " other layers (got " + itoa(a.HCALayers) + ")")
		}
	}
	return nil
}

// checkShapeKnown refuses facts of the KV cache's shape given for a model whose shape is still
// not whole with them (a custom model, or a catalog entry llmfit's catalog knows no layers, KV
// heads or head size of): its KV cache would be the per-parameter estimate, and what was given
// would size nothing. It names the first fact missing. Layers alone and the experts are not such
// facts: they also count a mixture of experts' routed layers and split its weights.
func (a *Architecture) checkShapeKnown(needs func(name, why string) error) error {
	if a.CachesKV() {
		return nil
	}
	var given []string
	for _, name := range a.Overridden {
		switch name {
		case "layers", "experts", "expertsPerToken":
		default:
			given = append(given, deviceField(name).Label)
		}
	}
	if len(given) == 0 {
		return nil
	}
	missing := "layers"
	switch {
	case a.Layers <= 0:
	case a.Attention == AttentionMLA: // its latent is checked before: only the layers can be missing
	case a.KVHeads <= 0:
		missing = "kvHeads"
	default:
		missing = "headDim"
	}
	unknown := map[string]string{"layers": "layers are", "kvHeads": "KV heads are", "headDim": "head dimension is"}[missing]
	return needs(missing, "the KV cache is sized from the model's layers, KV heads and head dimension, and this model's "+unknown+
		" not known, so the "+strings.Join(given, ", ")+" given would size nothing")
}

// RecurrentOnly reports a model without any attention layer (Mamba, Falcon-Mamba): a hybrid row
// of architectures.csv with no full-attention layer and its recurrent state. Its whole cache is
// that fixed state of each sequence; nothing grows with the context. An override cannot make one
// (checkOverridden asks a hybrid for its full-attention layers); it comes only from a row, whose
// recurrent_state is sourced.
func (a *Architecture) RecurrentOnly() bool {
	return a.Attention == AttentionHybrid && a.FullAttentionLayers == 0 && a.RecurrentState > 0 && a.Layers > 0
}

// CachesKV reports whether the shape is complete enough for the per-layer KV formulas.
func (a *Architecture) CachesKV() bool {
	if a.Layers <= 0 {
		return false
	}
	switch a.Attention {
	case AttentionMLA:
		return a.KVLoraRank+a.QKRopeHeadDim > 0
	case AttentionHybrid:
		return a.FullAttentionLayers > 0 && (a.KVHeads > 0 && a.HeadDim > 0 || a.HybridLatent() > 0) || a.RecurrentOnly()
	default: // GQA/MHA/MQA and csa (one KV head of head_dim per entry)
		return a.KVHeads > 0 && a.HeadDim > 0
	}
}
