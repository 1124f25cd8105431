package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

func archOf(t *testing.T, name string) Architecture {
	t.Helper()
	m, err := catalog.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return ArchitectureOf(m)
}

// One hand-computed case per attention kind (data/architectures.md, "Worked examples").
func TestKVCachePerLayerKind(t *testing.T) {
	cases := []struct {
		name   string
		tokens int
		elem   float64
		want   float64
		why    string
	}{
		{"meta-llama/Llama-3.1-8B-Instruct", 131072, 2, 17179869184,
			"GQA: 2 × 32 layers × 8 KV heads × 128 × 2 B × 131,072 tokens (32,768 × 4) = 17,179,869,184 B = 16.0 GiB"},
		{"meta-llama/Llama-3.1-8B-Instruct", 131072, 1, 8589934592,
			"GQA in fp8: half of 16 GiB = 8 GiB"},
		{"tiiuae/falcon-7b", 2048, 2, 16777216,
			"MQA: 2 × 32 layers × 1 KV head × 64 × 2 B × 2,048 = 16,777,216 B (the catalog says 71 KV heads)"},
		{"google/gemma-3-27b-it", 131072, 2, 11173625856,
			"sliding: per layer per token 2 × 16 × 128 × 2 = 8,192 B; 10 full layers × 131,072 + 52 sliding × min(131,072, 1,024) " +
				"= 1,310,720 + 53,248 = 1,363,968 layer-tokens × 8,192 B = 11,173,625,856 B = 10.41 GiB (not 62 GiB)"},
		{"google/gemma-3-27b-it", 512, 2, 260046848,
			"sliding, context under the window: all 62 layers hold 512 tokens: 62 × 512 × 8,192 = 260,046,848 B"},
		{"openai/gpt-oss-120b", 131072, 2, 4836556800,
			"sliding: 2 × 8 × 64 × 2 = 2,048 B; (18 × 131,072 + 18 × 128) × 2,048 = 4,836,556,800 B = 4.50 GiB"},
		{"deepseek-ai/DeepSeek-R1", 163840, 2, 11513364480,
			"MLA: 61 layers × (512 + 64) × 2 B × 163,840 = 70,272 × 163,840 = 11,513,364,480 B = 10.72 GiB"},
		{"Qwen/Qwen3-Next-80B-A3B-Instruct", 262144, 2, 6521487360,
			"hybrid: 12 full-attention layers of 48 × 2 × 2 KV heads × 256 × 2 B = 24,576 B × 262,144 = 6 GiB " +
				"(6,442,450,944 B), + the 36 Gated DeltaNet layers' state 36 × (32 × 128 × 128 + (2 × 16 × 128 + " +
				"32 × 128) × 3) = 36 × 548,864 = 19,759,104 fp32 = 79,036,416 B → 6,521,487,360 B"},
		{"Qwen/Qwen3.5-122B-A10B", 8192, 2, 357629952,
			"hybrid: 12 × 2 × 2 × 256 × 2 B = 24,576 B × 8,192 = 201,326,592 B, + 36 × (64 × 128 × 128 + " +
				"(4,096 + 8,192) × 3) = 39,075,840 fp32 = 156,303,360 B → 357,629,952 B"},
		{"nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16", 8192, 2, 239796224,
			"hybrid: 8 × 2 × 2 × 128 × 2 B = 8,192 B × 8,192 = 67,108,864 B, + 40 Mamba-2 layers × (128 × 64 × 128 + " +
				"(8,192 + 2 × 8 × 128) × 3) = 43,171,840 fp32 = 172,687,360 B → 239,796,224 B"},
		{"deepseek-ai/DeepSeek-V4-Flash", 8192, 2, 74203136,
			"csa: windows 43 × 512 × 128 = 2,818,048; CSA 21 × (512 + 128) × 8,192/4 = 21 × 640 × 2,048 = 27,525,120; " +
				"HCA 20 × 512 × 8,192/128 = 20 × 512 × 64 = 655,360; 30,998,528 elements × 2 B = 61,997,056 B; + the " +
				"compressors' fp32 state 21 × 2 × 4 × (8 × 1,024 + 8 × 256) + 20 × 2 × 4 × 128 × 512 = 1,720,320 + " +
				"10,485,760 = 12,206,080 B → 74,203,136 B = 0.074 GB (not llmfit's 19.14 GB, nor 2 × 43 × 512 × 2 B × 8,192 = 0.72 GB)"},
		{"deepseek-ai/DeepSeek-V4-Flash", 100, 2, 17297280,
			"csa under the window: 43 × 512 × 100 = 2,201,600; 21 × 640 × 25 = 336,000; 20 × 512 × 100/128 = 8,000; " +
				"2,545,600 elements × 2 B = 5,091,200 B + the state 12,206,080 B = 17,297,280 B"},
		{"deepseek-ai/DeepSeek-V4-Pro", 1048576, 2, 10353082368,
			"csa: windows 61 × 512 × 128 = 3,997,696; CSA 30 × 640 × 262,144 = 5,033,164,800; HCA 31 × 512 × 8,192 = " +
				"130,023,424; 5,167,185,920 elements × 2 B = 10,334,371,840 B = 9.62 GiB, vLLM's figure for 1M tokens in bf16; " +
				"+ the state 30 × 81,920 + 31 × 524,288 = 18,710,528 B → 10,353,082,368 B"},
	}
	for _, c := range cases {
		a := archOf(t, c.name)
		if got := a.KVCacheBytes(c.tokens, c.elem); got != c.want {
			t.Errorf("%s at %d tokens × %v B: %v B, want %v (%s)", c.name, c.tokens, c.elem, got, c.want, c.why)
		}
	}
}

