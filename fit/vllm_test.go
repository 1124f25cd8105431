package fit

import (
	"math"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Hand-computed start-ups of the vLLM model. GiB = 2^30 bytes; the constants are the committed
// ones (9.52, 1.43, 0.112, 0.55).

func nearly(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v (±%v)", what, got, want, tol)
	}
}

// Dense GQA on an H100: Llama-3.1-8B, bf16, one device, the llm-d start-up (llmd-05).
func TestVLLMDenseH100(t *testing.T) {
	r := VLLM(VLLMInput{
		TotalGiB: 79.18, Device: "NVIDIA H100 80GB", WeightsGiB: 14.99, Vocab: 128256, Hidden: 4096,
		MaxModelLen: 16000, Cache: VLLMCache{FullLayers: 32, KVHeads: 8, HeadDim: 128, ElemBytes: 2},
	})
	// defaults on an H100: utilization 0.9, 1024 sequences, 8192 batched tokens
	if r.Utilization != 0.9 || r.MaxNumSeqs != 1024 || r.MaxTokens != 8192 {
		t.Fatalf("defaults = %v, %d, %d", r.Utilization, r.MaxNumSeqs, r.MaxTokens)
	}
	nearly(t, "budget", r.BudgetGiB, 71.262, 1e-9) // 0.9 × 79.18
	// logits 1024 × 128,256 × 4 B = 0.489258 GiB; hidden 8192 × 4096 × 2 B = 0.0625 GiB
	// 9.52 × 0.489258 + 1.43 × 0.0625 = 4.657734 + 0.089375 = 4.747109
	nearly(t, "activation", r.ActivationGiB, 4.747109, 1e-6)
	nearly(t, "non-torch", r.NonTorchGiB, 0.112, 0)
	// 71.262 − 14.99 − 4.747109 − 0.112 = 51.412891 (vLLM logged 51.38)
	nearly(t, "available", r.KVCacheGiB, 51.412891, 1e-6)
	// one block = 16 tokens × 32 layers × 2 × 8 heads × 128 × 2 B = 2 MiB; 51.412891 × 512 = 26,323.4
	if r.KVBlocks != 26323 || r.KVCacheTokens != 26323*16 {
		t.Errorf("blocks, tokens = %d, %d; want 26323, 421168", r.KVBlocks, r.KVCacheTokens)
	}
	nearly(t, "concurrency", r.MaxConcurrency, 26323.0/1000, 1e-12) // ⌈16000/16⌉ = 1000 blocks a request
	if !r.Starts || r.Reason != "" || r.MaxModelLen != 0 {
		t.Errorf("starts %v %q %d", r.Starts, r.Reason, r.MaxModelLen)
	}
	// the check: 1000 blocks × 2 MiB = 1.953125 GiB for one request of 16,000 tokens
	nearly(t, "needed", r.NeededGiB, 1000*2.0/1024, 1e-12)
}

// Tensor parallel splits the KV heads: Qwen2-7B (4 KV heads) on 2 × A100 keeps 2 per device
// (dl-05: 12.02 GiB logged, 450,192 tokens, 27.48×).
func TestVLLMTensorParallelLayout(t *testing.T) {
	in := VLLMInput{TP: 2, TotalGiB: 79.15, Device: "NVIDIA A100 80GB", MaxModelLen: 16384,
		Cache: VLLMCache{FullLayers: 28, KVHeads: 4, HeadDim: 128, ElemBytes: 2}}
	r := VLLMLayout(in, 12.02)
	// block: 16 × 28 × 2 × 2 heads × 128 × 2 B = 458,752 B; 12.02 × 2^30 / 458,752 = 28,133.7
	if r.KVBlocks != 28133 || r.KVCacheTokens != 450128 {
		t.Errorf("blocks, tokens = %d, %d; want 28133, 450128 (logged 450,192 from a rounded 12.02)", r.KVBlocks, r.KVCacheTokens)
	}
	nearly(t, "concurrency", r.MaxConcurrency, 28133.0/1024, 1e-12) // 27.47; logged 27.48
	// 8 devices would leave max(1, 4/8) = 1 head each, not half a head
	in.TP = 8
	if got := VLLMLayout(in, 12.02).KVBlocks; got != 56267 { // 12.02 × 2^30 / 229,376 = 56,267.3
		t.Errorf("TP 8 blocks = %d, want 56267", got)
	}
}

