package fit

import (
	"github.com/fitclaim/fitclaim/target"
	"math"
	"strconv"
	"strings"
)

// The reverse questions of the vLLM model: how much memory a device needs for vLLM to start
// and hold n requests of l tokens (the claim's floor), and which vLLM arguments make a claimed
// device do it (the deploy helper's flags).

// VLLMFloorGiB is the per-device memory (as CUDA counts it) vLLM needs to hold sequences
// requests of context tokens at once: weights, activation peak, non-torch memory and that KV
// pool must fit the budget, a utilization's share of the device, and the CUDA-graph capture
// the share left outside it (vllmDeviceGiB). With no device given (TotalGiB 0) and no limits,
// the large-device limits are assumed: they make the larger activation peak.
func VLLMFloorGiB(in VLLMInput, context, sequences int) float64 {
	if in.TotalGiB == 0 {
		in.TotalGiB = vllmLargeDeviceGiB
	}
	in.MaxModelLen = context
	in = in.normalized()
	g := newVLLMGroups(in)
	act := VLLMActivationGiB(in.MaxNumSeqs, in.MaxTokens, in.Vocab, in.Hidden)
	need := in.WeightsGiB + act + VLLMNonTorch(in.TP) + g.poolBytes(sequences, context)/gib
	return vllmDeviceGiB(need, in.Utilization)
}

// vllmDeviceGiB is the device, as CUDA counts it, on which vLLM's budget holds need GiB at
// utilization u and its CUDA graphs fit beside the budget. vLLM's V1 worker
// (vllm/v1/worker/gpu_worker.py, read at an early commit, 0012cf69, and a late-2025 one,
// 35d5cda1, between which the data's v0.10–v0.11 start-ups lie) sizes the KV cache to fill the
// budget — available KV = u × total − weights − activation peak − non-torch memory
// (determine_available_memory), and it starts when that holds a request of --max-model-len —
// then captures the CUDA graphs after allocating it (compile_or_warm_up_model; "memory_profiling
// does not consider CUDAGraph memory size"), in the (1 − u) × total outside the budget. So
// total ≥ need / u and (1 − u) × total ≥ VLLMCUDAGraphGiB; the first binds unless the budget is
// under ~10 GiB at 0.9. data/vllm-train.tsv agrees: llmd-08 (Qwen3-32B, one H100 of 79.18 GiB,
// 0.9) started and held 1.14 requests of 16,000 tokens, where need / u + 1.12 GiB, the floor
// before, asked 79.65. At u = 1 nothing is outside the budget; the graphs are added on top.
func vllmDeviceGiB(need, u float64) float64 {
	if u >= 1 {
		return need/u + VLLMCUDAGraphGiB
	}
	return math.Max(need/u, VLLMCUDAGraphGiB/(1-u))
}

// VLLMPlan is the vLLM arguments for a deployment and what vLLM does with them.
type VLLMPlan struct {
	OK          bool    // vLLM starts and holds the requested requests at the requested context
	Utilization float64 // --gpu-memory-utilization
	MaxModelLen int     // --max-model-len
	MaxNumSeqs  int     // --max-num-seqs
	Result      VLLMResult
	Requests    int    // requests of MaxModelLen tokens vLLM holds at once (at most MaxNumSeqs)
	Summary     string // "vLLM starts: N requests of L tokens at once", or why it does not start
	Fix         string // when !OK: what would make it work
}

// PlanVLLM picks --gpu-memory-utilization, --max-model-len (= context) and --max-num-seqs
// (= sequences) for in's device and tensor-parallel size: vLLM's default utilization when it
// is enough, else the least that is, never above what leaves the CUDA-graph capture room on
// the device. A utilization or a --max-num-seqs the input already gives is kept (the user's
// choice), and the plan says what vLLM does with it. When the requests do not fit it says so
// and proposes a fix.
func PlanVLLM(in VLLMInput, context, sequences int) VLLMPlan {
	given := in.Utilization
	in.MaxModelLen = context
	if in.MaxNumSeqs == 0 {
		in.MaxNumSeqs = sequences
	}
	in.Utilization = 0
	in = in.normalized()
	if in.MaxTokens < in.MaxNumSeqs { // vLLM wants max_num_batched_tokens ≥ max_num_seqs
		in.MaxTokens = in.MaxNumSeqs
	}
	p := VLLMPlan{MaxModelLen: context, MaxNumSeqs: in.MaxNumSeqs}
	top := vllmTopUtilization(in.TotalGiB)
	in.Utilization = VLLMDefaultUtilization
	if need := vllmNeedShare(in, context, sequences); need > VLLMDefaultUtilization {
		in.Utilization = min(top, math.Ceil(need*100-1e-9)/100)
	}
	in.Utilization = max(0.01, in.Utilization)
	if given > 0 {
		in.Utilization = given
	}
	p.Utilization = in.Utilization
	p.Result = VLLM(in)
	if p.Result.Starts {
		p.Requests = min(in.MaxNumSeqs, int(math.Floor(p.Result.MaxConcurrency+1e-9)))
	}
	p.OK = p.Result.Starts && p.Requests >= sequences
	p.Summary = vllmSummary(p)
	if !p.OK {
		p.Fix = vllmFix(in, context, sequences, top)
		if need := vllmNeedShare(in, context, sequences); given > 0 && need <= top {
			u := max(VLLMDefaultUtilization, math.Ceil(need*100-1e-9)/100)
			p.Fix = vllmCannot(in, context, sequences) + "; it would with --gpu-memory-utilization " + ftoa(u)
		}
	}
	return p
}

