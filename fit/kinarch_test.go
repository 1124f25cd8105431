package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// A re-upload without a row of its own takes the row of the model it re-uploads (kinarch.go), so
// it gets the same attention facts. Real catalog entries, at 131,072 tokens, one sequence:
//
//	nvidia/DeepSeek-V3.2-NVFP4 → deepseek-ai/DeepSeek-V3.2 (MLA, DSA top-k 2,048): holds the
//	  latents, 61 × 1,152 B × 131,072 = 9,210,691,584 B (llmfit's 61 layers × 128 KV heads × 56
//	  made it 2 × 61 × 7,168 × 2 B × 131,072 = 229.25 GB), and under vLLM reads every token's indexer key and the top
//	  2,048 latents: 61 × (132 × 131,072 + 1,152 × 2,048) = 61 × 19,660,800 = 1,199,308,800 B;
//	  its count, V3.2's 685,396,921,376, loses the MTP block and its copies under vLLM
//	  (vllm_mtp.go): 671,919,534,824
//	nvidia/GLM-5-NVFP4 → zai-org/GLM-5-FP8 (the stem's most downloaded row): 78 × 1,152 ×
//	  131,072 = 11,777,605,632 B held, 78 × 19,660,800 = 1,533,542,400 B read under vLLM
//	cyankiwi/GLM-5.1-AWQ-4bit → zai-org/GLM-5.1-FP8: the same 11,777,605,632 B held
//	unsloth/Qwen3.6-27B → Qwen/Qwen3.6-27B-FP8 (hybrid, 16 full-attention layers of 4 KV heads
//	  of 256): 2 × 16 × 4 × 256 × 2 B × 131,072 = 8,589,934,592 B + its fp32 recurrent state,
//	  39,223,296 × 4 B = 156,893,184 B, under llama.cpp: 8,746,827,776 B (llmfit's 64 layers ×
//	  4 × 256 made it 34.36 GB)
func TestReuploadTakesItsKinsArchitecture(t *testing.T) {
	for _, c := range []struct {
		model, kin, engine string
		held, read         float64
	}{
		{"nvidia/DeepSeek-V3.2-NVFP4", "deepseek-ai/DeepSeek-V3.2", target.EngineVLLM, 9210691584, 1199308800},
		{"nvidia/GLM-5-NVFP4", "zai-org/GLM-5-FP8", target.EngineVLLM, 11777605632, 1533542400},
		{"cyankiwi/GLM-5.1-AWQ-4bit", "zai-org/GLM-5.1-FP8", target.EngineVLLM, 11777605632, 1533542400},
		{"unsloth/Qwen3.6-27B", "Qwen/Qwen3.6-27B-FP8", target.EngineLlamaCpp, 8746827776, 8746827776},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Context, t.Engine, t.KVCache = c.model, "kv", 131072, c.engine, "fp16"
		})
		if b.Arch.KinFrom != c.kin || b.Arch.Source != SourceVerified || b.KVBytes != c.held || b.KVReadBytes != c.read {
			t.Errorf("%s: kin %q (%s), holds %v B, reads %v B; want %s's row, %v and %v",
				c.model, b.Arch.KinFrom, b.Arch.Source, b.KVBytes, b.KVReadBytes, c.kin, c.held, c.read)
		}
	}
	v := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Count = "nvidia/DeepSeek-V3.2-NVFP4", "kv", target.EngineVLLM, 8
	})
	if !near(v.ParamsB, 671.919534824) {
		t.Errorf("nvidia/DeepSeek-V3.2-NVFP4 under vLLM: %v B, want 671.919534824", v.ParamsB)
	}
	// Not re-uploads: a pruned model of its own name, and a name that matches but whose catalog
	// shape (layers) disagrees with the row's.
	for _, m := range []*catalog.Model{
		mustLookup(t, "0xSero/GLM-5.1-555B-A14B-REAP-GPTQ-W4A16"),
		{Name: "someone/DeepSeek-V3.2-NVFP4", Layers: 30, KVHeads: 128, HeadDim: 128},
	} {
		if k := archKin(m); k != nil {
			t.Errorf("%s: takes %s's row", m.Name, k.Name)
		}
	}
	// llmfit mode never moves: the same entry's KV stays llmfit's layers × KV heads × head size.
	l := resolve(t, func(t *target.Target) { t.Model, t.Context = "nvidia/DeepSeek-V3.2-NVFP4", 131072 })
	m := mustLookup(t, "nvidia/DeepSeek-V3.2-NVFP4")
	if want := 2 * float64(m.Layers*m.KVHeads*m.HeadDim) * 2 * 131072; l.KVBytes != want {
		t.Errorf("llmfit mode: %v B, want %v", l.KVBytes, want)
	}
}