// Sliding window: gpt-oss-120b (18 full + 18 windowed layers of 8 KV heads × 64, window 128)
// on 4 × A100 with 2048 batched tokens (dl-01: 45.32 GiB, 2,640,144 tokens, 284.25×).
func TestVLLMSlidingWindowLayout(t *testing.T) {
	in := VLLMInput{TP: 4, TotalGiB: 79.15, Device: "NVIDIA A100 80GB", MaxModelLen: 16384,
		Cache: VLLMCache{FullLayers: 18, SlidingLayers: 18, Window: 128, KVHeads: 8, HeadDim: 64, ElemBytes: 2}}
	r := VLLMLayout(in, 45.32)
	// page = 16 × 2 × 2 heads × 64 × 2 B = 8192 B; groups of 18 layers, 2 groups;
	// blocks = 45.32 × 2^30 / (8192 × 18) = 330,010.2 → 330,010; tokens = 330,010 ÷ 2 × 16
	if r.KVBlocks != 330010 || r.KVCacheTokens != 2640080 {
		t.Errorf("blocks, tokens = %d, %d; want 330010, 2640080", r.KVBlocks, r.KVCacheTokens)
	}
	// a request: full ⌈16384/16⌉ = 1024 blocks + window ⌈min(127 + 2048, 16384)/16⌉ + 1 = 137
	nearly(t, "concurrency", r.MaxConcurrency, 330010.0/1161, 1e-12) // 284.25
}

// MLA: DeepSeek-V2-Lite (27 layers, latent 512 + 64) keeps the whole latent on every rank and
// does not start with 0.93 GiB for 32,768 tokens (gh-23: "0.95 GiB KV cache is needed").
func TestVLLMMLADoesNotStart(t *testing.T) {
	in := VLLMInput{TP: 2, TotalGiB: 22, MaxModelLen: 32768, Cache: VLLMCache{FullLayers: 27, MLALatent: 576, ElemBytes: 2}}
	r := VLLMLayout(in, 0.93)
	// needed = 27 × 576 × 2 B × 32,768 = 1,019,215,872 B = 0.94921875 GiB
	nearly(t, "needed", r.NeededGiB, 0.94921875, 1e-12)
	if r.Starts {
		t.Fatal("starts with 0.93 GiB < 0.95 GiB")
	}
	// longest: 0.93 × 2^30 / (16 × 27 × 1152 B) = 2006.5 blocks → 2006 × 16 = 32,096 tokens
	if r.MaxModelLen != 32096 {
		t.Errorf("maxModelLen = %d, want 32096", r.MaxModelLen)
	}
	want := "To serve at least one request with the model's max seq len (32768), (0.95 GiB KV cache is needed, which is larger than the available KV cache memory (0.93 GiB). Based on the available memory, the estimated maximum model length is 32096. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
	if r.Reason != want {
		t.Errorf("reason = %q\nwant     %q", r.Reason, want)
	}
}

// Nothing left for the cache: weights above the budget make the available KV negative by the
// shortfall, and vLLM's other message.
func TestVLLMNoMemory(t *testing.T) {
	r := VLLM(VLLMInput{TotalGiB: 22.16, Device: "NVIDIA L4", WeightsGiB: 21, Vocab: 32000, Hidden: 4096,
		MaxModelLen: 4096, Cache: VLLMCache{FullLayers: 32, KVHeads: 8, HeadDim: 128, ElemBytes: 2}})
	// budget 0.9 × 22.16 = 19.944; activation 9.52 × 256 × 32000 × 4 / 2^30 + 1.43 × 2048 × 4096 × 2 / 2^30
	// = 9.52 × 0.0305176 + 1.43 × 0.015625 = 0.290527 + 0.022344 = 0.312871; 19.944 − 21 − 0.312871 − 0.112
	nearly(t, "available", r.KVCacheGiB, -1.480871, 1e-6)
	if r.Starts || r.KVCacheTokens != 0 || r.MaxConcurrency != 0 || r.MaxModelLen != 0 ||
		!strings.HasPrefix(r.Reason, "No available memory for the cache blocks.") {
		t.Errorf("%+v", r)
	}
}

func TestVLLMDefaultLimits(t *testing.T) {
	for _, c := range []struct {
		total       float64
		device      string
		seqs, batch int
	}{
		{79.18, "NVIDIA H100 80GB", 1024, 8192},
		{139.8, "NVIDIA H200", 1024, 8192},
		{79.15, "NVIDIA A100 80GB", 256, 2048}, // vLLM's A100 exception
		{79.15, "", 1024, 8192},                // by numbers alone: 70 GiB or more is large
		{69.9, "", 256, 2048},
		{22.16, "NVIDIA L4", 256, 2048},
	} {
		s, b := VLLMDefaultLimits(c.total, c.device)
		if s != c.seqs || b != c.batch {
			t.Errorf("VLLMDefaultLimits(%v, %q) = %d, %d; want %d, %d", c.total, c.device, s, b, c.seqs, c.batch)
		}
	}
}

