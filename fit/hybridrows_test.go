package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Hybrid (attention + recurrent) entries that had no row (s15-hybrid): kv mode sized every layer as
// full attention and kept no recurrent state. Each now has its base's row (architectures.csv names
// the base and how the catalog's count ties it to it), at 32,768 tokens fp16, drv=nvidia: the KV
// bytes (K and V of the attention layers + the fp32 state), the bytes before (every layer full),
// the maximum context, and the floor under llama.cpp and vLLM, with the llama.cpp floor before.
func TestHybridRowsSized(t *testing.T) {
	for _, c := range []struct {
		name                   string
		kv, was                float64
		maxCtx                 int
		floorGi, vllmGi, wasGi int64
	}{
		{"LiquidAI/LFM2-24B-A2B", 671580160, 2684354560, 128000, 46, 54, 48},
		{"llmfan46/Qwen3.6-27B-uncensored-heretic-v2", 2304376832, 8589934592, 262144, 55, 70, 60},
		{"groxaxo/Qwen3.6-27B-GPTQ-Pro-4bit", 2304376832, 8589934592, 262144, 20, 32, 26},
		{"Jackrong/Qwopus3.5-27B-v3", 2304376832, 8589934592, 262144, 55, 70, 60},
		{"QuantTrio/Qwopus3.5-27B-v3-AWQ", 2304376832, 8589934592, 262144, 20, 32, 26},
		{"AEON-7/Qwen3.6-27B-AEON-Ultimate-Uncensored-BF16", 2304376832, 8589934592, 262144, 55, 70, 60},
		{"TheCluster/Qwen3.6-27B-Heretic-MLX-bf16", 2304376832, 8589934592, 262144, 19, 31, 25},
		{"QuantTrio/Qwen3.6-27B-AWQ-6Bit", 2304376832, 8589934592, 262144, 21, 32, 26},
		{"unsloth/Qwen3.6-27B-UD-MLX-4bit", 2304376832, 8589934592, 262144, 18, 29, 22},
		{"unsloth/Qwen3.6-27B-UD-MLX-6bit", 2304376832, 8589934592, 262144, 19, 31, 23},
		{"osoleve/Qwen3.5-27B-Text-NVFP4-MTP", 2304376832, 8589934592, 262144, 21, 33, 27},
		{"Hcompany/Holo3-35B-A3B", 736952320, 2684354560, 262144, 67, 85, 69},
		{"llmfan46/Qwen3.5-35B-A3B-uncensored-heretic", 736952320, 2684354560, 262144, 67, 85, 69},
		{"llmfan46/Qwen3.6-35B-A3B-uncensored-heretic", 736952320, 2684354560, 262144, 67, 85, 69},
		{"unsloth/Qwen3.6-35B-A3B-UD-MLX-4bit", 736952320, 2684354560, 262144, 20, 31, 21},
		{"unsloth/Qwen3.6-35B-A3B-UD-MLX-3bit", 736952320, 2684354560, 262144, 22, 34, 23},
		{"TheCluster/Qwen3.5-9B-Claude-4.6-HighIQ-INSTRUCT-HERETIC-UNCENSORED-MLX-mxfp8", 1126432768, 4294967296, 262144, 13, 24, 16},
		{"prithivMLmods/Gliese-Qwen3.5-9B-Abliterated-Caption", 1126432768, 4294967296, 262144, 20, 32, 23},
		{"mlx-community/Qwen3.5-9B-OptiQ-4bit", 1126432768, 4294967296, 262144, 7, 17, 10},
		{"huihui-ai/Huihui-Qwen3.5-4B-abliterated", 1126432768, 4294967296, 262144, 11, 22, 14},
		{"mlx-community/Qwen3.5-2B-6bit", 422854656, 1610612736, 262144, 3, 13, 4},
		{"cyankiwi/Qwen3-Next-80B-A3B-Thinking-AWQ-4bit", 884342784, 3221225472, 262144, 43, 53, 46},
		{"lmstudio-community/Qwen3-Next-80B-A3B-Instruct-MLX-6bit", 884342784, 3221225472, 262144, 47, 59, 50},
		{"lmstudio-community/Qwen3-Next-80B-A3B-Instruct-MLX-5bit", 884342784, 3221225472, 262144, 47, 59, 50},
		{"lmstudio-community/LFM2-24B-A2B-MLX-4bit", 671580160, 2684354560, 128000, 14, 18, 16},
		{"lmstudio-community/LFM2-24B-A2B-MLX-8bit", 671580160, 2684354560, 128000, 24, 29, 26},
		{"lmstudio-community/LFM2-24B-A2B-MLX-6bit", 671580160, 2684354560, 128000, 15, 20, 17},
		{"lmstudio-community/LFM2-24B-A2B-MLX-5bit", 671580160, 2684354560, 128000, 15, 20, 17},
		// LFM2-VL (the LM tower's row) and LFM2 MLX copies whose stem keeps a format word
		{"LiquidAI/LFM2-VL-450M", 402735104, 1073741824, 128000, 2, 12, 3},
		{"LiquidAI/LFM2-VL-1.6B", 402817024, 1073741824, 128000, 4, 12, 5},
		{"mlx-community/LFM2-VL-1.6B-4bit", 402817024, 1073741824, 128000, 2, 12, 3},
		{"lmstudio-community/LFM2.5-1.2B-Instruct-MLX-6bit", 402817024, 1073741824, 128000, 2, 12, 3},
		{"lmstudio-community/LFM2-1.2B-MLX-bf16", 402817024, 1073741824, 128000, 2, 12, 3},
		// pure SSM (RecurrentOnly: no attention layer): before, llmfit's per-parameter estimate
		{"state-spaces/mamba-130m-hf", 2801664, 33852060, 4096, 1, 12, 1},
		{"state-spaces/mamba-370m-hf", 7471104, 97390799, 4096, 2, 12, 2},
		{"tiiuae/falcon-mamba-7b", 39845888, 2321618802, 4096, 18, 22, 20},
		{"tiiuae/falcon-mamba-7b-instruct", 39845888, 1906485517, 4096, 15, 19, 16},
		// Zamba2-1.2B: 6 of 38 layers with the shared attention block (32 KV heads of 128), all 38 with a Mamba-2 state
		{"Zyphra/Zamba2-1.2B-instruct", 3302901760, 10200547328, 4096, 9, 12, 15},
		// Zamba2-7B (s16-arch): 13 of 81 layers with the shared attention block (32 KV heads of 224), all 81 with a Mamba-2 state
		{"Zyphra/Zamba2-7B-Instruct", 12369665024, 38050725888, 4096, 44, 50, 68},
		// Bamba-9B: 3 attention layers (9, 18, 27) of 32, 29 Mamba-2 layers' state
		{"ibm-ai-platform/Bamba-9B-v1", 527227904, 4294967296, 4096, 20, 27, 23},
		// Jamba-Mini-1.5: 4 attention layers of 32, 28 Mamba-1 layers' state; before, no architecture in the catalog
		{"ai21labs/AI21-Jamba-Mini-1.5", 554303488, 13518850838, 4096, 98, 111, 110},
	} {
		for _, engine := range []string{target.EngineLlamaCpp, target.EngineVLLM} {
			b := resolve(t, func(t *target.Target) {
				t.Model, t.Sizing, t.Context, t.Count, t.Driver, t.Engine = c.name, target.SizingKV, 32768, 1, "nvidia", engine
			})
			if b.Arch.Source != SourceVerified || b.Arch.Attention != AttentionHybrid || b.KVEstimated || b.MaxContext != c.maxCtx {
				t.Errorf("%s (%s): %s %q, estimated %v, max context %d; want verified hybrid, %d", c.name, engine, b.Arch.Source, b.Arch.Attention, b.KVEstimated, b.MaxContext, c.maxCtx)
			}
			want := c.floorGi
			if engine == target.EngineVLLM {
				want = c.vllmGi
			} else if !near(b.KVBytes, c.kv) || near(b.KVBytes, c.was) {
				t.Errorf("%s: KV %v B, want %v (every layer full: %v)", c.name, b.KVBytes, c.kv, c.was)
			}
			if b.MemoryGi != want {
				t.Errorf("%s (%s): floor %d Gi, want %d", c.name, engine, b.MemoryGi, want)
			}
			if engine == target.EngineLlamaCpp && b.MemoryGi > c.wasGi {
				t.Errorf("%s: floor %d Gi, above every layer full's %d", c.name, b.MemoryGi, c.wasGi)
			}
		}
	}
}

