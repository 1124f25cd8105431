package fit

import (
	"math"

	"github.com/fitclaim/fitclaim/catalog"
)

// How vLLM pages a hybrid model's recurrent state (Qwen3-Next, Qwen3.5/3.6, Nemotron-3): each
// linear-attention / Mamba layer gets a MambaSpec whose page holds one request's state of that
// layer, and every page of the pool must be the same size, so
//
//   - the attention layers' block size is raised until their page holds that state
//     (vllm/model_executor/models/config.py, HybridAttentionMambaModelConfig: "attn_block_size =
//     16 * cdiv(mamba_page_size, 16 * attn_page_size_1_token)"; later versions take the 16 from
//     the attention backend's kernel block alignment, 16 on CUDA), and the state page is padded
//     to that attention page ("pad mamba page size to exactly match attention");
//   - the layers are cut into groups of the same size (the smaller kind's count, vllm_groups.go),
//     one pool block holding a page for one layer of every group;
//   - a request takes ⌈L / block⌉ pages in each attention group and, in each state group, the
//     pages MambaSpec.max_memory_usage_bytes gives (vllm/v1/kv_cache_interface.py): one with the
//     mamba cache mode "none", two with "align", which --enable-prefix-caching selects for these
//     models. vLLM leaves prefix caching off for a hybrid unless asked (vllm/engine/arg_utils.py
//     _set_default_args: "Disable prefix caching default for hybrid models since the feature is
//     still experimental"), so the Deployment's engine runs "none".
//
// Qwen3.6-35B-A3B in fp8 (10 attention layers of 2 KV heads × 256: 1,024 B a token; 30 Gated
// DeltaNet layers of 3 × 8,192 bf16 convolution inputs and 32 × 128 × 128 fp32 state: 49,152 +
// 2,097,152 = 2,146,304 B): block 16 × ⌈2,146,304 / 16,384⌉ = 2,096 tokens, page 2,146,304 B,
// groups of 10 (1 attention, 3 state), a pool block 10 pages; the logged start-up (data/
// vllm-train.tsv gh-17, prefix caching on) had 5.98 GiB: 299 blocks, a request of 131,072 tokens
// 63 + 3 × 2 = 69 of them, concurrency 299 / 69 = 4.33, as logged. Qwen3.5-4B in bf16 (8 of 4 KV
// heads × 256: 4,096 B a token; with the 35B-A3B's 16 key / 32 value heads of 128 the same state):
// 16 × ⌈2,146,304 / 65,536⌉ = 528 tokens, the block size vLLM 0.19.1 logs for it
// (vllm-project/vllm#40696). A hybrid whose state the data does not hold (none in
// architectures.csv; an attention override) keeps 16-token pages and no state.

// vllmStateLayers are the hybrids whose recurrent layers are not all the layers but the attention
// ones: Nemotron-3's Mamba-2 layers beside separate MoE layers (moelayers.go's counts: Nano 23 of
// 52, Super 40 of 88; each's state divides into that many equal layers: 12,482,560 = 23 × 542,720,
// 43,171,840 = 40 × 1,079,296 elements).
var vllmStateLayers = map[string]int{
	"Nemotron-3-Nano-30B-A3B":    23,
	"Nemotron-3-Super-120B-A12B": 40,
}

// denseStateLayers are the dense hybrids of the same kind, by architectures.csv base: Nemotron-Nano
// v2's Mamba-2 layers beside separate MLP layers (NVIDIA-NeMo/Megatron-Bridge's patterns: 9B
// M-M-M-MM-M-M-M*-… 27 of 56, 12B M-M-M-M*-… 28 of 62; 36,384,768 = 27 × 1,347,584 and
// 37,732,352 = 28 × 1,347,584 elements).
var denseStateLayers = map[string]int{
	"nvidia/NVIDIA-Nemotron-Nano-9B-v2":                                27,
	"nvidia/NVIDIA-Nemotron-Nano-12B-v2-VL (LM: Nemotron-Nano-12B-v2)": 28,
	// Nemotron-H (NemotronHModelProvider8B / 56B's patterns): 8B M-M-M-M*-… 24 of 52, 56B 54 of 118;
	// 25,903,104 = 24 × 1,079,296 and 229,810,176 = 54 × 4,255,744 elements
	"nvidia/Nemotron-H-8B-Base-8K":  24,
	"nvidia/Nemotron-H-56B-Base-8K": 54,
	// NVIDIA-Nemotron-3-Nano-4B (M-M-M-MM-M-M*-…: 21 Mamba-2 of 42); 21,256,704 = 21 × 1,012,224 elements
	"nvidia/NVIDIA-Nemotron-3-Nano-4B": 21,
	// Zamba2-1.2B: every one of its 38 layers is a Mamba-2 layer, 6 of them with the shared
	// attention block beside it (layers_block_type); 20,419,072 = 38 × 537,344 elements
	"Zyphra/Zamba2-1.2B": 38,
	// Zamba2-7B: the same, 13 of its 81 layers with the shared attention; 38,962,944 = 81 × 481,024
	"Zyphra/Zamba2-7B": 81,
}

// stateLayersOf is how many layers share a hybrid's recurrent state: vllmStateLayers or
// denseStateLayers, else every layer that is not full attention (Qwen3-Next, Qwen3.5/3.6: each
// layer is attention or Gated DeltaNet).
func stateLayersOf(m *catalog.Model, a *Architecture) int {
	if f, ok := moeActiveOf(m); ok {
		if n, ok := vllmStateLayers[f.Shapes]; ok {
			return n
		}
	}
	if n, ok := denseStateLayers[a.Base]; ok {
		return n
	}
	return max(0, a.Layers-a.FullAttentionLayers)
}

// hybrid is the grouping of a hybrid whose state layers and state are known, with the attention
// layers' token bytes fullTB on one device; ok is false for any other cache.
func (g vllmGroups) hybrid(fullTB float64) (vllmGroups, bool) {
	c := g.cache
	if c.StateLayers <= 0 || !(c.StateBytes > 0) || g.slideLayers > 0 {
		return g, false
	}
	state := c.StateBytes / float64(c.StateLayers) // one layer's state of one request
	if c.StateSplit {
		state /= float64(max(1, g.tp))
	}
	if g.fullLayers <= 0 {
		// no attention layer (Mamba, Falcon-Mamba): vLLM gives every layer a MambaSpec whose page
		// is the layer's state, one group of all of them, and a request holds one page a layer
		// (mamba cache mode "none"); nothing grows with the context
		g.page = math.Round(state)
		g.stateLayers, g.statePages = c.StateLayers, max(1, c.StatePages)
		g.size, g.state, g.count = g.stateLayers, 1, 1
		g.cache.StateBytes = 0
		return g, true
	}
	if !(fullTB > 0) {
		return g, false
	}
	g.fullBlock = vllmBlockSize * max(1, int(math.Ceil(math.Round(state)/(vllmBlockSize*fullTB))))
	g.page = float64(g.fullBlock) * fullTB // the state's page padded to it
	g.stateLayers, g.statePages = c.StateLayers, max(1, c.StatePages)
	g.size = groupSize(g.fullLayers, g.stateLayers)
	g.full, g.state = ceilDiv(g.fullLayers, g.size), ceilDiv(g.stateLayers, g.size)
	g.count = g.full + g.state
	g.cache.StateBytes = 0 // in the pages now, not beside them
	return g, true
}