// Grouping pads the smaller kind when the layer counts are within 25 %, else cuts groups of
// the smaller count (Gemma-3's 5 windowed : 1 full makes 6 groups of 10).
func TestVLLMGroups(t *testing.T) {
	g := newVLLMGroups(VLLMInput{TP: 1, MaxTokens: 2048, Cache: VLLMCache{FullLayers: 10, SlidingLayers: 50, Window: 1024, KVHeads: 1, HeadDim: 1, ElemBytes: 1}})
	if g.size != 10 || g.full != 1 || g.slide != 5 || g.count != 6 {
		t.Errorf("10 + 50: %+v", g)
	}
	g = newVLLMGroups(VLLMInput{TP: 1, Cache: VLLMCache{FullLayers: 9, SlidingLayers: 10, Window: 1024, KVHeads: 1, HeadDim: 1, ElemBytes: 1}})
	if g.size != 10 || g.count != 2 { // 10 < 9 × 1.25: pad to 10
		t.Errorf("9 + 10: %+v", g)
	}
	g = newVLLMGroups(VLLMInput{TP: 1, Cache: VLLMCache{FullLayers: 12, SlidingLayers: 12, KVHeads: 1, HeadDim: 1, ElemBytes: 1}})
	if g.size != 24 || g.count != 1 { // no window given: all 24 layers are full
		t.Errorf("no window: %+v", g)
	}
}

// The documented shortfall is the median of the six boards the training data shows: driver MiB
// / 1024 − CUDA GiB = 15,360/1024 − 14.74 = 0.26 (T4), 23,034/1024 − 22.16 = 0.334 (L4),
// 24,576/1024 − 23.58 = 0.42 (RTX 3090), 81,559/1024 − 79.18 = 0.467 (H100),
// 40,960/1024 − 39.38 = 0.62 (A100 40GB), 81,920/1024 − 79.15 = 0.85 (A100 80GB):
// median (0.42 + 0.467) / 2 = 0.4435 → 0.44.
func TestVLLMShortfallIsTheMedian(t *testing.T) {
	s := vllmShortfalls()
	if len(s) != 6 {
		t.Fatalf("shortfalls %v", s)
	}
	nearly(t, "median", (s[2]+s[3])/2, 0.4435, 0.0005)
	nearly(t, "VLLMDriverShortfallGiB", VLLMDriverShortfallGiB, (s[2]+s[3])/2, 0.005)
	h100, ok100 := LookupAccelerator("nvidia-h100-sxm")
	h200, ok200 := LookupAccelerator("nvidia-h200")
	if !ok100 || !ok200 {
		t.Fatalf("catalog lacks the H100 SXM (%v) or the H200 (%v)", ok100, ok200)
	}
	nearly(t, "H100", VLLMTotalGiB(&h100), 79.18, 0)
	nearly(t, "H200", VLLMTotalGiB(&h200), 143771.0/1024-0.44, 1e-12) // 140.4014 − 0.44 = 139.9614
}

// A catalog model as a vLLM start-up: Qwen2-7B-Instruct in BF16 on 2 × A100 80GB, dl-05's setup.
func TestVLLMInputFor(t *testing.T) {
	b := resolve(t, func(tg *target.Target) {
		tg.Model, tg.Quant, tg.Sizing, tg.Context, tg.Count = "Qwen/Qwen2-7B-Instruct", "BF16", target.SizingKV, 16384, 2
	})
	in := VLLMInputFor(&b, 79.15, "NVIDIA A100 SXM4 80GB")
	// 7,615,616,512 parameters × 2 bytes / 2 devices / 2^30 = 7.0926 GiB (dl-05 logged 7.1217)
	nearly(t, "weights", in.WeightsGiB, 7615616512.0/(1<<30), 1e-12)
	want := VLLMCache{FullLayers: 28, KVHeads: 4, HeadDim: 128, ElemBytes: 2}
	if in.TP != 2 || in.Vocab != 152064 || in.Hidden != 3584 || in.MaxModelLen != 16384 || in.Cache != want {
		t.Errorf("%+v", in)
	}
	r := VLLM(VLLMInput{TotalGiB: in.TotalGiB, Device: in.Device, Utilization: 0.25, TP: 2, WeightsGiB: 7.1217,
		Vocab: in.Vocab, Hidden: in.Hidden, MaxModelLen: 16384, Cache: in.Cache})
	// A100: 256 sequences, 2048 tokens. 0.25 × 79.15 = 19.7875; activation 9.52 × 256 × 152,064 × 4 / 2^30
	// + 1.43 × 2048 × 3584 × 2 / 2^30 = 9.52 × 0.145020 + 1.43 × 0.013672 = 1.380591 + 0.019550 = 1.400141;
	// non-torch 0.55 (tensor parallel): 19.7875 − 7.1217 − 1.400141 − 0.55 = 10.715659 (logged 12.02)
	nearly(t, "available", r.KVCacheGiB, 10.715659, 1e-5)
}
