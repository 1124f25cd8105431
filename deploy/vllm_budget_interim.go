package deploy

import (
	"math"

	"github.com/fitclaim/fitclaim/fit"
)

// ---------------------------------------------------------------------------------------------
// INTERIM. This file stands in for vLLM's own memory budget, which helper `vllm` is modelling
// (issue 13: activation peak, non-torch memory, CUDA-graph headroom, KV blocks). When that lands
// on main, vllmBudget is replaced by a call to it and this file is deleted; nothing else in the
// package depends on how the numbers below are reached.
//
// The interim rule, stated so a reviewer can check it by hand:
//   - utilization U = 0.90, vLLM's own default for --gpu-memory-utilization;
//   - the device is the smallest the claim admits: M = the claim's memory floor, in GiB;
//   - vLLM's KV pool per device = U × M − weights per device − 0.5 GiB, the runtime overhead
//     fitclaim's kv sizing charges (standing in for vLLM's activation peak and non-torch memory);
//   - a request of L tokens needs L × (KV bytes per token) / count per device (KV heads are split
//     over the tensor-parallel devices);
//   - vLLM starts when the pool holds one request of --max-model-len tokens, and holds
//     floor(pool / per-request) of them at once.
// ---------------------------------------------------------------------------------------------

// interimUtilization is vLLM's default --gpu-memory-utilization.
const interimUtilization = 0.90

// interimReserveGiB is fit's runtime overhead of the kv sizing (0.5 GiB).
const interimReserveGiB = 0.5

const gib = 1 << 30

// budget is what the engine model answers: the three flags and whether vLLM starts with them.
type budget struct {
	Utilization float64 // --gpu-memory-utilization
	MaxModelLen int     // --max-model-len
	MaxNumSeqs  int     // --max-num-seqs
	KVPoolGiB   float64 // vLLM's KV pool per device ("Available KV cache memory")
	Concurrency int     // requests of MaxModelLen tokens held at once
	Starts      bool
	LongestLen  int      // when it does not start: the longest context that would (0: none)
	Explain     []string // header lines: how the numbers were reached
}

// vllmBudget is the interim model described above.
func vllmBudget(b *fit.Bounds) budget {
	t := &b.Target
	n := float64(t.Count)
	m := float64(b.MemoryGi)
	weights := b.WeightsGB * 1e9 / n / gib
	pool := interimUtilization*m - weights - interimReserveGiB
	perToken := b.KVBytes / float64(b.ContextTokens) / float64(t.Sequences) / n / gib // GiB per token per device
	perRequest := perToken * float64(b.ContextTokens)
	out := budget{Utilization: interimUtilization, MaxModelLen: b.ContextTokens, MaxNumSeqs: t.Sequences, KVPoolGiB: pool}
	if pool > 0 && perRequest > 0 {
		out.Concurrency = int(math.Min(math.Floor(pool/perRequest), 1<<30))
		out.LongestLen = int(math.Min(math.Floor(pool/perToken), fit.MaxContext))
	}
	out.Starts = out.Concurrency >= 1
	out.Explain = []string{
		"budget: interim, until fitclaim models vLLM's own budget (issue 13): --gpu-memory-utilization " +
			twoDecimals(interimUtilization) + " (vLLM's default) of the smallest device the claim admits (" +
			itoa64(b.MemoryGi) + " Gi) = " + twoDecimals(interimUtilization*m) + " GiB; KV pool = that − " +
			twoDecimals(weights) + " GiB weights − " + oneDecimal(interimReserveGiB) + " GiB runtime = " + twoDecimals(pool) + " GiB per device",
	}
	return out
}