// LFM2-24B-A2B's row (a Swift re-implementation's config; architectures.csv) is checked by the
// catalog's count: 10 attention layers, 30 short convolutions, 2 dense MLPs of 11,776 and 38 MoE
// layers of 64 experts of 1,536 sum to its MLX copies' count to the parameter, and the base's is
// that plus the 38 × 64 expert biases its checkpoint stores; one attention layer more or less moves
// the sum by 6,297,472. The same shapes give moeactive.go's active count.
func TestLFM224BA2BShapesCount(t *testing.T) {
	const h, v = 2048, 65536
	attn := int64(h*h + 2*h*512 + h*h + 2*64)      // q, k, v (8 KV heads of 64), out, q/k norms
	conv := int64(h*3*h + h*h + h*3)               // in_proj to B, C, x; out_proj; depthwise kernel 3
	dense := int64(3 * h * 11776)                  // SwiGLU MLP
	expert, router := int64(3*h*1536), int64(64*h) // one expert; a MoE layer's router
	embed, norms := int64(v*h), int64((2*40+1)*h)  // tied embedding; two norms a layer and the last
	total := 10*attn + 30*conv + 2*dense + 38*(64*expert+router) + embed + norms
	for _, name := range []string{"lmstudio-community/LFM2-24B-A2B-MLX-4bit", "lmstudio-community/LFM2-24B-A2B-MLX-8bit",
		"lmstudio-community/LFM2-24B-A2B-MLX-6bit", "lmstudio-community/LFM2-24B-A2B-MLX-5bit"} {
		if got := catalog.Named(name).ParametersRaw; got != total {
			t.Errorf("%s: the catalog's %d, the shapes' %d", name, got, total)
		}
	}
	if got := catalog.Named("LiquidAI/LFM2-24B-A2B").ParametersRaw; got != total+38*64 {
		t.Errorf("LiquidAI/LFM2-24B-A2B: the catalog's %d, the shapes' %d + 38 × 64 expert biases", got, total)
	}
	if attn != 10485888 || conv-attn != 6297472 {
		t.Errorf("a layer of each kind: attention %d, convolution %d", attn, conv)
	}
	active := 10*attn + 30*conv + 2*dense + 38*(4*expert+router) + embed + norms
	if f := moeActiveFacts["LiquidAI/LFM2-24B-A2B"]; !near(f.ActiveB*1e9, float64(active)) {
		t.Errorf("moeActiveFacts: %v B active, the shapes' %d", f.ActiveB, active)
	}
}

