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
//	  (vllm_mtp.go): 671,919,531,240
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
	if !near(v.ParamsB, 671.91953124) {
		t.Errorf("nvidia/DeepSeek-V3.2-NVFP4 under vLLM: %v B, want 671.91953124", v.ParamsB)
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
