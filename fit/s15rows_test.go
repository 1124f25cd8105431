package fit

import (
	"math"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Rows added in the fifteenth session (s15-mlaswa) for sliding-window and MLA entries that had
// none, so kv mode read llmfit's fields: every layer a full K and V per KV head, at the catalog's
// context (often × a RoPE factor, or a 4,096 placeholder). Each takes a rowed twin's row: the same
// family, layers, width, KV heads and head size in the catalog (the row's source says which twin
// and how its count compares). At 32,768 tokens fp16, llama.cpp and vLLM, drv=nvidia, its KV cache
// and maximum context are the twin's, and no longer llmfit's fields' figure (wasGB, wasMax); where
// the count and release are the twin's too (same), so are its parameters, weights, floor and
// bandwidth.
func TestS15RowsTakeTheirTwin(t *testing.T) {
	for _, c := range []struct {
		name, twin string
		wasGB      float64 // KV at 32,768 tokens before the row, GB (2 decimals)
		wasMax     int
		same       bool
	}{
		{"aifeifei798/Gemma-4-31B-Cognitive-Unshackled", "unsloth/gemma-4-31B-it-unsloth-bnb-4bit", 32.21, 262144, false},
		{"DavidAU/gemma-4-31B-it-The-DECKARD-HERETIC-UNCENSORED-Thinking", "unsloth/gemma-4-31B-it-unsloth-bnb-4bit", 32.21, 262144, false},
		{"llmfan46/gemma-4-31B-it-uncensored-heretic", "unsloth/gemma-4-31B-it-unsloth-bnb-4bit", 32.21, 262144, false},
		{"dealignai/Gemma-4-31B-JANG_4M-CRACK", "lmstudio-community/gemma-4-31B-it-MLX-8bit", 32.21, 262144, false},
		{"dealignai/Gemma-4-31B-JANG_4M-Uncensored", "lmstudio-community/gemma-4-31B-it-MLX-8bit", 32.21, 262144, false},
		{"z-lab/gemma-4-31B-it-PARO", "lmstudio-community/gemma-4-31B-it-MLX-8bit", 32.21, 262144, false},
		{"TrevorJS/gemma-4-26B-A4B-it-uncensored", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"coder3101/gemma-4-26B-A4B-it-heretic", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"jenerallee78/gemma-4-26B-A4B-it-ara-abliterated", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"lmstudio-community/gemma-4-26B-A4B-it-MLX-6bit", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"lmstudio-community/gemma-4-26B-A4B-it-MLX-5bit", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"dealignai/Gemma-4-26B-A4B-JANG_4M-CRACK", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"dealignai/Gemma-4-26B-A4B-JANG_2L-CRACK", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"varjosoft/gemma-4-26B-A4B-it-TQ3-native", "google/gemma-4-26B-A4B-it", 8.05, 262144, false},
		{"INSAIT-Institute/BgGPT-Gemma-3-12B-IT", "google/gemma-3-12b-pt", 12.88, 1048576, true},
		{"DreamFast/gemma-3-12b-it-heretic", "google/gemma-3-12b-pt", 12.88, 1048576, true},
		{"Lightricks/gemma-3-12b-it-qat-q4_0-unquantized", "google/gemma-3-12b-pt", 12.88, 1048576, true},
		{"abhishekchohan/gemma-3-12b-it-quantized-W4A16", "google/gemma-3-12b-it", 12.88, 1048576, false},
		{"google/medgemma-1.5-4b-it", "google/gemma-3-4b-it", 1.13, 4096, true},
		{"nvidia/Nemotron-3-Content-Safety", "google/gemma-3-4b-it", 4.56, 1048576, true},
		{"Infomaniak-AI/vllm-translategemma-4b-it", "google/translategemma-4b-it", 4.56, 131072, true},
		{"twinkle-ai/gemma-3-4B-T1-it", "google/gemma-3-4b-it", 4.56, 1048576, false},
		{"farbodtavakkoli/OTel-LLM-270M-IT", "google/gemma-3-270m", 0.60, 32768, true},
		{"unsloth/gemma-3-270m-it", "google/gemma-3-270m", 0.60, 32768, true},
		{"unsloth/gemma-3-270m-it-unsloth-bnb-4bit", "google/gemma-3-270m", 0.60, 32768, false},
		{"lmstudio-community/gemma-3-270m-it-MLX-8bit", "google/gemma-3-270m", 0.60, 32768, false},
		{"lmstudio-community/gemma-3-270m-it-qat-MLX-4bit", "google/gemma-3-270m", 0.60, 32768, false},
		{"mlx-community/gemma-3-1b-it-qat-4bit", "google/gemma-3-1b-it", 0.87, 32768, false},
		{"ig1/medgemma-27b-text-it-FP8-Dynamic", "google/gemma-3-27b-it", 16.64, 1048576, false},
	} {
		for _, engine := range []string{target.EngineLlamaCpp, target.EngineVLLM} {
			at := func(name string) Bounds {
				return resolve(t, func(t *target.Target) {
					t.Model, t.Sizing, t.Context, t.Engine, t.Driver = name, target.SizingKV, 32768, engine, "nvidia"
				})
			}
			got, want := at(c.name), at(c.twin)
			if got.Arch.Source != SourceVerified || got.Arch.Attention != want.Arch.Attention || !near(got.KVBytes, want.KVBytes) || got.MaxContext != want.MaxContext {
				t.Errorf("%s (%s): %s %q, KV %v B, max %d; twin %s: %q, %v B, %d", c.name, engine, got.Arch.Source, got.Arch.Attention,
					got.KVBytes, got.MaxContext, c.twin, want.Arch.Attention, want.KVBytes, want.MaxContext)
			}
			if engine == target.EngineLlamaCpp && (math.Abs(got.KVBytes/1e9-c.wasGB) < 0.01 && got.MaxContext == c.wasMax) {
				t.Errorf("%s: KV %.2f GB, max %d: llmfit's fields' figures", c.name, got.KVBytes/1e9, got.MaxContext)
			}
			if c.same && (!near(got.ParamsB, want.ParamsB) || !near(got.WeightsGB, want.WeightsGB) || got.MemoryGi != want.MemoryGi || got.MinBandwidthGBs != want.MinBandwidthGBs) {
				t.Errorf("%s (%s): %v B, %v GB, %d Gi, %d GB/s; twin %s: %v B, %v GB, %d Gi, %d GB/s", c.name, engine, got.ParamsB, got.WeightsGB,
					got.MemoryGi, got.MinBandwidthGBs, c.twin, want.ParamsB, want.WeightsGB, want.MemoryGi, want.MinBandwidthGBs)
			}
		}
	}
}

// Rows read from a config.json copy (or code reproducing it) in the fifteenth session, each its KV
// cache at a context (fp16, llama.cpp, drv=nvidia), its maximum context and its floor; was is what
// llmfit's fields (or, with no architecture in the catalog, its per-parameter estimate) gave.
func TestS15SourcedRowsSized(t *testing.T) {
	checkRowsSized(t, []rowSized{
		// Gemma-2-27B: 46 layers, the even ones windowed at 4,096, 16 KV heads of 128: (23 × 8,192 +
		// 23 × 4,096) × 2 × 16 × 128 × 2 B; before, google's entry (no architecture, a 4,096
		// placeholder context) took llmfit's per-parameter estimate, unsloth's 46 full layers
		{"google/gemma-2-27b-it", 8192, 1, AttentionGQA, 2315255808, 0, 8192, 54},
		{"unsloth/gemma-2-27b-it", 8192, 1, AttentionGQA, 2315255808, 3087007744, 8192, 54},
		// Gemma-3n-E4B: 20 of 35 layers keep a cache (the last 15 share it), 4 of them full, 16 windowed
		// at 512, 2 KV heads of 256: (4 × 32,768 + 16 × 512) × 2 × 2 × 256 × 2 B, not 35 full layers
		{"google/gemma-3n-E4B-it", 32768, 1, AttentionGQA, 285212672, 0, 32768, 17},
		{"unsloth/gemma-3n-E4B-it", 32768, 1, AttentionGQA, 285212672, 2348810240, 32768, 17},
		{"lmstudio-community/gemma-3n-E4B-it-MLX-bf16", 32768, 1, AttentionGQA, 285212672, 2348810240, 32768, 6},
		// a bitsandbytes copy of Gemma-2-9B: gemma-2-9b-it's row, 21 of 42 layers windowed at 4,096: (21 × 8,192 + 21 × 4,096) × 2 × 8 × 256 × 2 B
		{"unsloth/gemma-2-9b-bnb-4bit", 8192, 1, AttentionGQA, 2113929216, 2818572288, 8192, 9},
		// sarvam-105b (MLA): 32 × (512 + 64) × 2 B a token, not llmfit's 32 × 2 × 64 KV heads × 576 × 2 B (154.62 GB
		// at 32,768); 131,072 tokens, not × the yarn factor 40; 8 devices
		{"sarvamai/sarvam-105b", 32768, 8, AttentionMLA, 1207959552, 154618822656, 131072, 26},
		// MiniCPM3-4B (MLA): 62 × (256 + 32) × 2 B, not 62 × 2 × 40 × 64 × 2 B
		{"openbmb/MiniCPM3-4B", 32768, 1, AttentionMLA, 1170210816, 20803747840, 32768, 9},
		// Kimi-K2.6's MLX copy: K2.6's 61 × 576 × 2 B; its context 262,144, not × the yarn factor 64
		{"mlx-community/Kimi-K2.6-mlx-DQ3_K_M-q8", 32768, 8, AttentionMLA, 2302672896, 57312559104, 262144, 75},
		// GLM-5.1's MLX copy: GLM-5.1's latent and indexer key a token, not 78 × 2 × 64 × 64 × 2 B
		{"inferencerlabs/GLM-5.1-MLX-4.8bit-INF", 32768, 8, AttentionMLA, 2944401408, 41875931136, 202752, 55},
	})
}

// Counts the catalog has for no shape of its model (s15-mlaswa): the rows' shapes (transformers'
// configuration classes, whose defaults are these checkpoints') sum to a sibling's catalog count to
// the parameter (OLMoE-1B-7B-0924-Instruct, ERNIE-4.5-21B-A3B-Thinking) or to the vendor's size
// (Solar-Open-100B: 102B), and kv mode sizes the weights on them; before, 0.44 B, 2.76 B and 8.05 B.
func TestS15CountsFromShapes(t *testing.T) {
	for _, c := range []struct {
		name, sibling         string // sibling: the entry whose catalog count the shapes' sum is ("" none)
		totalB, activeB, wasB float64
	}{
		{"allenai/OLMoE-1B-7B-0924", "allenai/OLMoE-1B-7B-0924-Instruct", 6.919161856, 1.28201728, 0.438566912},
		{"baidu/ERNIE-4.5-21B-A3B-PT", "baidu/ERNIE-4.5-21B-A3B-Thinking", 21.825437888, 3.352150208, 2.76037632},
		{"upstage/Solar-Open-100B", "", 102.651793408, 11.24952064, 8.05306368},
	} {
		m := catalog.Named(c.name)
		if got := float64(m.ParametersRaw) / 1e9; !near(got, c.wasB) {
			t.Errorf("%s: the catalog's count %v B, want %v", c.name, got, c.wasB)
		}
		if c.sibling != "" && !near(float64(catalog.Named(c.sibling).ParametersRaw)/1e9, c.totalB) {
			t.Errorf("%s: %s's count %d is not the shapes' %v B", c.name, c.sibling, catalog.Named(c.sibling).ParametersRaw, c.totalB)
		}
		p := ReleaseParamsOf(m)
		if !near(p.TotalB, c.totalB) || !near(p.ActiveB, c.activeB) || p.From == "" {
			t.Errorf("%s: %v B (%v active, from %q), want %v (%v)", c.name, p.TotalB, p.ActiveB, p.From, c.totalB, c.activeB)
		}
	}
}
