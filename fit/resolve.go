package fit

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Bounds is what a device (or each of Count devices) must offer for the target, and the numbers
// that explain it.
type Bounds struct {
	Target target.Target // the target as resolved: canonical quant, defaults applied
	Model  catalog.Model // the catalog entry, or a synthesized one for a custom model
	Custom bool
	// ModelAsked and ModelOthers: the target named the model without its publisher, and the name
	// is the whole repository name of several catalog models; Model is the most downloaded of
	// them and ModelOthers the rest (catalog.Resolve). Both are empty otherwise.
	ModelAsked  string
	ModelOthers []string

	Quant         string // canonical spelling
	QuantOverride bool   // differs from the entry's own quantization
	BytesPerParam float64
	ParamsB       float64 // total parameters, billions
	ActiveParamsB float64 // parameters read per token (mixture-of-experts: the active experts)
	ParamsFrom    string  // kv mode: where ParamsB came from when not the catalog entry's own (params.go)
	// WeightsRule is, in kv mode, the rule that sized a GGUF file ggufFormats' per-parameter figure
	// does not (a width not a multiple of 256: gguf_widths.go); "" = that figure.
	WeightsRule string
	WeightsGB   float64 // ParamsB × BytesPerParam (llmfit's GB = 10^9 bytes), + KeptHeadB's bytes
	// KeptHeadB is, in kv mode, the parameters (billions) a GGUF file converted from the
	// repository holds beyond ParamsB: a tied LM head's stored copy (gguf_kept_head.go); resident,
	// not read per token.
	KeptHeadB float64
	ActiveGB  float64 // ActiveParamsB × BytesPerParam

	// The floors, per device when Count > 1.
	MemoryGB float64 // before the ceiling: GB in llmfit mode (written as Gi, as llmfit does), GiB in kv mode
	// MemoryMi is the floor a device's memory must meet, in MiB (memfloor.go): in kv mode MemoryGB
	// rounded up to the MiB, in llmfit mode MemoryGi × 1024. MemoryGi is it rounded up to whole Gi
	// (llmfit mode: llmfit's floor itself).
	MemoryMi        int64
	MemoryGi        int64
	MinBandwidthGBs int64

	// KV-cache sizing (Sizing == "kv"); KVTokensRoom is filled in both modes.
	ContextTokens int
	KVCache       string
	KVBytes       float64 // all sequences, all devices
	// KVReadBytes is what one decoded step reads of that cache, all sequences, all devices: all of
	// it, but for DeepSeek-V4's compressed attention (Architecture.KVReadBytes)
	KVReadBytes  float64
	KVEstimated  bool    // the shape is unknown: llmfit's per-parameter estimate
	OverheadGiB  float64 // kv mode: the engine's reserve per device
	KVTokensRoom int64   // llmfit mode: fp16 KV tokens the memory floor leaves room for

	// The KV-aware mode's facts (Sizing == "kv").
	Arch       Architecture // the shape the KV cache was sized on, with its source and overrides
	MaxContext int          // the model's real maximum context (0: unknown)
	Format     WeightFormat // the weights' format (Quant is its Name)
	Engine     string       // the engine whose reserve is in the memory floor
	Reserve    string       // that reserve in words

	ReadGBPerToken float64 // bytes read per decoded token, in GB, over all devices

	// EfficiencyGiven: the target gave efficiencyPct (Target.EfficiencyPct is then that value, and
	// llmfit's 55 when it was absent).
	EfficiencyGiven bool

	// The calibrated speed model behind the KV-aware floor (speedfloor.go).
	SpeedEfficiency      float64 // the efficiency the floor assumes
	SpeedFamily          string  // the family it is calibrated for; "" = efficiencyPct overrides
	SpeedOverheadSeconds float64 // t0, + the MoE layers' time for a mixture of experts (TokenOverheadSeconds)
	RoutedLayers         int     // the layers whose MoE time it counts: Arch.Layers less the dense ones (moelayers.go); 0 = unknown
	CommSeconds          float64 // per token between Count devices (not calibrated)

	// The floor behind the NVIDIA productName allow-list (Products), per device: the claim's own
	// (MinBandwidthGBs, SpeedEfficiency, SpeedFamily) except for driver any in the KV-aware mode,
	// whose NVIDIA alternative assumes NVIDIA's calibrated efficiency (speedfloor.go, kvFloors).
	NVIDIAMinBandwidthGBs int64
	NVIDIASpeedEfficiency float64
	NVIDIASpeedFamily     string

	Driver      Driver
	DeviceClass string   // the class requested (for "any": the first alternative's)
	Products    []string // NVIDIA productName allow-list (driver nvidia and any)
}