// vllmTopUtilization is the highest utilization (in hundredths) that leaves the CUDA-graph
// headroom outside the budget.
func vllmTopUtilization(total float64) float64 {
	if !(total > 0) {
		return 0
	}
	return math.Max(0, math.Floor((total-VLLMCUDAGraphGiB)/total*100)/100)
}

// vllmNeedShare is the share of the device vLLM's budget must be for the pool.
func vllmNeedShare(in VLLMInput, context, sequences int) float64 {
	g := newVLLMGroups(in)
	act := VLLMActivationGiB(in.MaxNumSeqs, in.MaxTokens, in.Vocab, in.Hidden)
	return (in.WeightsGiB + act + VLLMNonTorch(in.TP) + g.poolBytes(sequences, context)/gib) / in.TotalGiB
}

func vllmFits(in VLLMInput, context, sequences int, top float64) bool {
	return vllmNeedShare(in, context, sequences) <= top
}

func vllmSummary(p VLLMPlan) string {
	r := p.Result
	if !r.Starts {
		return "vLLM does not start: " + r.Reason
	}
	return "vLLM starts: " + plural(p.Requests, "request") + " of " + itoa(p.MaxModelLen) + " tokens at once"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}

// vllmFix proposes what would hold the requests: more devices (tensor parallel, the weights
// split evenly), an fp8 KV cache, a shorter context, fewer requests at once.
func vllmFix(in VLLMInput, context, sequences int, top float64) string {
	var fixes []string
	for tp := in.TP * 2; tp <= target.MaxCount; tp *= 2 {
		more := in
		more.TP, more.WeightsGiB = tp, in.WeightsGiB*float64(in.TP)/float64(tp)
		if vllmFits(more, context, sequences, vllmTopUtilization(in.TotalGiB)) {
			fixes = append(fixes, itoa(tp)+" devices (--tensor-parallel-size "+itoa(tp)+")")
			break
		}
	}
	if in.Cache.ElemBytes > 1 {
		fp8 := in
		fp8.Cache.ElemBytes = 1
		if vllmFits(fp8, context, sequences, top) {
			fixes = append(fixes, "an fp8 KV cache (--kv-cache-dtype fp8)")
		}
	}
	if l := vllmLongest(func(l int) bool { return vllmFits(in, l, sequences, top) }, context); l > 0 {
		fixes = append(fixes, "a context of "+itoa(l)+" tokens (--max-model-len "+itoa(l)+")")
	}
	fewer := func(n int) bool {
		in := in
		in.MaxNumSeqs = n // fewer sequences also sample fewer logits in the profile run
		return vllmFits(in, context, n, top)
	}
	if n := vllmLongest(fewer, sequences); n > 0 {
		fixes = append(fixes, plural(n, "request")+" at once (--max-num-seqs "+itoa(n)+")")
	}
	head := vllmCannot(in, context, sequences)
	if len(fixes) == 0 {
		return head + ", and neither more devices, an fp8 KV cache, a shorter context nor fewer requests would: use larger devices"
	}
	return head + "; it would with " + strings.Join(fixes, ", or ")
}

// vllmLongest is the largest n in 1..limit-1 with ok(n) (ok grows false with n); 0 if none.
func vllmLongest(ok func(int) bool, limit int) int {
	return int(largestAbove(0, int64(limit-1), func(n int64) bool { return ok(int(n)) }))
}

// VLLMFloor is the parts of the claim's memory floor under vLLM, per device.
type VLLMFloor struct {
	WeightsGiB, ActivationGiB, NonTorchGiB, KVGiB float64 // what vLLM's budget must hold
	Utilization                                   float64 // the budget's share of the device
	CUDAGraphGiB                                  float64 // outside the budget, within the floor
	ShortfallGiB                                  float64 // the driver's figure above CUDA's
	Graphs                                        string  // the graphs' name on the claim's vendor (runtime_words.go; "" = CUDA's)
}

// GiB is the floor in the driver's GiB: the device on which the budget holds its needs and the
// CUDA graphs fit beside it (vllmDeviceGiB), plus the driver's shortfall.
func (f VLLMFloor) GiB() float64 {
	return vllmDeviceGiB(f.WeightsGiB+f.ActivationGiB+f.NonTorchGiB+f.KVGiB, f.Utilization) + f.ShortfallGiB
}

