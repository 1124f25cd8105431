package fit

import (
	"math"
	"strconv"
	"strings"
)

// The vLLM engine's own budget: what vLLM's V1 engine (v0.11–v0.20) does at start-up, so that
// fitclaim can say whether a claimed device lets it start, how much KV cache it gets and how
// many requests it holds at once, in the terms vLLM logs.
//
// vLLM's rule (vllm/v1/worker/gpu_worker.py, determine_available_memory):
//
//	budget       = gpu_memory_utilization × total            (per device, total as CUDA sees it)
//	available KV = budget − weights − activation peak − non-torch memory
//
// The activation peak is the torch peak of a profile run: a dummy forward pass of
// max_num_batched_tokens tokens, then a dummy sampler pass over min(max_num_seqs, tokens)
// rows of vocabulary logits. CUDA graphs are captured after the KV cache is allocated, outside
// the budget (v0.21 moved them inside), so they need the share of the device the budget leaves
// (vllmDeviceGiB).

// VLLMEngine names the engine and the versions this model reproduces; it goes into every
// output that uses it.
const VLLMEngine = "vLLM V1 engine v0.11–v0.20"

// Defaults and rules read from vLLM's source.
const (
	// VLLMDefaultUtilization is --gpu-memory-utilization's default (vllm/config/cache.py).
	VLLMDefaultUtilization = 0.9
	// vllmBlockSize is the KV-cache block size on CUDA (cache.py block_size default 16).
	vllmBlockSize = 16
	// VLLMDeepSeekV4BlockSize is the block size vLLM's DeepSeek-V4 recipe runs with, --block-size
	// 256, the sparse kernels' page (recipes.vllm.ai/deepseek-ai/DeepSeek-V4-Flash, the launch
	// command of vllm.ai/blog/deepseek-v4, vllm-project/vllm#40778); the Deployment passes it
	// (deploy/vllm_deepseekv4.go) and the budget pages V4's cache in it.
	VLLMDeepSeekV4BlockSize = 256
	// The default scheduler limits for the OpenAI server (vllm/engine/arg_utils.py,
	// _set_default_args): devices of 70 GiB or more, other than an A100, get 1024 sequences and
	// 8192 batched tokens; every other device 256 and 2048.
	vllmLargeDeviceGiB        = 70
	vllmLargeMaxNumSeqs       = 1024
	vllmLargeMaxBatchedTokens = 8192
	vllmSmallMaxNumSeqs       = 256
	vllmSmallMaxBatchedTokens = 2048
	// vllmWindowGroupSlack: vLLM pads KV-cache groups to the largest layer type when it has
	// fewer than 1.25 × the layers of the smallest (kv_cache_utils.py, uniform page size).
	vllmWindowGroupSlack = 1.25
)

// Calibrated on data/vllm-train.tsv (the V1 start-ups that log their activation peak and
// non-torch memory) by internal/vllmtrain.Calibrate; TestVLLMConstantsAreTheFit recomputes
// them from the data and fails if these drift. Rounded to three significant figures.
const (
	// VLLMActLogitFactor multiplies the fp32 logits of the dummy sampler batch
	// (min(max_num_seqs, max_num_batched_tokens) × vocabulary × 4 bytes): the sampler's sort,
	// softmax and top-k/top-p copies make ~38 bytes per logit. Least squares, no intercept.
	VLLMActLogitFactor = 9.52
	// VLLMActHiddenFactor multiplies the bf16 hidden states of the dummy forward pass
	// (max_num_batched_tokens × hidden size × 2 bytes). Same least squares.
	VLLMActHiddenFactor = 1.43
	// VLLMNonTorchGiB is the mean non-torch memory (CUDA context growth) of the single-device rows.
	VLLMNonTorchGiB = 0.112
	// VLLMNonTorchTPGiB is the mean of the tensor-parallel rows (NCCL and custom all-reduce buffers).
	VLLMNonTorchTPGiB = 0.55
	// VLLMCUDAGraphGiB is the largest CUDA-graph capture a V1 row logged: the room a device
	// needs beside the budget.
	VLLMCUDAGraphGiB = 1.12
)