// The Qwen3.5/3.6 fine-tunes given their base's row by a count that is the base's without its MTP
// block (vllm_mtp.go's main, which unsloth's and mlx-community's copies also count) count exactly
// that, and their rows name that base.
func TestHybridTwinsWithoutMTP(t *testing.T) {
	for name, shapes := range map[string]string{
		"llmfan46/Qwen3.6-27B-uncensored-heretic-v2":                                    "Qwen3.5-27B",
		"groxaxo/Qwen3.6-27B-GPTQ-Pro-4bit":                                             "Qwen3.5-27B",
		"Jackrong/Qwopus3.5-27B-v3":                                                     "Qwen3.5-27B",
		"QuantTrio/Qwopus3.5-27B-v3-AWQ":                                                "Qwen3.5-27B",
		"AEON-7/Qwen3.6-27B-AEON-Ultimate-Uncensored-BF16":                              "Qwen3.5-27B",
		"Hcompany/Holo3-35B-A3B":                                                        "Qwen3.5-35B-A3B",
		"llmfan46/Qwen3.5-35B-A3B-uncensored-heretic":                                   "Qwen3.5-35B-A3B",
		"llmfan46/Qwen3.6-35B-A3B-uncensored-heretic":                                   "Qwen3.5-35B-A3B",
		"prithivMLmods/Gliese-Qwen3.5-9B-Abliterated-Caption":                           "Qwen3.5-9B",
		"TheCluster/Qwen3.5-9B-Claude-4.6-HighIQ-INSTRUCT-HERETIC-UNCENSORED-MLX-mxfp8": "Qwen3.5-9B",
		"huihui-ai/Huihui-Qwen3.5-4B-abliterated":                                       "Qwen3.5-4B",
	} {
		m := catalog.Named(name)
		f, ok := mtpFactOf(m)
		if !ok || f != mtpFacts[shapes] || !near(float64(m.ParametersRaw), f.MainB*1e9) {
			t.Errorf("%s: the catalog's %d, %s's main %v B (found %v)", name, m.ParametersRaw, shapes, mtpFacts[shapes].MainB, ok)
		}
	}
}

