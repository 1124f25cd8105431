package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Fine-tunes whose catalog entry is their base's tensors (the same layers, width, KV heads, head
// size and count, to the parameter) take their base's row (architectures.csv, each row's source
// naming the model card that says which base), and size as their base does in kv mode. Before
// their rows, at 32,768 tokens fp16 under llama.cpp: gpt-oss-safeguard-20b 1.8B BF16 (3.5 GB)
// every layer full, 6 Gi; -120b 2.4B (4.7 GB), 8 Gi; Nemotron-Cascade-2-30B-A3B 52 full layers
// (1.74 GB of KV), 62 Gi; NVIDIA-Nemotron-Nano-9B-v2-Japanese 56 full layers (7.52 GB), 25 Gi.
// Now: 15, 63, 60 and 18 Gi, their bases' figures. The 24 hybrid fine-tunes below were sized with
// every layer full attention and no state (Qwen3.6-35B-A3B's distill at 32k: 40 × 2 × 2 × 256 × 2 B
// × 32,768 = 2.68 GB where its 10 attention layers hold 0.67 GB + 65.86 MB of fp32 state).
func TestFineTunesTakeTheirBaseRow(t *testing.T) {
	for _, c := range []struct {
		name, base, sameCount string // sameCount: the entry whose catalog count the fine-tune's is
		was                   int64  // the floor before the row (0: not checked)
	}{
		{"openai/gpt-oss-safeguard-20b", "openai/gpt-oss-20b", "unsloth/gpt-oss-20b-GGUF", 6},
		{"openai/gpt-oss-safeguard-120b", "openai/gpt-oss-120b", "unsloth/gpt-oss-120b-GGUF", 8},
		{"nvidia/Nemotron-Cascade-2-30B-A3B", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 62},
		{"nvidia/NVIDIA-Nemotron-Nano-9B-v2-Japanese", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", 25},
		// third-party and LiquidAI fine-tunes of the hybrids (Qwen3.5/3.6 Gated DeltaNet, LFM2 short
		// convolutions): the catalog's values and count are the base's, to the parameter
		{"distil-labs/distil-lfm25-shellper", "LiquidAI/LFM2.5-350M", "LiquidAI/LFM2.5-350M", 0},
		{"lordx64/Qwen3.6-35B-A3B-Claude-4.7-Opus-Reasoning-Distilled", "Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.6-35B-A3B", 0},
		{"ansulev/Darwin-9B-NEG", "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-9B", 0},
		{"huihui-ai/Huihui-Qwen3.5-9B-abliterated", "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-9B", 0},
		{"huihui-ai/Huihui-Qwen3.5-27B-Claude-4.6-Opus-abliterated", "Qwen/Qwen3.5-27B", "Qwen/Qwen3.5-27B", 0},
		{"huihui-ai/Huihui-Qwen3.5-35B-A3B-abliterated", "Qwen/Qwen3.5-35B-A3B", "Qwen/Qwen3.5-35B-A3B", 0},
		{"huihui-ai/Huihui-Qwen3.6-27B-abliterated", "Qwen/Qwen3.6-27B", "Qwen/Qwen3.6-27B", 0},
		{"huihui-ai/Huihui-Qwen3.6-35B-A3B-abliterated", "Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.6-35B-A3B", 0},
		{"Jackrong/Qwen3.5-9B-GLM5.1-Distill-v1", "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-9B", 0},
		{"huihui-ai/Huihui-Qwen3.6-35B-A3B-Claude-4.7-Opus-abliterated", "Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.6-35B-A3B", 0},
		{"hesamation/Qwen3.6-35B-A3B-Claude-4.6-Opus-Reasoning-Distilled", "Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.6-35B-A3B", 0},
		{"raxcore-dev/rax-3.5-chat", "Qwen/Qwen3.5-2B", "Qwen/Qwen3.5-2B", 0},
		{"Jackrong/Qwen3.5-4B-Claude-4.6-Opus-Reasoning-Distilled", "Qwen/Qwen3.5-4B", "Qwen/Qwen3.5-4B", 0},
		{"Jackrong/Qwen3.5-9B-Claude-4.6-Opus-Reasoning-Distilled-v2", "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-9B", 0},
		{"Etherll/Tashkeel-700M", "LiquidAI/LFM2-700M", "LiquidAI/LFM2-700M", 0},
		{"LiquidAI/LFM2.5-1.2B-Base", "LiquidAI/LFM2.5-1.2B-Instruct", "LiquidAI/LFM2.5-1.2B-Instruct", 0},
		{"LiquidAI/LFM2.5-1.2B-JP", "LiquidAI/LFM2.5-1.2B-Instruct", "LiquidAI/LFM2.5-1.2B-Instruct", 0},
		{"LiquidAI/LFM2-1.2B-Extract", "LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-1.2B", 0},
		{"LiquidAI/LFM2-1.2B-RAG", "LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-1.2B", 0},
		{"LiquidAI/LFM2-1.2B-Tool", "LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-1.2B", 0},
		{"LiquidAI/LFM2-350M-ENJP-MT", "LiquidAI/LFM2-350M", "LiquidAI/LFM2-350M", 0},
		{"LiquidAI/LFM2-350M-Extract", "LiquidAI/LFM2-350M", "LiquidAI/LFM2-350M", 0},
		{"LiquidAI/LFM2-350M-PII-Extract-JP", "LiquidAI/LFM2-350M", "LiquidAI/LFM2-350M", 0},
		{"LiquidAI/LFM2-350M-Math", "LiquidAI/LFM2-350M", "LiquidAI/LFM2-350M", 0},
		// fine-tunes of the sliding-window families (Olmo-3 3 : 1, Gemma-2 1 : 1, Gemma-3/4 5 : 1)
		{"allenai/Olmo-3-7B-Instruct-SFT", "allenai/Olmo-3-1025-7B", "allenai/Olmo-3-1025-7B", 0},
		{"allenai/Olmo-3-7B-Think-SFT", "allenai/Olmo-3-1025-7B", "allenai/Olmo-3-1025-7B", 0},
		{"allenai/Olmo-3-7B-Think", "allenai/Olmo-3-7B-Instruct", "allenai/Olmo-3-7B-Instruct", 0},
		{"allenai/Olmo-3-7B-Instruct-DPO", "allenai/Olmo-3-7B-Instruct", "allenai/Olmo-3-7B-Instruct", 0},
		{"TrevorJS/gemma-4-31B-it-uncensored", "google/gemma-4-31B-it", "google/gemma-4-31B-it", 0},
		{"google/gemma-2-2b-jpn-it", "google/gemma-2-2b-it", "google/gemma-2-2b-it", 0},
		{"farbodtavakkoli/OTel-LLM-1B-IT", "unsloth/gemma-3-1b-it", "unsloth/gemma-3-1b-it", 0},
	} {
		m, k := catalog.Named(c.name), catalog.Named(c.sameCount)
		if m.ParametersRaw != k.ParametersRaw || m.Layers != k.Layers || m.HiddenSize != k.HiddenSize || m.KVHeads != k.KVHeads || m.HeadDim != k.HeadDim {
			t.Errorf("%s: the catalog's %d parameters, %d layers × %d is not %s's %d, %d × %d", c.name, m.ParametersRaw, m.Layers, m.HiddenSize, c.sameCount, k.ParametersRaw, k.Layers, k.HiddenSize)
		}
		for _, engine := range []string{target.EngineLlamaCpp, target.EngineVLLM} {
			at := func(name string) Bounds {
				return resolve(t, func(t *target.Target) {
					t.Model, t.Sizing, t.Context, t.Engine = name, target.SizingKV, 32768, engine
				})
			}
			got, want := at(c.name), at(c.base)
			if got.Arch.Source != SourceVerified || !near(got.ParamsB, want.ParamsB) || !near(got.ActiveParamsB, want.ActiveParamsB) ||
				!near(got.WeightsGB, want.WeightsGB) || !near(got.KVBytes, want.KVBytes) || got.MemoryGi != want.MemoryGi || got.MinBandwidthGBs != want.MinBandwidthGBs {
				t.Errorf("%s (%s): %s, %v B (%v active), %v GB, KV %v B, %d Gi, %d GB/s; %s: %v B (%v), %v GB, %v B, %d Gi, %d GB/s",
					c.name, engine, got.Arch.Source, got.ParamsB, got.ActiveParamsB, got.WeightsGB, got.KVBytes, got.MemoryGi, got.MinBandwidthGBs,
					c.base, want.ParamsB, want.ActiveParamsB, want.WeightsGB, want.KVBytes, want.MemoryGi, want.MinBandwidthGBs)
			}
			if engine == target.EngineLlamaCpp && got.MemoryGi == c.was {
				t.Errorf("%s: floor %d Gi, as before its row", c.name, got.MemoryGi)
			}
		}
	}
}

// ArliAI/gpt-oss-20b-Derestricted counts 20,914,757,184 parameters, gpt-oss-20b's weights by its
// shapes exactly (releaseFacts): a release stored unpacked, 16-bit (41.83 GB, as before), now with
// gpt-oss-20b's layers: 12 of 24 windowed at 128 (at 32,768 tokens 0.81 GB of KV, where every
// layer full said 1.61 GB) and 131,072 tokens at most, not the catalog's 4,194,304 (× RoPE 32).
// Floor under llama.cpp 42 → 41 Gi.
func TestGptOss20bDerestrictedRow(t *testing.T) {
	at := func(name string) Bounds {
		return resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Context = name, target.SizingKV, 32768 })
	}
	got, base := at("ArliAI/gpt-oss-20b-Derestricted"), at("openai/gpt-oss-20b")
	if got.Arch.Source != SourceVerified || got.Format.Name != "BF16" || !near(got.ParamsB, 20.914757184) || !near(got.WeightsGB, 41.829514368) ||
		!near(got.KVBytes, base.KVBytes) || got.MaxContext != 131072 || got.MemoryGi != 41 {
		t.Errorf("%s, %s, %v B, %v GB, KV %v B (gpt-oss-20b %v), max %d, %d Gi", got.Arch.Source, got.Format.Name, got.ParamsB, got.WeightsGB, got.KVBytes, base.KVBytes, got.MaxContext, got.MemoryGi)
	}
}