// VLLMCache is the KV-cache shape vLLM allocates: layers that cache every token, layers that
// keep a sliding window, and the bytes of one layer's entry for one token.
type VLLMCache struct {
	FullLayers    int // layers whose cache grows with the context
	SlidingLayers int // layers that keep a window
	Window        int // sliding window, tokens
	KVHeads       int // GQA/MHA/MQA: KV heads per layer (split over tensor parallelism)
	HeadDim       int
	// FullKVHeads and FullHeadDim are the full-attention layers' where they differ from the
	// sliding ones' (Gemma-4's global layers); 0 = KVHeads, HeadDim.
	FullKVHeads, FullHeadDim int
	// VHeadDim is the value heads' size where it differs from the keys' (MiMo-V2-Flash's 128
	// beside 192, which vLLM caches as such: FlashAttentionDiffKVBackend, head_size_v); 0 = the
	// keys'.
	VHeadDim  int
	MLALatent int // MLA: kv_lora_rank + qk_rope_head_dim per layer; set = MLA (not split)
	// MLAExtraBytes is what vLLM keeps per MLA layer and token beside MLALatent × ElemBytes: a DSA
	// model's indexer key and its fp8 latent's scales (vllm_dsa.go); every rank keeps it whole.
	MLAExtraBytes float64
	ElemBytes     float64 // 2 for an fp16/bf16 cache ("auto"), 1 for fp8
	// TokenBytes, when the shape is unknown, is all layers' cache per token (llmfit's
	// per-parameter estimate), split evenly over tensor parallelism; FullLayers is then 1.
	TokenBytes float64

	// What each request holds beside the pages that grow with the context (vllm_request.go):
	// StateBytes of fixed state (a hybrid's recurrent state, split over tensor parallelism as its
	// heads are when StateSplit; DeepSeek-V4's compressor state, whole on every rank), and
	// WindowLayers layers that each keep a window of WindowTokenBytes a token, whole on every
	// rank, paged as vLLM pages a sliding window (DeepSeek-V4's 128-token windows).
	StateBytes       float64
	StateSplit       bool
	WindowLayers     int
	WindowTokenBytes float64
	// StateLayers are a hybrid's linear-attention / Mamba layers, among which StateBytes is shared
	// evenly: vLLM pages their state as the attention layers' cache (vllm_hybrid.go). StatePages is
	// the pages each such layer holds for a request: 1 (0 = 1) as vLLM runs a hybrid by default,
	// without prefix caching; 2 with --enable-prefix-caching (mamba cache mode "align").
	StateLayers, StatePages int
	// BlockSize is the tokens of a block vLLM runs with (--block-size); 0 = its default, 16.
	BlockSize int
}

// blockSize is the block vLLM pages the cache in: BlockSize, else vLLM's default.
func (c VLLMCache) blockSize() int {
	if c.BlockSize > 0 {
		return c.BlockSize
	}
	return vllmBlockSize
}

// layerTokenBytes is one sliding-window layer's cache (or any layer's, where the kinds have one
// shape) for one token on one device: K and V for max(1, ⌈kvHeads/tp⌉) heads, or one MLA latent,
// which every rank keeps whole. Heads that do not divide over the devices (a split vLLM refuses,
// vllm_refuse.go, but the claim is still written, with a warning) count as the fullest device's
// ⌈kvHeads/tp⌉: ⌊kvHeads/tp⌋ lost heads (32 on 3: 10 a device, 30 of 32) and printed a floor
// below what any such split holds.
func (c VLLMCache) layerTokenBytes(tp int) float64 {
	return c.tokenBytes(tp, c.KVHeads, c.HeadDim)
}

// fullTokenBytes is layerTokenBytes for a full-attention layer, in its own shape where it has one.
func (c VLLMCache) fullTokenBytes(tp int) float64 {
	heads, dim := c.KVHeads, c.HeadDim
	if c.FullKVHeads > 0 {
		heads = c.FullKVHeads
	}
	if c.FullHeadDim > 0 {
		dim = c.FullHeadDim
	}
	return c.tokenBytes(tp, heads, dim)
}

func (c VLLMCache) tokenBytes(tp, kvHeads, headDim int) float64 {
	if c.TokenBytes > 0 {
		return c.TokenBytes / float64(max(1, tp))
	}
	if c.MLALatent > 0 {
		return float64(c.MLALatent)*c.ElemBytes + c.MLAExtraBytes
	}
	heads := max(1, ceilDiv(kvHeads, max(1, tp)))
	vDim := headDim
	if c.VHeadDim > 0 {
		vDim = c.VHeadDim
	}
	return float64(heads) * float64(headDim+vDim) * c.ElemBytes
}