// LFM2-VL-450M and -1.6B take their language model's row (LFM2-350M's, LFM2-1.2B's: the 450M's
// config.json copy, the model card): the catalog's count is that model's plus a SigLIP2 NaFlex
// encoder (base: 12 layers of 768; so400m: 26 of its 27 layers of 1,152, the 1.6B's) and the
// pixel-unshuffle connector, to the parameter.
func TestLFM2VLCounts(t *testing.T) {
	siglip := func(width, mlp, layers int64) int64 {
		layer := 4*(width*width+width) + width*mlp + mlp + mlp*width + width + 4*width
		return 768*width + width + 256*width + layers*layer + 2*width // patches, positions, layers, final norm
	}
	connector := func(in, hidden, out int64) int64 { return 2*in + in*hidden + hidden + hidden*out + out }
	for _, c := range []struct {
		name, lm string
		vision   int64
	}{
		{"LiquidAI/LFM2-VL-450M", "LiquidAI/LFM2-350M", siglip(768, 3072, 12) + connector(4*768, 2560, 1024)},
		{"LiquidAI/LFM2-VL-1.6B", "LiquidAI/LFM2-1.2B", siglip(1152, 4304, 26) + connector(4*1152, 2560, 2048)},
	} {
		m, lm := catalog.Named(c.name), catalog.Named(c.lm)
		if m.ParametersRaw != lm.ParametersRaw+c.vision || m.Arch.Layers != lm.Arch.Layers || m.Arch.FullAttentionLayers != lm.Arch.FullAttentionLayers ||
			m.Arch.RecurrentState != lm.Arch.RecurrentState {
			t.Errorf("%s: the catalog's %d, %s's %d + the encoder and connector's %d", c.name, m.ParametersRaw, c.lm, lm.ParametersRaw, c.vision)
		}
	}
}

// A model without attention (Mamba-1: state-spaces/mamba-130m-hf, -370m-hf, tiiuae/falcon-mamba-7b)
// is a hybrid row with no full-attention layer (RecurrentOnly): its cache is one sequence's state,
// the same at any context, fp32 in the kv line and under llama.cpp, the model's dtype under vLLM,
// which pages every layer's state as one page a request (MambaSpec). Its shapes are the catalog's
// count: a Mamba-1 layer of width h (expand 2, d_state 16, d_conv 4, dt_rank ⌈h/16⌉) holds
// in_proj h × 4h, conv 2h × 4 + 2h, x_proj 2h × (r + 32), dt_proj r × 2h + 2h, A_log 2h × 16, D 2h,
// out_proj 2h × h and a norm h.
func TestRecurrentOnlyRows(t *testing.T) {
	layer := func(h, r int64) int64 {
		d := 2 * h
		return h*2*d + d*4 + d + d*(r+32) + r*d + d + d*16 + d + d*h + h
	}
	for _, c := range []struct {
		name                string
		layers, h, r, vocab int64
		embeddings, state   int64
		count               string // the entry whose catalog count the shapes give
	}{
		{"state-spaces/mamba-130m-hf", 24, 768, 48, 50280, 1, 700416, "state-spaces/mamba-130m-hf"},
		{"state-spaces/mamba-370m-hf", 48, 1024, 64, 50280, 1, 1867776, "state-spaces/mamba-370m-hf"},
		{"tiiuae/falcon-mamba-7b", 64, 4096, 256, 65024, 2, 9961472, "tiiuae/falcon-mamba-7b-instruct"},
	} {
		if got, want := catalog.Named(c.count).ParametersRaw, c.layers*layer(c.h, c.r)+c.embeddings*c.vocab*c.h+c.h; got != want {
			t.Errorf("%s: the catalog's %d, the shapes' %d", c.count, got, want)
		}
		if want := c.layers * (2*c.h*16 + 2*c.h*3); want != c.state {
			t.Errorf("%s: state %d, the shapes' %d", c.name, c.state, want)
		}
		a := ArchitectureOf(catalog.Named(c.name))
		if !a.RecurrentOnly() || !a.CachesKV() || a.RecurrentState != int(c.state) {
			t.Fatalf("%s: %+v, want a recurrent-only row of %d elements", c.name, a, c.state)
		}
		for _, n := range []int{1, 4096, 1 << 20} {
			if got := a.KVCacheBytes(n, 2); got != float64(c.state)*4 {
				t.Errorf("%s at %d tokens: %v B, want the fp32 state %d B", c.name, n, got, c.state*4)
			}
		}
		g := newVLLMGroups(VLLMInput{TP: 1, MaxTokens: 2048, Cache: VLLMCache{StateBytes: a.VLLMRecurrentStateBytes(), StateSplit: true, StateLayers: int(c.layers), ElemBytes: 2}})
		if got := g.needed(4096); got != float64(c.state)*2 || g.requestBlocks(4096) != 1 {
			t.Errorf("%s: vLLM needs %v B (%d blocks) a request, want its bf16 state %d B in one block", c.name, got, g.requestBlocks(4096), c.state*2)
		}
		// an override of another fact keeps the row's kind: nothing to ask for
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Layers = c.name, target.SizingKV, 4096, int(c.layers)
		})
		if !b.Arch.RecurrentOnly() || b.KVEstimated {
			t.Errorf("%s with its layers given: %+v", c.name, b.Arch)
		}
	}
}