const (
	weightsHeadroom  = 1.2   // llmfit's WEIGHTS_HEADROOM on a quant override
	runtimeOverhead  = 0.5   // GiB, llmfit's fit estimate
	kvFallbackGBPerB = 8e-06 // llmfit: KV GB ≈ 0.000008 × params_b × context
	multiDeviceScale = 0.9   // N devices give N × 0.9 of one device's bandwidth
	gib              = 1 << 30
)

// Resolve computes the bounds of a target. Errors are *FieldError.
func Resolve(t target.Target) (Bounds, error) {
	if err := t.Validate(); err != nil {
		return Bounds{}, err
	}
	b := Bounds{}
	if err := b.resolveModel(&t); err != nil {
		return Bounds{}, err
	}
	return b.resolve(t)
}

// ResolveEntry computes the bounds of a target for a given catalog entry instead of looking
// t.Model up (llmfit's unit-test fixture is not in the catalog).
func ResolveEntry(t target.Target, m catalog.Model) (Bounds, error) {
	t.Model = m.Name
	if err := t.Validate(); err != nil {
		return Bounds{}, err
	}
	b := Bounds{}
	b.useEntry(&t, &m)
	return b.resolve(t)
}

func (b Bounds) resolve(t target.Target) (Bounds, error) {
	if err := b.resolveQuant(&t); err != nil {
		return Bounds{}, err
	}
	b.Driver, _ = driverByName(t.Driver)
	b.DeviceClass = b.Driver.Domain
	if t.Driver == DriverAny {
		b.DeviceClass = AnyAlternatives()[0].Domain
		if t.DeviceClass != "" {
			return Bounds{}, fieldErr("deviceClass", "cannot be set with driver any, which names one class per alternative")
		}
	}
	if t.DeviceClass != "" {
		b.DeviceClass = t.DeviceClass
	}
	if t.Sizing == target.SizingKV {
		b.Arch = archOverride(&t).Apply(b.Arch)
		if err := b.Arch.checkOverridden(); err != nil {
			return Bounds{}, err
		}
		b.MaxContext = b.Arch.MaxContext
		b.Engine = LookupEngine(t.Engine).Name
	}
	b.kvShape(&t) // before b.Target = t: it writes the canonical KV-cache spelling into t
	// An absent efficiency is llmfit's 55 in the resolved target (its header and JSON print it);
	// EfficiencyGiven keeps whether it was asked for, which the KV-aware floor reads (speedfloor.go).
	b.EfficiencyGiven = t.EfficiencyPct != 0
	if !b.EfficiencyGiven {
		t.EfficiencyPct = DefaultEfficiencyPct
	}
	b.Target = t

	b.WeightsGB = b.ParamsB * b.BytesPerParam
	if b.KeptHeadB > 0 {
		b.WeightsGB = b.residentWeightBytes() / 1e9
	}
	if !(b.WeightsGB > 0) {
		return Bounds{}, fieldErr("model", "cannot size model "+strconv.Quote(b.Model.Name)+" (unknown parameter count)")
	}
	b.ActiveGB = b.ActiveParamsB * b.BytesPerParam
	if t.Sizing == target.SizingKV {
		b.sizeKV(t.Count)
		if t.MinTps >= b.maxReachableTps() {
			return Bounds{}, b.unreachableErr()
		}
	} else {
		b.sizeLlmfit(t.Count)
	}
	b.KVTokensRoom = b.kvTokensRoom()
	if err := b.resolveProducts(); err != nil {
		return Bounds{}, err
	}
	return b, nil
}