// deviceBytes is one request's cache of n tokens on one of tp devices (the sliding layers held
// at their window), before vLLM rounds it to blocks.
func (c VLLMCache) deviceBytes(tp, n int) float64 {
	held := n
	if c.Window > 0 {
		held = min(n, c.Window)
	}
	full, slide := max(0, c.FullLayers), max(0, c.SlidingLayers)
	if c.Window <= 0 {
		full, slide = full+slide, 0
	}
	return float64(full)*c.fullTokenBytes(tp)*float64(n) + float64(slide)*c.layerTokenBytes(tp)*float64(held) +
		c.requestFixedBytes(tp, min(n, c.Window))
}

// VLLMInput is one engine start-up: the device, the model's share of it and vLLM's arguments.
type VLLMInput struct {
	TotalGiB    float64 // per device, as CUDA reports it (H100 80GB: 79.18)
	Device      string  // device name, for vLLM's A100 exception; "" = judge by TotalGiB
	Utilization float64 // --gpu-memory-utilization; 0 = 0.9
	TP          int     // tensor-parallel size; 0 = 1
	WeightsGiB  float64 // weights per device ("Model loading took X GiB")
	Vocab       int
	Hidden      int
	MaxNumSeqs  int // --max-num-seqs; 0 = the device default
	MaxTokens   int // --max-num-batched-tokens; 0 = the device default
	MaxModelLen int // --max-model-len
	Cache       VLLMCache
}

// VLLMResult is what vLLM would log and whether it would start.
type VLLMResult struct {
	Engine         string
	Utilization    float64
	MaxNumSeqs     int
	MaxTokens      int
	BudgetGiB      float64 // utilization × total
	WeightsGiB     float64
	ActivationGiB  float64
	NonTorchGiB    float64
	KVCacheGiB     float64 // "Available KV cache memory"; negative = short by that much
	KVBlocks       int64
	KVCacheTokens  int64   // "GPU KV cache size: N tokens" (every layer charged at full size)
	MaxConcurrency float64 // "Maximum concurrency for MaxModelLen tokens per request: X×"
	NeededGiB      float64 // KV one request of MaxModelLen needs (the start-up check)
	Starts         bool
	MaxModelLen    int    // the longest --max-model-len that would start (when !Starts; 0 = none)
	Reason         string // why it would not start, in vLLM's words
}

// VLLMDefaultLimits are vLLM's default --max-num-seqs and --max-num-batched-tokens for a device
// of totalGiB named device (an A100 is small whatever its memory).
func VLLMDefaultLimits(totalGiB float64, device string) (seqs, tokens int) {
	if totalGiB >= vllmLargeDeviceGiB && !strings.Contains(strings.ToLower(device), "a100") {
		return vllmLargeMaxNumSeqs, vllmLargeMaxBatchedTokens
	}
	return vllmSmallMaxNumSeqs, vllmSmallMaxBatchedTokens
}

// VLLMActivationGiB is the profile run's activation peak: the fitted multiples of the sampler's
// fp32 logits and the forward pass's bf16 hidden states.
func VLLMActivationGiB(seqs, tokens, vocab, hidden int) float64 {
	logits, states := VLLMActivationTerms(seqs, tokens, vocab, hidden)
	return VLLMActLogitFactor*logits + VLLMActHiddenFactor*states
}

// VLLMActivationTerms are the two sizes the activation peak is a multiple of, in GiB: the fp32
// logits of the dummy sampler batch (vLLM samples min(max_num_seqs, max_num_batched_tokens)
// rows) and the bf16 hidden states of the dummy forward pass. The calibration fits the
// multiples on these same terms.
func VLLMActivationTerms(seqs, tokens, vocab, hidden int) (logits, states float64) {
	rows := min(seqs, tokens)
	logits = float64(rows) * float64(vocab) * 4 / gib
	states = float64(tokens) * float64(hidden) * 2 / gib
	return logits, states
}

// VLLMNonTorch is the non-torch memory per device for a tensor-parallel size.
func VLLMNonTorch(tp int) float64 {
	if tp > 1 {
		return VLLMNonTorchTPGiB
	}
	return VLLMNonTorchGiB
}

// normalized fills in vLLM's defaults.
func (in VLLMInput) normalized() VLLMInput {
	if in.Utilization == 0 {
		in.Utilization = VLLMDefaultUtilization
	}
	in.TP = max(1, in.TP)
	s, t := VLLMDefaultLimits(in.TotalGiB, in.Device)
	if in.MaxNumSeqs == 0 {
		in.MaxNumSeqs = s
	}
	if in.MaxTokens == 0 {
		in.MaxTokens = t
	}
	return in
}