// vllmClaimFloor sizes the claim for VLLMFloorGiB at the target's context and sequences on Count
// devices, with the large-device limits unless the target gives them (no device is known yet,
// and they make the larger activation peak).
func vllmClaimFloor(b *Bounds) VLLMFloor {
	in := VLLMInputFor(b, vllmLargeDeviceGiB, "").normalized()
	return VLLMFloor{
		WeightsGiB: in.WeightsGiB, ActivationGiB: VLLMActivationGiB(in.MaxNumSeqs, in.MaxTokens, in.Vocab, in.Hidden),
		NonTorchGiB: VLLMNonTorch(in.TP), KVGiB: newVLLMGroups(in).poolBytes(b.Target.Sequences, b.ContextTokens) / gib,
		Utilization: in.Utilization, CUDAGraphGiB: VLLMCUDAGraphGiB, ShortfallGiB: VLLMDriverShortfallGiB,
		Graphs: runtimeOf(b).Graphs,
	}
}

// vllmEngineFloor is vLLM's entry in the engines table: the claim's floor (vllmClaimFloor) and
// the words for the header's memory line, whose reserve is everything beyond the weights and
// the KV cache the header shows (kvGiB, this device's share of the kv line's cache).
func vllmEngineFloor(b *Bounds, weightsGiB, kvGiB float64) (float64, string) {
	return vllmReserve(vllmClaimFloor(b), weightsGiB, kvGiB)
}

// vllmReserve is the floor of f holding at least kvGiB of KV cache, and its reserve in words.
// vLLM's pool (f.KVGiB) is whole blocks, so it is at least the cache the kv line sizes; where
// vLLM's model of the pool leaves a part of that cache out, the floor still holds all of it
// (the pool is raised to kvGiB), so the reserve, mem − weights − KV cache, is never negative
// and each of its terms is at least 0: the activation peak, the non-torch memory, the share
// outside --gpu-memory-utilization (need / u − need, or the CUDA graphs at u = 1), the blocks'
// rounding beyond the cache, and the driver's shortfall. (A pool the model left smaller than
// the kv line printed "+ -0.84 outside --gpu-memory-utilization" for Qwen3.6-35B-A3B-FP8 at
// 131,072 tokens × 64 sequences, whose recurrent state the pool did not hold.)
func vllmReserve(f VLLMFloor, weightsGiB, kvGiB float64) (float64, string) {
	f.KVGiB = max(f.KVGiB, kvGiB)
	mem := f.GiB()
	need := f.WeightsGiB + f.ActivationGiB + f.NonTorchGiB + f.KVGiB
	device := vllmDeviceGiB(need, f.Utilization)
	outside, left := device-need, 0.0
	// Where the CUDA graphs' room sets the device (CUDAGraphGiB / (1 − u) above need / u: small
	// models, or a utilization near 1), only device × (1 − u) is outside the budget; the rest is
	// budget the needs leave, which vLLM gives to KV blocks. (Qwen3-1.7B printed "1.45 outside
	// --gpu-memory-utilization 0.9" on an 11.20 GiB device, whose 10 % is 1.12.)
	if f.Utilization < 1 {
		if l := device*f.Utilization - need; l >= 0.005 {
			outside, left = device*(1-f.Utilization), l
		}
	}
	if f.Graphs == "" {
		f.Graphs = runtimeCUDA.Graphs
	}
	words := twoDecimals(mem-weightsGiB-kvGiB) + " GiB for " + VLLMEngine + ": " + twoDecimals(f.ActivationGiB) +
		" activation peak + " + twoDecimals(f.NonTorchGiB) + " non-torch + " + twoDecimals(outside) +
		" outside --gpu-memory-utilization " + ftoa(f.Utilization) + " (vLLM's " + f.Graphs + ", ≤ " + twoDecimals(f.CUDAGraphGiB) + ")"
	if left > 0 {
		words += " + " + twoDecimals(left) + " budget left to KV blocks (" + twoDecimals(device) +
			" GiB is the least device that leaves the " + f.Graphs + " their room)"
	}
	if blocks := f.KVGiB - kvGiB; blocks >= 0.005 {
		words += " + " + twoDecimals(blocks) + " KV blocks beyond the cache"
	}
	return mem, words + " + " + twoDecimals(f.ShortfallGiB) + " the driver keeps"
}

func twoDecimals(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// PlanVLLMForClaim plans vLLM on the smallest device a claim with floor memoryGi admits: a
// driver figure of memoryGi Gi, which CUDA counts VLLMDriverShortfallGiB lower.
func PlanVLLMForClaim(b *Bounds, memoryGi int64) VLLMPlan {
	in := VLLMInputFor(b, float64(memoryGi)-VLLMDriverShortfallGiB, "")
	return PlanVLLM(in, b.ContextTokens, b.Target.Sequences)
}

func vllmCannot(in VLLMInput, context, sequences int) string {
	return "vLLM cannot hold " + plural(sequences, "request") + " of " + itoa(context) + " tokens on " +
		itoa(in.TP) + " × " + strconv.FormatFloat(in.TotalGiB, 'f', 2, 64) + " GiB"
}