func (b *Bounds) resolveModel(t *target.Target) error {
	if t.Model == "" {
		b.Custom = true
		b.ParamsB = t.ParamsB
		b.Model = catalog.Model{
			Name:           "custom " + ftoa(t.ParamsB) + "B",
			ParameterCount: ftoa(t.ParamsB) + "B",
			ParametersRaw:  int64(math.Round(t.ParamsB * 1e9)),
			Quantization:   DefaultQuantCustom,
			Layers:         t.Layers, KVHeads: t.KVHeads, HeadDim: t.HeadDim,
			MoE:              t.ActiveParamsB != 0 && t.ActiveParamsB < t.ParamsB,
			ActiveParameters: int64(math.Round(t.ActiveParamsB * 1e9)),
		}
		b.Arch = Architecture{Source: SourceEstimated}
		if b.Model.HasArchitecture() {
			b.Arch = Architecture{Layers: t.Layers, KVHeads: t.KVHeads, HeadDim: t.HeadDim, Source: SourceGiven}
		}
		b.ActiveParamsB = t.ParamsB
		if t.ActiveParamsB != 0 {
			b.ActiveParamsB = t.ActiveParamsB
		}
		return nil
	}
	m, others, err := catalog.Resolve(t.Model)
	if len(others) > 0 {
		b.ModelAsked, b.ModelOthers = t.Model, others
	}
	if err != nil {
		if nf, ok := errors.AsType[*catalog.NotFoundError](err); ok && len(nf.Suggestions) == 0 {
			return fieldErr("model", err.Error()+"; or give "+deviceField("paramsB").Ref()+" for a model that is not in the catalog")
		}
		return fieldErr("model", err.Error())
	}
	b.useEntry(t, m)
	return nil
}

func (b *Bounds) useEntry(t *target.Target, m *catalog.Model) {
	b.Model = *m
	b.Arch = ArchitectureOf(m)
	t.Model = m.Name
	b.ParamsB = paramsB(m)
	b.ActiveParamsB = b.ParamsB
	if t.Sizing == target.SizingKV { // the release's real count (params.go); llmfit mode keeps the catalog's
		p := ReleaseParamsOf(m)
		b.ParamsB, b.ActiveParamsB, b.Arch.RoutedParamsB, b.ParamsFrom = p.TotalB, p.ActiveB, p.RoutedB, p.From
		b.withoutVLLMMTP(t, m) // vllm_mtp.go
		return
	}
	if m.MoE && m.ActiveParameters > 0 {
		b.ActiveParamsB = float64(m.ActiveParameters) / 1e9
	} else if a := ActiveFromName(m.Name, b.ParamsB); a > 0 {
		b.ActiveParamsB = a // a mixture of experts the catalog does not mark: its name says (Kimi-Linear-48B-A3B)
	}
}

// ParamsB is a catalog entry's parameter count in billions (see paramsB).
func ParamsB(m *catalog.Model) float64 { return paramsB(m) }

// paramsB is parameters_raw / 1e9, else llmfit's parse of parameter_count ("7.0B", "494M").
// Unlike llmfit it does not fall back to 7.0: an unknown count is 0 and Resolve says so.
func paramsB(m *catalog.Model) float64 {
	if m.ParametersRaw > 0 {
		return float64(m.ParametersRaw) / 1e9
	}
	s := strings.ToUpper(strings.TrimSpace(m.ParameterCount))
	scale := map[byte]float64{'T': 1e3, 'B': 1, 'M': 1e-3, 'K': 1e-6}
	if len(s) < 2 {
		return 0
	}
	mult, ok := scale[s[len(s)-1]]
	if !ok {
		return 0
	}
	x, err := strconv.ParseFloat(s[:len(s)-1], 64)
	if err != nil || !(x > 0) {
		return 0
	}
	return x * mult
}

func (b *Bounds) resolveQuant(t *target.Target) error {
	own := b.Model.Quantization
	kv := t.Sizing == target.SizingKV
	if kv && !b.Custom {
		b.Format = ReleaseFormat(&b.Model) // kv mode: the model's own is its repository's format
		own = b.Format.Name
	}
	switch {
	case t.Quant == "":
		b.Quant = own
	default:
		if name, _, ok := canonicalQuant(t.Quant); ok {
			b.Quant = name
		} else if name, _, ok := servingBPP(t.Quant); ok {
			b.Quant = name
		} else if strings.EqualFold(t.Quant, own) {
			b.Quant = own // the entry's own out-of-table quant (AutoRound-4bit, "MXFP4 experts + BF16")
		} else if strings.EqualFold(t.Quant, b.Model.Quantization) {
			b.Quant = b.Model.Quantization // kv mode: llmfit's AutoRound-4bit
		} else {
			return fieldErr("quant", "unknown quantization "+strconv.Quote(t.Quant)+"; known: "+strings.Join(Quants(), ", "))
		}
	}
	t.Quant = b.Quant
	b.QuantOverride = b.Custom || b.Quant != own
	if !kv {
		b.BytesPerParam = BytesPerParam(b.Quant)
		return nil
	}
	if b.Quant != b.Format.Name {
		b.Format = WeightFormat{Name: b.Quant, Rest: b.Quant}
	}
	b.BytesPerParam = b.Format.BytesPerParam(b.ParamsB, b.ActiveParamsB, EmbeddingParamsB(b.Model.Vocabulary(), b.Model.Width()), &b.Arch)
	if b.Format.Experts == "" && !b.Custom {
		if bytes, rule, ok := ggufWidthBytes(b.Format.Rest, b.ParamsB*1e9, &b.Model, &b.Arch); ok {
			b.BytesPerParam, b.WeightsRule = bytes/(b.ParamsB*1e9), rule
		}
		if b.KeptHeadB = ggufKeptHeadB(b.Format.Rest, &b.Model, b.Arch.Base, b.ParamsB); b.KeptHeadB > 0 {
			b.WeightsRule = keptHeadWords(b.Format.Rest, b.KeptHeadB)
		}
	}
	return nil
}