func TestArchitectureSources(t *testing.T) {
	// architectures.csv row → verified; llmfit's fields only → llmfit; neither → estimated.
	if a := archOf(t, "meta-llama/Llama-3.1-8B-Instruct"); a.Source != SourceVerified || a.MaxContext != 131072 || !a.CachesKV() {
		t.Errorf("Llama-3.1-8B: %+v", a)
	}
	// RoPE-multiplied catalog context (4,194,304) replaced by the config's 131,072.
	if a := archOf(t, "openai/gpt-oss-120b"); a.MaxContext != 131072 {
		t.Errorf("gpt-oss-120b max context %d, want 131072", a.MaxContext)
	}
	var llmfitOnly, none *catalog.Model
	for i := range catalog.Models() {
		m := &catalog.Models()[i]
		if !m.Arch.Known() && m.HasArchitecture() && llmfitOnly == nil {
			llmfitOnly = m
		}
		if !m.Arch.Known() && !m.HasArchitecture() && none == nil {
			none = m
		}
	}
	if a := ArchitectureOf(llmfitOnly); a.Source != SourceLlmfit || a.Layers != llmfitOnly.Layers || !a.CachesKV() {
		t.Errorf("%s: %+v", llmfitOnly.Name, a)
	}
	if a := ArchitectureOf(none); a.Source != SourceEstimated || a.CachesKV() {
		t.Errorf("%s: %+v", none.Name, a)
	}
	// An override replaces single facts and says so.
	a := ArchOverride{SlidingWindow: 4096, SlidingLayers: 16}.Apply(archOf(t, "meta-llama/Llama-3.1-8B-Instruct"))
	if a.Source != SourceVerified || len(a.Overridden) != 2 || a.Overridden[0] != "slidingWindow" {
		t.Errorf("override: %+v", a)
	}
	// 16 full × 131,072 + 16 sliding × 4,096 = 2,162,688 layer-tokens × 2 × 8 × 128 × 2 B (4,096) = 8,858,370,048 B.
	if got := a.KVCacheBytes(131072, 2); got != 8858370048 {
		t.Errorf("overridden window: %v", got)
	}
	// An estimated model given its shape becomes "override".
	a = ArchOverride{Layers: 10, KVHeads: 2, HeadDim: 64}.Apply(Architecture{Source: SourceEstimated})
	if a.Source != SourceOverride || a.KVCacheBytes(1000, 2) != 2*10*2*64*2*1000 {
		t.Errorf("estimated + override: %+v", a)
	}
}

// A catalog model's architecture can be overridden in kv mode; llmfit mode ignores it.
func TestArchitectureOverrideInTarget(t *testing.T) {
	// Llama-3.1-8B with 16 KV heads instead of 8: kv doubles to 2 GiB at 8,192 tokens;
	// memory 14.9575 + 2 + 0.6929 llama.cpp reserve (fit_test.go, TestKVLlama31At32kTimes4) = 17.6504 → 18 Gi.
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.KVHeads = "meta-llama/Llama-3.1-8B-Instruct", "kv", 16 })
	if b.KVBytes != 2<<30 || b.MemoryGi != 18 || len(b.Arch.Overridden) != 1 {
		t.Errorf("kvHeads override: kv %v, %d Gi, %v", b.KVBytes, b.MemoryGi, b.Arch.Overridden)
	}
	b = resolve(t, func(t *target.Target) { t.Model, t.KVHeads = "meta-llama/Llama-3.1-8B-Instruct", 16 })
	if b.MemoryGi != 5 || b.MinBandwidthGBs != 170 {
		t.Errorf("llmfit mode moved: %d Gi, %d GB/s", b.MemoryGi, b.MinBandwidthGBs)
	}
	// A custom MLA model: 61 × (512 + 64) × 2 B × 8,192 = 70,272 × 8,192 = 575,668,224 B.
	b = resolve(t, func(t *target.Target) {
		t.ParamsB, t.Sizing, t.Attention, t.Layers, t.KVLoraRank, t.QKRopeHeadDim = 671, "kv", "mla", 61, 512, 64
	})
	if b.KVEstimated || b.KVBytes != 575668224 {
		t.Errorf("custom MLA: est %v kv %v", b.KVEstimated, b.KVBytes)
	}
}