func mustLookup(t *testing.T, name string) *catalog.Model {
	t.Helper()
	m, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A re-upload's weights are its release's (kinarch.go, sameTensors and kinCount). Real entries,
// kv mode:
//
//	unsloth/gpt-oss-120b counts 120,412,337,472, openai/gpt-oss-120b's count, and names no
//	  format: the same MXFP4 release, 116,829,156,672 parameters (params.go), the routed
//	  114,661,785,600 at 0.53125 B and 2,167,371,072 at 2 B: 60,914,073,600 + 4,334,742,144 =
//	  65,248,815,744 B (it was 120.4 B BF16, 240.8 GB)
//	RedHatAI/gpt-oss-20b counts openai/gpt-oss-20b's 21,511,953,984: 20,914,757,184 parameters,
//	  19,110,297,600 × 0.53125 + 1,804,459,584 × 2 = 10,152,345,600 + 3,608,919,168 =
//	  13,761,264,768 B (was 43.0 GB)
//	unsloth/Kimi-K2.6 counts moonshotai/Kimi-K2.6's 1,058,589,420,528: 1,026,880,482,288 weights,
//	  the routed 1,014,686,023,680 at 0.5625 B and 12,194,458,608 at 2 B: 570,760,888,320 +
//	  24,388,917,216 = 595,149,805,536 B (was 2,117.2 GB of BF16)
//	nvidia/Kimi-K2-Thinking-NVFP4 counts 29,829,890,048 packed tensors, under 0.9 of
//	  Kimi-K2-Thinking's 1,026,409,346,176 weights, which it takes: NVFP4 at 0.5625 B but the
//	  embedding and LM head (2 × 163,840 × 7,168 = 2,348,810,240) at 2 B: 1,024,060,535,936 ×
//	  0.5625 + 4,697,620,480 = 580,731,671,944 B (was 29.8 B, 20.2 GB)
//	unsloth/Qwen3-8B, a 16-bit copy of Qwen3-8B's 36 layers of 4,096 that the catalog counts
//	  6,662,127,616: Qwen/Qwen3-8B's 8,190,735,360 × 2 B = 16,381,470,720 B (was 13.3 GB)
func TestReuploadTakesItsKinsRelease(t *testing.T) {
	for _, c := range []struct {
		model, quant     string
		params, weightsB float64
	}{
		{"unsloth/gpt-oss-120b", "MXFP4 experts + BF16", 116.829156672, 65248815744},
		{"RedHatAI/gpt-oss-20b", "MXFP4 experts + BF16", 20.914757184, 13761264768},
		{"unsloth/Kimi-K2.6", "INT4 experts + BF16", 1026.880482288, 595149805536},
		{"nvidia/Kimi-K2-Thinking-NVFP4", "NVFP4", 1026.409346176, 580731671944},
		{"unsloth/Qwen3-8B", "BF16", 8.19073536, 16381470720},
	} {
		b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = c.model, "kv" })
		if b.Quant != c.quant || !near(b.ParamsB, c.params) || !within(b.WeightsGB, c.weightsB/1e9, 1e-9) {
			t.Errorf("%s: %s, %v B, %v GB; want %s, %v B, %v GB", c.model, b.Quant, b.ParamsB, b.WeightsGB, c.quant, c.params, c.weightsB/1e9)
		}
	}
	// Not the kin's release: a copy of another count (the BF16 gpt-oss), and a 16-bit release
	// whose kin's row is a packed one counting the same 14,768,307,200 (Qwen/Qwen3-14B-AWQ).
	for _, c := range []struct {
		model  string
		params float64
	}{
		{"unsloth/gpt-oss-20b-BF16", 20.914757184},
		{"Qwen/Qwen3-14B-Base", 14.7683072},
	} {
		b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = c.model, "kv" })
		if b.Quant != "BF16" || !near(b.ParamsB, c.params) {
			t.Errorf("%s: %s, %v B; want BF16, %v B", c.model, b.Quant, b.ParamsB, c.params)
		}
	}
	// llmfit mode keeps the catalog's count and llmfit's quantization.
	l := resolve(t, func(t *target.Target) { t.Model = "unsloth/gpt-oss-120b" })
	if m := mustLookup(t, "unsloth/gpt-oss-120b"); l.ParamsB != float64(m.ParametersRaw)/1e9 || l.Quant != m.Quantization {
		t.Errorf("llmfit mode: %v B %s, want the catalog's %v B %s", l.ParamsB, l.Quant, float64(m.ParametersRaw)/1e9, m.Quantization)
	}
}