// sizeLlmfit is llmfit's claim arithmetic, in llmfit's operation order (REFERENCE §1).
func (b *Bounds) sizeLlmfit(count int) {
	t := &b.Target
	mem := b.WeightsGB * weightsHeadroom
	if !b.QuantOverride {
		floor := b.Model.MinVRAMGB
		if !b.Model.HasMinVRAM {
			floor = b.Model.MinRAMGB
		}
		mem = math.Max(floor, b.WeightsGB)
	}
	bw := ((t.MinTps * b.WeightsGB) * 100) / float64(t.EfficiencyPct)
	b.ReadGBPerToken = b.WeightsGB
	b.split(mem, bw, count)
	b.NVIDIAMinBandwidthGBs = b.MinBandwidthGBs // one floor for every alternative
}

// sizeKV sizes weights plus a real KV cache plus the engine's reserve, per device (engine.go);
// the bandwidth floor is the calibrated speed model inverted (speedfloor.go): decode reads the
// weights a token touches and the whole KV cache once per token, as the engine's split times it
// (split.go: all of it for llama.cpp's devices in turn, each device's share under vLLM).
func (b *Bounds) sizeKV(count int) {
	weightsBytes := b.residentWeightBytes()
	e := LookupEngine(b.Engine)
	// each device's KV cache: its layers' under llama.cpp, its KV heads' under vLLM (split.go)
	perWeights, perKV := weightsBytes/float64(count)/gib, b.KVBytes*b.KVDeviceShare(count)/gib
	mem, reserve := e.floor(b, perWeights, perKV)
	b.OverheadGiB, b.Reserve = mem-perWeights-perKV, reserve
	read := b.readBytesPerToken()
	b.ReadGBPerToken = read / 1e9
	b.RoutedLayers = b.Arch.Layers
	if !b.Custom {
		b.RoutedLayers = RoutedLayersOf(&b.Model, b.Arch.Layers)
	}
	b.SpeedOverheadSeconds, b.CommSeconds = TokenOverheadSeconds(b.isMoE(), b.RoutedLayers, b.ParamsB), commSeconds(count)
	b.MemoryGB = mem
	b.setMemoryFloor(mem, true)
	b.kvFloors(b.timedReadBytes(count))
}

// split turns whole-model floors into per-device ones.
func (b *Bounds) split(mem, bw float64, count int) {
	b.MemoryGB = mem / float64(count)
	b.setMemoryFloor(b.MemoryGB, false)
	b.MinBandwidthGBs = perDeviceBandwidth(bw, count)
}

func perDeviceBandwidth(bw float64, count int) int64 {
	if count > 1 {
		bw /= float64(count) * multiDeviceScale
	}
	return ceilFloor(bw)
}

// maxFloor caps every floor (Gi, GB/s, tokens). The largest inputs the limits allow (100 T
// parameters, 1,000 layers × 1,024 KV heads × 4,096 head dim, 2^24 tokens × 4,096 sequences at
// 100,000 tok/s and 1 %) ask about 1.2e19 GB/s, past int64, and converting an out-of-range float
// to int64 is implementation-defined in Go (amd64 gives -2^63, a negative floor). 2^53 is exact in
// float64 and far above any device, so a capped floor still matches nothing.
const maxFloor = 1 << 53

// ceilFloor is ceil(x) as an int64, capped at maxFloor.
func ceilFloor(x float64) int64 {
	if !(x < maxFloor) {
		return maxFloor
	}
	return int64(math.Ceil(x))
}

