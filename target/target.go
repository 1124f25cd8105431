// Package target is what a user asks of fitclaim, in every spelling: the Target type and the one
// table of its fields (fields.go), from which the permalink and API query codec, the command
// line's flags and help, the bridge's typed decoding, the field errors and the generated docs
// are derived. It sits above package fit (catalog → target → fit → claim) and is pure Go.
package target

// Target is everything a user can ask for. Default gives llmfit's defaults; a zero value means
// "derive it" where the table says so (Quant: the entry's own; Name: from the model;
// DeviceClass: the driver's; Context: the model's; the architecture: unknown).
type Target struct {
	Model         string  // catalog name (exact, case-insensitive, the name after the slash, or a unique substring)
	ParamsB       float64 // a model that is not in the catalog: billions of parameters
	Quant         string
	MinTps        float64
	EfficiencyPct int
	Template      bool
	// CapacityRequest asks, per device, the model's memory as capacity.requests.memory
	// (KEP-5075): on a shared device (allowMultipleAllocations) the share is then that big, not
	// the capacity's requestPolicy default. Off by default: a claim without it is the claim
	// older fitclaims wrote, valid where DRAConsumableCapacity is off.
	CapacityRequest bool
	// CapacityName is how the request names the devices' memory: "" or "memory" (CapacityPlain,
	// as the drivers publish it) or "qualified" ("<the alternative's driver domain>/memory"). The
	// allocator matches a request's names to a device's capacities as spelled.
	CapacityName string
	Name         string
	DeviceClass  string

	Sizing    string // "llmfit" (parity) or "kv"
	Context   int    // kv: tokens; 0 = the entry's context length capped at fit.DefaultContextCap
	Sequences int    // kv: concurrent sequences
	KVCache   string // kv: element type
	Driver    string // llmfit, nvidia, amd, intel, any
	Count     int    // devices the model is split across

	// Architecture of a custom model (ParamsB), or, in the KV-aware mode, overrides of a catalog
	// model's (layers, KV heads, head size); zero = unknown, or the catalog's.
	Layers        int
	KVHeads       int
	HeadDim       int
	ActiveParamsB float64

	// The hardware of the reverse question (fitclaim estimate, /api/v1/estimate.json, the page's
	// hardware mode): a catalog accelerator, or one device given by its numbers; zero = none.
	On           string
	MemoryGiB    float64 // one device's memory as its driver or OS reports it (engine vllm: as CUDA does)
	BandwidthGBs float64
	Family       string // a speed family of package fit
	Unified      bool   // memory shared with the CPU
	// What a Deployment runs (package deploy) and the engine whose budget sizes the estimate and a
	// kv claim: "" = vLLM for a Deployment, the llama.cpp-style reserve for the estimate and the
	// claim. Image replaces the engine's pinned container image ("" = the pinned one).
	Engine string
	Image  string
	// More architecture for the KV-aware mode, catalog and custom models alike (fit/kvcache.go);
	// zero = the catalog's, or none.
	Attention           string // gqa, mha, mqa, mla, hybrid, csa
	SlidingWindow       int    // tokens a windowed layer keeps
	SlidingLayers       int    // layers that use the window
	FullAttentionLayers int    // hybrid: the layers that keep a per-token cache
	CSALayers           int    // csa: layers that keep one entry per 4 tokens
	HCALayers           int    // csa: layers that keep one entry per 128 tokens
	KVLoraRank          int    // MLA: the compressed KV latent
	QKRopeHeadDim       int    // MLA: the decoupled RoPE key
	Experts             int    // routed experts
	ExpertsPerToken     int    // routed experts active per token

	// vLLM's arguments (0 = vLLM's defaults).
	GPUMemoryUtilization float64
	MaxNumSeqs           int
	MaxNumBatchedTokens  int

	// What else a Deployment's pod is given (package deploy): vLLM's --trust-remote-code (off:
	// vLLM runs no Python a model repository ships), and the container's CPU and memory requests
	// as Kubernetes quantities ("" = none: the pod is BestEffort, as before they existed).
	TrustRemoteCode bool
	CPURequest      string
	MemoryRequest   string
}

// The spellings of the capacity a capacity request names.
const (
	CapacityPlain     = "memory"
	CapacityQualified = "qualified"
)

// CapacityNames lists the spellings, the default first.
func CapacityNames() []string { return []string{CapacityPlain, CapacityQualified} }

// The serving engines a Deployment can run.
const (
	EngineVLLM     = "vllm"
	EngineLlamaCpp = "llama.cpp"
)

// Engines lists the serving engines, the default first.
func Engines() []string { return []string{EngineVLLM, EngineLlamaCpp} }

// The sizing modes.
const (
	SizingLlmfit = "llmfit" // llmfit's arithmetic, byte for byte
	SizingKV     = "kv"     // weights + KV cache + runtime overhead
)

// Limits of the inputs, as the table declares them; they keep every product of them far inside
// float64 and int64. MaxCount is also the most devices fit's matching tries.
const (
	MaxMinTps     = 100000
	MaxParamsB    = 100000 // 100 T parameters
	MaxContext    = 1 << 24
	MaxSequences  = 4096
	MaxCount      = 8
	MaxLayers     = 1000
	MaxKVHeads    = 1024
	MaxHeadDim    = 4096
	MaxLatent     = 65536 // MLA latent and RoPE key widths
	MaxExperts    = 4096
	MaxModelQuery = 300

	MaxDeviceMemoryGiB    = 1 << 20 // 1 PiB
	MaxDeviceBandwidthGBs = 1000000
	MaxNumSeqs            = 1 << 16 // vLLM's --max-num-seqs, far above any device's pool
)

// Default is llmfit's default target with no model chosen: every field at its table default.
func Default() Target { return defaults }

var defaults = buildDefaults()

func buildDefaults() Target {
	var t Target
	for i := range Fields {
		f := &Fields[i]
		if f.Default != "" {
			if err := f.Set(&t, f.Default); err != nil {
				panic("target: the default of " + f.Name + " does not parse: " + err.Error())
			}
		}
	}
	return t
}
