package target

import "sync"

// Fields is the one table of the Target's fields, in the order links spell them. Everything
// else is derived from it: the permalink and API query codec (query.go), the validation and
// its messages (validate.go), the command line's flags and help (cmd/fitclaim), the bridge's
// typed decoding and its fields() export (wasm/bridge), and the README's permalink table and
// docs/CONTRACT.md (target/docs, `go generate ./target/...`).
//
// To add a field:
//  1. add it to the Target struct (target.go);
//  2. add one row here: Name (camelCase, as in JSON and the bridge), Key (short, unique, for
//     links; never reuse or rename a published key), Flag (kebab-case), Arg, Label (how the
//     page and the error messages name it), Unit, Default (as a link spells it; "" = the zero
//     value), Derived (what the zero value means, if it is derived), Help, the allowed values
//     (Min/Max/ZeroOK for numbers, MaxLen/Choices/Form for text; Choices owned by package fit
//     come through Provide in fit's init), and the one accessor (str, number, integer, boolean);
//  3. a rule that ties it to other fields goes in validate.go; its physics in package fit;
//  4. run `go generate ./target/...` and commit the regenerated README.md and docs/CONTRACT.md
//     (TestDocsCurrent fails until you do).
//
// Fields a newer fitclaim adds must default to what older links meant, so old links keep
// working without a format-version bump.
var Fields = []Field{
	{Name: "model", Key: "m", Arg: "MODEL", Label: "Model", MaxLen: MaxModelQuery,
		Help:    "a catalog name: exact, case-insensitive, the whole name after the publisher's slash (the most downloaded of several), a unique substring, or its Hugging Face address",
		Derived: "none",
		str:     func(t *Target) *string { return &t.Model }},
	{Name: "paramsB", Key: "p", Flag: "params", Arg: "B", Label: "Parameters", Unit: "billion parameters", Max: MaxParamsB, ZeroOK: true,
		Help:    "a custom model's parameters, instead of a catalog model",
		Derived: "none",
		number:  func(t *Target) *float64 { return &t.ParamsB }},
	{Name: "quant", Key: "q", Flag: "quant", Arg: "Q", Label: "Quantization", Open: true, MaxLen: 64,
		Help: "quantization", Derived: "the model's own",
		str: func(t *Target) *string { return &t.Quant }},
	{Name: "minTps", Key: "tps", Flag: "min-tps", Arg: "N", Label: "Target decode speed", Unit: "tokens/s", Max: MaxMinTps, Default: "20",
		Help:   "target decode speed, tokens/s per sequence",
		number: func(t *Target) *float64 { return &t.MinTps }},
	// Absent (0) and 55 differ: llmfit's arithmetic uses 55 either way, but in the KV-aware mode a
	// given efficiency, 55 included, overrides the calibrated one, and absent keeps it.
	{Name: "efficiencyPct", Key: "eff", Flag: "efficiency", Arg: "N", Label: "Bandwidth efficiency", Unit: "percent", Min: 1, Max: 100, ZeroOK: true, ZeroAbsent: true,
		Help:    "share of memory bandwidth reached; kv: given, it overrides the calibrated efficiency of the device family",
		Derived: "llmfit's 55; kv: the device family's calibrated efficiency",
		integer: func(t *Target) *int { return &t.EfficiencyPct }},
	{Name: "template", Key: "tpl", Flag: "template", Label: "Template",
		Help:    "write a ResourceClaimTemplate instead of a ResourceClaim",
		boolean: func(t *Target) *bool { return &t.Template }},
	{Name: "name", Key: "name", Flag: "name", Arg: "N", Label: "Claim name", MaxLen: 253, Form: FormSubdomain,
		Help: "claim name (a DNS-1123 subdomain)", Derived: "derived from the model",
		str: func(t *Target) *string { return &t.Name }},
	{Name: "deviceClass", Key: "dc", Flag: "device-class", Arg: "C", Label: "Device class", MaxLen: 253, Form: FormSubdomain,
		Help: "DeviceClass name (a DNS-1123 subdomain)", Derived: "the driver's",
		str: func(t *Target) *string { return &t.DeviceClass }},
	{Name: "sizing", Key: "s", Flag: "sizing", Arg: "S", Label: "Sizing mode", Default: SizingLlmfit, MaxLen: 16,
		Choices: sync.OnceValue(func() []string { return []string{SizingLlmfit, SizingKV} }), // made once and shared, as Provide's: callers only read it
		Help:    "llmfit's arithmetic, or kv: weights + KV cache + the engine's reserve",
		str:     func(t *Target) *string { return &t.Sizing }},
	{Name: "context", KVOnly: true, Key: "ctx", Flag: "context", Arg: "N", Label: "Context", Unit: "tokens", Min: 1, Max: MaxContext, ZeroOK: true,
		Help: "kv: context tokens per sequence", Derived: "the model's, capped as llmfit caps it",
		integer: func(t *Target) *int { return &t.Context }},
	{Name: "sequences", KVOnly: true, Key: "seq", Flag: "sequences", Arg: "N", Label: "Concurrent sequences", Min: 1, Max: MaxSequences, Default: "1",
		Help:    "kv: concurrent sequences",
		integer: func(t *Target) *int { return &t.Sequences }},
	// bf16: issue 11 names the 16-bit cache "fp16/bf16"; both are 2 bytes an element, and the
	// engines' own 16-bit cache (vLLM's auto) is the model's dtype, so bf16 reads as fp16.
	{Name: "kvCache", KVOnly: true, Key: "kv", Flag: "kv-cache", Arg: "T", Label: "KV cache type", Default: "fp16", MaxLen: 16,
		Aliases: [][2]string{{"bf16", "fp16"}},
		Help:    "kv: KV-cache element type (bf16 is read as fp16: the same 2 bytes an element)",
		str:     func(t *Target) *string { return &t.KVCache }},
	{Name: "driver", Key: "drv", Flag: "driver", Arg: "D", Label: "DRA driver", Default: "llmfit", MaxLen: 16,
		Help: "the DRA driver family the claim targets",
		str:  func(t *Target) *string { return &t.Driver }},
	{Name: "count", Key: "n", Flag: "count", Arg: "N", Label: "Devices", Unit: "devices", Min: 1, Max: MaxCount, Default: "1",
		Help:    "devices to split the model over",
		integer: func(t *Target) *int { return &t.Count }},
	{Name: "layers", KVOnly: true, Key: "L", Flag: "layers", Arg: "N", Label: "Layers", Min: 1, Max: MaxLayers, ZeroOK: true,
		Help: "a custom model's layers; kv: overrides a catalog model's", Derived: "the model's, else unknown",
		integer: func(t *Target) *int { return &t.Layers }},
	{Name: "kvHeads", KVOnly: true, Key: "kvh", Flag: "kv-heads", Arg: "N", Label: "KV heads", Min: 1, Max: MaxKVHeads, ZeroOK: true,
		Help: "a custom model's key/value heads; kv: overrides a catalog model's", Derived: "the model's, else unknown",
		integer: func(t *Target) *int { return &t.KVHeads }},
	{Name: "headDim", KVOnly: true, Key: "hd", Flag: "head-dim", Arg: "N", Label: "Head dimension", Min: 1, Max: MaxHeadDim, ZeroOK: true,
		Help: "a custom model's head dimension; kv: overrides a catalog model's", Derived: "the model's, else unknown",
		integer: func(t *Target) *int { return &t.HeadDim }},
	{Name: "activeParamsB", Key: "ap", Flag: "active-params", Arg: "B", Label: "Active parameters", Unit: "billion parameters", Max: MaxParamsB, ZeroOK: true,
		Help: "a custom mixture-of-experts model's active parameters", Derived: "all of them",
		number: func(t *Target) *float64 { return &t.ActiveParamsB }},
	{Name: "on", Device: true, Key: "on", Flag: "on", Arg: "NAME", Label: "Device", MaxLen: 128,
		Help: "estimate: a catalog accelerator, by id, name or the productName NVIDIA's driver publishes (any case)", Derived: "none: the device is given by its numbers",
		str: func(t *Target) *string { return &t.On }},
	{Name: "memoryGiB", Device: true, Key: "memory", Flag: "memory", Arg: "GiB", Label: "Device memory", Unit: "GiB", Max: MaxDeviceMemoryGiB, ZeroOK: true,
		Help: "estimate: one device's memory as its driver or OS reports it; with engine vllm, the total CUDA reports, as vLLM logs it (an H100 80GB: 79.18)", Derived: "none",
		number: func(t *Target) *float64 { return &t.MemoryGiB }},
	{Name: "bandwidthGBs", Device: true, Key: "bandwidth", Flag: "bandwidth", Arg: "GBs", Label: "Device bandwidth", Unit: "GB/s", Max: MaxDeviceBandwidthGBs, ZeroOK: true,
		Help: "estimate: one device's memory bandwidth", Derived: "none",
		number: func(t *Target) *float64 { return &t.BandwidthGBs }},
	{Name: "family", Device: true, Key: "family", Flag: "family", Arg: "F", Label: "Device family", Open: true, MaxLen: 32,
		Help: "estimate: the device's speed family", Derived: "none",
		str: func(t *Target) *string { return &t.Family }},
	{Name: "unified", Device: true, Key: "unified", Flag: "unified", Label: "Unified memory",
		Help:    "estimate: the device's memory is shared with the CPU",
		boolean: func(t *Target) *bool { return &t.Unified }},
	{Name: "engine", KVOnly: true, Key: "engine", Flag: "engine", Arg: "E", Label: "Serving engine", MaxLen: 16, ZeroOK: true,
		Choices: sync.OnceValue(Engines),
		Help:    "the server: deploy runs it; with vllm the estimate and a kv claim size for vLLM's own budget (utilization, activation peak, CUDA graphs)",
		Derived: "deploy: vllm; estimate and claim: the llama.cpp-style reserve",
		str:     func(t *Target) *string { return &t.Engine }},
	{Name: "image", Deploy: true, Key: "image", Flag: "image", Arg: "I", Label: "Container image", MaxLen: 512, Form: FormImage,
		Help: "deploy: the container image, instead of the engine's pinned one", Derived: "the engine's pinned image",
		str: func(t *Target) *string { return &t.Image }},
	{Name: "attention", KVOnly: true, Key: "att", Flag: "attention", Arg: "K", Label: "Attention kind", MaxLen: 16,
		Help: "kv: gqa, mha, mqa, mla (one latent per layer), hybrid (only the full-attention layers cache) or csa (DeepSeek-V4: a window per layer, one entry per 4 or 128 tokens)", Derived: "the model's",
		str: func(t *Target) *string { return &t.Attention }},
	{Name: "slidingWindow", KVOnly: true, Key: "sw", Flag: "sliding-window", Arg: "N", Label: "Sliding window", Unit: "tokens", Min: 1, Max: MaxContext, ZeroOK: true,
		Help: "kv: tokens a sliding-window layer keeps", Derived: "the model's",
		integer: func(t *Target) *int { return &t.SlidingWindow }},
	{Name: "slidingLayers", KVOnly: true, Key: "sl", Flag: "sliding-layers", Arg: "N", Label: "Sliding-window layers", Unit: "layers", Min: 1, Max: MaxLayers, ZeroOK: true,
		Help: "kv: layers that use the sliding window", Derived: "the model's",
		integer: func(t *Target) *int { return &t.SlidingLayers }},
	{Name: "fullAttentionLayers", KVOnly: true, Key: "fal", Flag: "full-attention-layers", Arg: "N", Label: "Full-attention layers", Unit: "layers", Min: 1, Max: MaxLayers, ZeroOK: true,
		Help: "kv: a hybrid model's layers that keep a per-token KV cache", Derived: "the model's",
		integer: func(t *Target) *int { return &t.FullAttentionLayers }},
	{Name: "csaLayers", KVOnly: true, Key: "csal", Flag: "csa-layers", Arg: "N", Label: "CSA layers", Unit: "layers", Min: 1, Max: MaxLayers, ZeroOK: true,
		Help: "kv: a csa model's layers that keep one entry (and an indexer key) per 4 tokens", Derived: "the model's",
		integer: func(t *Target) *int { return &t.CSALayers }},
	{Name: "hcaLayers", KVOnly: true, Key: "hcal", Flag: "hca-layers", Arg: "N", Label: "HCA layers", Unit: "layers", Min: 1, Max: MaxLayers, ZeroOK: true,
		Help: "kv: a csa model's layers that keep one entry per 128 tokens", Derived: "the model's",
		integer: func(t *Target) *int { return &t.HCALayers }},
	{Name: "kvLoraRank", KVOnly: true, Key: "klr", Flag: "kv-lora-rank", Arg: "N", Label: "MLA latent rank", Min: 1, Max: MaxLatent, ZeroOK: true,
		Help: "kv: an MLA model's compressed KV latent (kv_lora_rank)", Derived: "the model's",
		integer: func(t *Target) *int { return &t.KVLoraRank }},
	{Name: "qkRopeHeadDim", KVOnly: true, Key: "qkr", Flag: "qk-rope-head-dim", Arg: "N", Label: "MLA RoPE key dimension", Min: 1, Max: MaxLatent, ZeroOK: true,
		Help: "kv: an MLA model's decoupled RoPE key (qk_rope_head_dim)", Derived: "the model's",
		integer: func(t *Target) *int { return &t.QKRopeHeadDim }},
	{Name: "experts", KVOnly: true, Key: "ne", Flag: "experts", Arg: "N", Label: "Experts", Unit: "experts", Min: 1, Max: MaxExperts, ZeroOK: true,
		Help: "kv: routed experts (splits a mixed release format between experts and the rest)", Derived: "the model's",
		integer: func(t *Target) *int { return &t.Experts }},
	{Name: "expertsPerToken", KVOnly: true, Key: "nept", Flag: "experts-per-token", Arg: "N", Label: "Experts per token", Unit: "experts", Min: 1, Max: MaxExperts, ZeroOK: true,
		Help: "kv: routed experts active per token", Derived: "the model's",
		integer: func(t *Target) *int { return &t.ExpertsPerToken }},
	{Name: "gpuMemoryUtilization", KVOnly: true, Key: "gmu", Flag: "gpu-memory-utilization", Arg: "U", Label: "GPU memory utilization", Unit: "share of each device", Max: 1, ZeroOK: true,
		Help: "vllm: --gpu-memory-utilization, the share of each device vLLM budgets", Derived: "vLLM's 0.9",
		number: func(t *Target) *float64 { return &t.GPUMemoryUtilization }},
	{Name: "maxNumSeqs", KVOnly: true, Key: "mns", Flag: "max-num-seqs", Arg: "N", Label: "vLLM max sequences", Unit: "sequences", Min: 1, Max: MaxNumSeqs, ZeroOK: true,
		Help: "vllm: --max-num-seqs", Derived: "vLLM's default for the device: 1024 on 70 GiB or more (not A100), else 256",
		integer: func(t *Target) *int { return &t.MaxNumSeqs }},
	{Name: "maxNumBatchedTokens", KVOnly: true, Key: "mbt", Flag: "max-num-batched-tokens", Arg: "N", Label: "vLLM max batched tokens", Unit: "tokens", Min: 1, Max: MaxContext, ZeroOK: true,
		Help: "vllm: --max-num-batched-tokens", Derived: "vLLM's default for the device: 8192 on 70 GiB or more (not A100), else 2048",
		integer: func(t *Target) *int { return &t.MaxNumBatchedTokens }},
	{Name: "capacityRequest", Key: "cap", Flag: "capacity-request", Label: "Request memory as capacity",
		Help:    "ask each device's memory floor as capacity.requests.memory (KEP-5075, DRAConsumableCapacity: on by default since Kubernetes 1.36), so a shared device (allowMultipleAllocations) gives the claim a share that big, not its requestPolicy default; where the gate is off the API server drops the request",
		boolean: func(t *Target) *bool { return &t.CapacityRequest }},
	{Name: "capacityName", Key: "capn", Flag: "capacity-name", Arg: "N", Label: "Memory capacity name", MaxLen: 16, ZeroOK: true, Derived: "memory",
		Choices: sync.OnceValue(CapacityNames),
		Help:    "with capacityRequest: the name the request gives the devices' memory, as their driver publishes it: memory, or qualified (<the driver's domain>/memory, each alternative its own); the allocator takes a device only if it publishes the name asked",
		str:     func(t *Target) *string { return &t.CapacityName }},
	// Off by default: on, vLLM imports and runs the Python files a model repository ships
	// (config.json's auto_map) in the pod; fitclaim cannot know which repositories need it.
	{Name: "trustRemoteCode", Deploy: true, Key: "trc", Flag: "trust-remote-code", Label: "Trust remote code",
		Help:    "deploy, vllm: --trust-remote-code: vLLM runs the Python code the model's repository ships (its config.json auto_map), which a model transformers does not know needs; only for a repository you trust (llama.cpp runs no code from it)",
		boolean: func(t *Target) *bool { return &t.TrustRemoteCode }},
	{Name: "cpuRequest", Deploy: true, Key: "cpu", Flag: "cpu-request", Arg: "Q", Label: "CPU request", MaxLen: 32, Form: FormQuantity,
		Help: "deploy: the container's resources.requests.cpu, a Kubernetes quantity (8, 500m); with none, and no memory request, the pod is BestEffort", Derived: "none",
		str: func(t *Target) *string { return &t.CPURequest }},
	{Name: "memoryRequest", Deploy: true, Key: "mem", Flag: "memory-request", Arg: "Q", Label: "Memory request", MaxLen: 32, Form: FormQuantity,
		Help: "deploy: the container's resources.requests.memory, a Kubernetes quantity (64Gi); host memory for loading the weights and serving, besides the devices'", Derived: "none",
		str: func(t *Target) *string { return &t.MemoryRequest }},
}
