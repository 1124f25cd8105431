package fit

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/target"
)

// The reverse question under vLLM: the verdict uses vLLM's own budget (utilization, activation
// peak, non-torch memory, CUDA-graph headroom) instead of the llama.cpp-style reserve, and
// says whether vLLM starts, with how much KV cache and how many requests at once.

// isVLLM reports whether a target runs vLLM (the table accepts the name in any case).
func isVLLM(t *target.Target) bool { return strings.EqualFold(t.Engine, target.EngineVLLM) }

// EstimateVLLM judges a target on t.Count devices (the tensor-parallel size) running vLLM
// with the target's vLLM arguments (EstimateOn calls it for engine vllm).
// A device given by numbers has MemoryGiB = the total as CUDA reports it (what vLLM logs; an
// H100 80GB shows 79.18 GiB); a catalog device (On) is converted from its driver figure by
// VLLMTotalGiB. Fits compares the memory floor (VLLMFloorGiB) with the device; the VLLM result
// says whether vLLM starts with --max-model-len = the context. Errors are *FieldError.
func EstimateVLLM(t target.Target, d Device) (Estimate, error) {
	t.Sizing, t.Engine = target.SizingKV, target.EngineVLLM
	e, err := resolveEstimate(t, d)
	if err != nil {
		return Estimate{}, err
	}
	b, dev, name := e.Bounds, e.Device, e.DeviceName
	if dev.Family == FamilyApple {
		return Estimate{}, deviceField("engine").Err(VLLMEngine + " has no Apple GPU (Metal) backend: " +
			name + " runs the model with engine llama.cpp (or MLX)")
	}
	total := dev.MemoryGiB
	if dev.On != "" {
		a, _ := LookupAccelerator(dev.On)
		total = VLLMTotalGiB(&a)
	}
	in := VLLMInputFor(&b, total, name)
	r := VLLM(in)
	r.refuse(&b)
	e.Engine, e.VLLM = VLLMEngine, &r

	n := float64(e.Count)
	seqs, ctx := b.Target.Sequences, b.ContextTokens
	floor := VLLMFloorGiB(in, ctx, seqs)
	e.NeedGiB, e.UsableGiB = floor*n, total*n
	e.ReserveGiB = e.NeedGiB - e.WeightsGiB - e.KVGiB // activation, non-torch, the utilization's margin, CUDA graphs
	e.Fits = e.NeedGiB <= e.UsableGiB
	fitsAt := func(c, s int64) bool { return VLLMFloorGiB(in, int(c), int(s)) <= total }
	e.MaxContextTokens = largestFitting(contextLimit(&b), func(c int64) bool { return fitsAt(c, int64(seqs)) })
	e.MaxSequences = largestFitting(target.MaxSequences, func(s int64) bool { return fitsAt(int64(ctx), s) })
	e.TokensPerSecond, e.Reason = 0, ""
	if e.Fits {
		e.TokensPerSecond = e.decodeSpeed()
	} else {
		e.Reason = e.vllmReason(floor, total)
	}
	return e, nil
}

func (e *Estimate) vllmReason(floor, total float64) string {
	b := &e.Bounds
	r := e.VLLM
	rt := RuntimeFor(e.Device.Family)
	d := GiBDecimals(floor, total) // "needs 79.65 … gives 79.65" would hide why it does not fit
	s := "vLLM needs " + strconv.FormatFloat(floor, 'f', d, 64) + " GiB per device (weights " + gibText(r.WeightsGiB) + " + activation " +
		gibText(r.ActivationGiB) + " + non-torch " + gibText(r.NonTorchGiB) + " + KV cache for " + itoa(b.ContextTokens) +
		" tokens × " + SequencesText(b.Target.Sequences) + ", over --gpu-memory-utilization " +
		strconv.FormatFloat(r.Utilization, 'f', -1, 64) + ", with room beside it for " + gibText(VLLMCUDAGraphGiB) +
		" GiB of " + rt.Graphs + ") but " + e.DeviceName + " gives " + strconv.FormatFloat(total, 'f', d, 64) + " GiB as " + rt.Name + " counts it"
	if e.MaxContextTokens > 0 {
		s += "; at most " + strconv.FormatInt(e.MaxContextTokens, 10) + " tokens of context fit for " + SequencesText(b.Target.Sequences)
	}
	return s
}

// VLLMPaddingNote says, for vLLM and MXFP4 weights, that vLLM loads more than the checkpoint these
// figures count; "" otherwise. vLLM pads MXFP4 expert matrices to its kernels' tiles
// (vllm/model_executor/layers/quantization/mxfp4.py, Mxfp4MoEMethod.create_weights: Marlin,
// before Hopper, rounds the hidden size up to 256 and each device's expert width to 128; the
// Blackwell FlashInfer kernels round both to 256; Hopper's Triton kernels pad in their layout).
// data/vllm-train.tsv: llmd-01 loaded gpt-oss-20b as 13.47 GiB on an H100 against a 12.82 GiB
// checkpoint (× 1.067 on the experts: 2,880 → 3,072 in one dimension), dl-01 gpt-oss-120b as
// 4 × 17.22 = 68.9 GiB on four A100s against 60.77 (Marlin: 2,880 → 3,072 and 720 → 768 a device,
// × 1.138). How much depends on the device and the vLLM version, so it is said, not added.
func VLLMPaddingNote(b *Bounds) string {
	if b.Engine != target.EngineVLLM || (b.Format.Experts != "MXFP4" && b.Format.Rest != "MXFP4") {
		return ""
	}
	return "vLLM pads MXFP4 expert matrices to its kernels' tiles and loads 5–13 % more than the checkpoint " +
		"(gpt-oss-20b: 13.47 GiB on an H100 against 12.82; gpt-oss-120b: 68.9 GiB on 4 A100s against 60.77); " +
		"these weights are the checkpoint's"
}