// Bamba-9B-v1's row (transformers' BambaConfig defaults, its config.json's attn_layer_indices and
// mamba_d_state 128) sums to the catalog's count to the parameter: 29 Mamba-2 layers, 3 attention
// layers, each with a SwiGLU MLP of 14,336, untied embeddings of the catalog's 128,256 rows.
func TestBamba9BShapesCount(t *testing.T) {
	const h, mlp, vocab, heads, dHead, state, conv = 4096, 14336, 128256, 128, 64, 128, 4
	inner := int64(heads * dHead)
	mixer := int64(h)*(2*inner+2*state+heads) + (inner+2*state)*conv + (inner + 2*state) + 3*heads + inner + inner*h
	ffn, norms := int64(3*h*mlp), int64(2*h)
	attn := int64(h*h + 2*h*8*128 + h*h)
	total := 29*(mixer+ffn+norms) + 3*(attn+ffn+norms) + 2*vocab*h + h
	if got := catalog.Named("ibm-ai-platform/Bamba-9B-v1").ParametersRaw; got != total {
		t.Errorf("Bamba-9B-v1: the catalog's %d, the shapes' %d", got, total)
	}
	if a := catalog.Named("ibm-ai-platform/Bamba-9B-v1").Arch; a.RecurrentState != 29*(heads*dHead*state+(int(inner)+2*state)*(conv-1)) {
		t.Errorf("Bamba-9B-v1: state %d", a.RecurrentState)
	}
}

// AI21-Jamba-Mini-1.5's row is transformers' JambaConfig defaults (Jamba-v0.1's architecture): the
// shapes sum to the catalog's count to the parameter. A Mamba-1 mixer of width 4,096 (expand 2,
// d_state 16, d_conv 4, dt_rank 256, conv bias) with Jamba's dt, B and C norms; attention 32 q /
// 8 KV heads of 128; 16 experts of 14,336 in every other layer.
func TestJambaMini15ShapesCount(t *testing.T) {
	const h, d, r, n, mlp, vocab = 4096, 8192, 256, 16, 14336, 65536
	mamba := int64(h*2*d + d*4 + d + d*(r+2*n) + r*d + d + d*n + d + d*h + r + 2*n)
	attn, ffn := int64(2*h*h+2*h*8*128), int64(3*h*mlp)
	total := 28*mamba + 4*attn + 16*ffn + 16*(16*ffn+16*h) + 64*h + 2*vocab*h + h
	if got := catalog.Named("ai21labs/AI21-Jamba-Mini-1.5").ParametersRaw; got != total {
		t.Errorf("AI21-Jamba-Mini-1.5: the catalog's %d, the shapes' %d", got, total)
	}
}