// VLLM models one start-up of vLLM's V1 engine.
func VLLM(in VLLMInput) VLLMResult {
	in = in.normalized()
	r := VLLMResult{
		Engine: VLLMEngine, Utilization: in.Utilization, MaxNumSeqs: in.MaxNumSeqs, MaxTokens: in.MaxTokens,
		BudgetGiB:     in.Utilization * in.TotalGiB,
		WeightsGiB:    in.WeightsGiB,
		ActivationGiB: VLLMActivationGiB(in.MaxNumSeqs, in.MaxTokens, in.Vocab, in.Hidden),
		NonTorchGiB:   VLLMNonTorch(in.TP),
	}
	r.KVCacheGiB = r.BudgetGiB - r.WeightsGiB - r.ActivationGiB - r.NonTorchGiB
	r.layout(in)
	r.noUtilizationHelps(in.TotalGiB)
	return r
}

// noUtilizationHelps replaces vLLM's advice to raise gpu_memory_utilization where no utilization
// can help: weights beyond the device fail to load (CUDA out of memory, before any KV cache is
// sized), and weights, activation and non-torch memory beyond it leave nothing even at 1.
func (r *VLLMResult) noUtilizationHelps(totalGiB float64) {
	if r.Starts || r.KVCacheGiB > 0 {
		return
	}
	const fix = "; more devices (a larger tensor-parallel size) or a smaller weight format would"
	switch used := r.WeightsGiB + r.ActivationGiB + r.NonTorchGiB; {
	case r.WeightsGiB > totalGiB:
		r.Reason = "CUDA out of memory while loading the weights: " + gib2(r.WeightsGiB) + " GiB per device, more than the device's " +
			gib2(totalGiB) + " GiB" + fix + "."
	case used >= totalGiB:
		r.Reason = "No available memory for the cache blocks. The weights " + gib2(r.WeightsGiB) + " + activation " +
			gib2(r.ActivationGiB) + " + non-torch " + gib2(r.NonTorchGiB) + " GiB exceed the device's " + gib2(totalGiB) +
			" GiB at any gpu_memory_utilization" + fix + "."
	}
}

// VLLMLayout is what vLLM does with kvGiB of available KV memory (as it logs it): blocks,
// tokens, concurrency and the start-up check, without the budget arithmetic.
func VLLMLayout(in VLLMInput, kvGiB float64) VLLMResult {
	in = in.normalized()
	r := VLLMResult{Engine: VLLMEngine, Utilization: in.Utilization, MaxNumSeqs: in.MaxNumSeqs, MaxTokens: in.MaxTokens, KVCacheGiB: kvGiB}
	r.layout(in)
	return r
}

// layout turns the available KV memory into vLLM's blocks, tokens and concurrency, and runs
// vLLM's start-up check.
func (r *VLLMResult) layout(in VLLMInput) {
	g := newVLLMGroups(in)
	avail := r.KVCacheGiB * gib
	if avail > 0 && g.page > 0 {
		r.KVBlocks = ceilFloor(math.Floor(avail / g.page / float64(g.size))) // capped: a tiny custom model's page is tiny
		r.KVCacheTokens = r.KVBlocks / int64(g.count) * int64(g.tokenBlock())
		r.MaxConcurrency = float64(r.KVBlocks) / float64(g.requestBlocks(in.MaxModelLen))
		if g.state > 0 && in.MaxModelLen > 0 {
			// a hybrid's pool in tokens as the logged hybrid start-up (vLLM 0.24) reports it: the
			// concurrency × max_model_len (blocks ÷ groups × block would count the state groups' blocks)
			r.KVCacheTokens = int64(math.Floor(r.MaxConcurrency * float64(in.MaxModelLen)))
		}
	}
	needed := g.needed(in.MaxModelLen)
	r.NeededGiB = needed / gib
	switch {
	case avail <= 0:
		r.Reason = "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine."
	case needed > avail:
		r.MaxModelLen = g.longest(avail, in.MaxModelLen)
		r.Reason = "To serve at least one request with the model's max seq len (" + itoa(in.MaxModelLen) + "), (" +
			gib2(r.NeededGiB) + " GiB KV cache is needed, which is larger than the available KV cache memory (" +
			gib2(r.KVCacheGiB) + " GiB)."
		if r.MaxModelLen > 0 {
			r.Reason += " Based on the available memory, the estimated maximum model length is " + itoa(r.MaxModelLen) + "."
		}
		r.Reason += " Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
	default:
		r.Starts = true
	}
}

// gib2 prints GiB as vLLM does (two decimals).
func gib2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