// kvShape fills the KV-cache size for the target's context and sequences. llmfit mode keeps
// llmfit's fields; the KV-aware mode sizes per layer kind on the resolved architecture.
func (b *Bounds) kvShape(t *target.Target) {
	name, elem, _ := kvElementBytes(t.KVCache)
	b.KVCache, t.KVCache = name, name
	ctx := t.Context
	if ctx == 0 {
		ctx = b.Model.ContextLength
		if t.Sizing == target.SizingKV {
			ctx = b.MaxContext
		}
		if ctx <= 0 || ctx > DefaultContextCap {
			ctx = DefaultContextCap
		}
	}
	b.ContextTokens = ctx
	if t.Sizing == target.SizingKV {
		if !b.Arch.CachesKV() {
			b.Arch.Source = SourceEstimated
			b.KVEstimated = true
		}
		b.KVBytes = b.KVBytesAt(int64(ctx), int64(t.Sequences))
		b.KVReadBytes = b.KVBytes
		// llama.cpp runs DeepSeek sparse attention by masking the dense attention's KQ mask
		// (ggml-org/llama.cpp#23346): it reads every latent, so its read stays the whole cache.
		if b.Arch.CachesKV() && !(b.Engine == target.EngineLlamaCpp && b.Arch.sparseMLA()) {
			// a hybrid's state as the engine keeps it (vllm_state.go), read whole every step
			read := b.Arch.KVReadBytes(ctx, elem)
			if b.Engine == target.EngineVLLM && b.Arch.sparseMLA() {
				read = b.Arch.dsaReadBytes(float64(ctx), vllmDSALatentBytes(&b.Arch, elem)) // fp8_ds_mla at fp8
			}
			perSeq := read - b.Arch.RecurrentStateBytes() + b.SequenceStateBytes()
			b.KVReadBytes = perSeq * float64(t.Sequences)
		}
		return
	}
	b.KVBytes = b.kvBytesPerToken(elem) * float64(ctx) * float64(t.Sequences)
	b.KVReadBytes = b.KVBytes
	b.KVEstimated = !b.Model.HasArchitecture()
}

// kvBytesPerToken is 2 (K and V) × layers × KV heads × head size × element bytes, or llmfit's
// estimate of 0.000008 GB per billion parameters per token, taken as fp16 and scaled to the
// element size.
func (b *Bounds) kvBytesPerToken(elem float64) float64 {
	m := &b.Model
	if m.HasArchitecture() {
		return 2 * float64(m.Layers) * float64(m.KVHeads) * float64(m.HeadDim) * elem
	}
	return kvFallbackGBPerB * b.ParamsB * 1e9 * elem / 2
}

// kvTokensRoom says how many fp16 KV-cache tokens fit in the memory floor beside the weights and
// the runtime overhead: what llmfit's "KV/runtime headroom" really buys. The cache is the one the
// KV-aware sizing counts (per layer kind on the verified architecture, kvcache.go) where it is
// known: llmfit's per-parameter estimate, 64,240 B a token for Llama-3.1-8B, said 2,712 tokens
// where its 131,072 B a token leave 1,329. A cache that stops growing (every layer a sliding
// window) has room for any context a target can ask: target.MaxContext.
func (b *Bounds) kvTokensRoom() int64 {
	room := float64(b.MemoryMi)*float64(b.Target.Count)*(1<<20) - b.residentWeightBytes() - runtimeOverhead*gib*float64(b.Target.Count)
	if room <= 0 {
		return 0
	}
	if b.Arch.CachesKV() {
		fits := func(c int64) bool { return b.Arch.KVCacheBytes(int(c), 2) <= room }
		// most caches grow by the same bytes a token (a hybrid's state aside): the answer from
		// the first two tokens, checked, is a render's answer without a bisection's 24 steps
		one, two := b.Arch.KVCacheBytes(1, 2), b.Arch.KVCacheBytes(2, 2)
		if per := two - one; per > 0 {
			if n := math.Floor((room - one + per) / per); n >= 1 && n < target.MaxContext && fits(int64(n)) && !fits(int64(n)+1) {
				return int64(n)
			}
		}
		return largestFitting(target.MaxContext, fits)
	}
	perToken := b.kvBytesPerToken(2)
	if perToken <= 0 {
		return 0
	}
	if n := room / perToken; !(n < maxFloor) { // a tiny custom model (paramsB 1e-300) leaves room for ~1e304 tokens
		return maxFloor
	}
	return int64(room / perToken)
}
