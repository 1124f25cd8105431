package deploy

import (
	"strconv"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// vllmDevice is the device the vLLM flags are planned for: the smallest the claim admits, where
// vLLM has the least room (a utilization is a share of the device, so a larger one only gets a
// larger KV pool, and the CUDA-graph headroom outside the budget weighs most on the smallest).
// NVIDIA's claim admits only its allow-listed products, so it is the smallest of those; the
// other drivers admit any device with the floor's memory, so it is a device of exactly the
// floor, as CUDA sees it (the driver's figure less fit.VLLMDriverShortfallGiB).
func vllmDevice(b *fit.Bounds, matches []fit.Match) (totalGiB float64, name, words string) {
	if b.Driver.Name == fit.DriverNVIDIA {
		best := -1
		for i := range matches {
			m := &matches[i]
			if m.Selected && (best < 0 || m.Accelerator.MemoryMiB < matches[best].Accelerator.MemoryMiB) {
				best = i
			}
		}
		if best >= 0 {
			a := matches[best].Accelerator
			t := fit.VLLMTotalGiB(a)
			return t, a.Name, "the smallest device the claim admits, " + a.Name + " (" + twoDecimals(t) + " GiB as CUDA sees it)" // NVIDIA only
		}
	}
	t := float64(b.MemoryMi)/1024 - fit.VLLMDriverShortfallGiB // the floor to the MiB (fit/memfloor.go)
	return t, "", "a device of exactly the claim's " + b.MemoryFloorText() + " (" + twoDecimals(t) + " GiB as " + fit.RuntimeFor(b.Driver.Vendor).Name + " sees it)"
}

// vllmBudget plans vLLM's flags with fit's model of its engine (fit.PlanVLLM) on that device and
// explains the plan in vLLM's own terms. extra holds --max-num-batched-tokens when the plan
// needs more than the device's default (vLLM refuses fewer batched tokens than sequences).
func vllmBudget(b *fit.Bounds, matches []fit.Match) (p fit.VLLMPlan, lines, extra []string) {
	total, device, words := vllmDevice(b, matches)
	in := fit.VLLMInputFor(b, total, device)
	t := &b.Target
	p = fit.PlanVLLM(in, b.ContextTokens, t.Sequences) // keeps a utilization or max-num-seqs the target gives
	r := &p.Result
	if _, tokens := fit.VLLMDefaultLimits(total, device); r.MaxTokens != tokens || t.MaxNumBatchedTokens > 0 {
		extra = []string{"--max-num-batched-tokens", itoa(r.MaxTokens)}
	}
	lines = []string{
		"budget: " + r.Engine + " on " + words + ": --gpu-memory-utilization " + utilization(t, &p) + " × " +
			twoDecimals(total) + " GiB = " + twoDecimals(r.BudgetGiB) + " GiB; − " + twoDecimals(r.WeightsGiB) + " GiB weights − " +
			twoDecimals(r.ActivationGiB) + " GiB activation peak (" + itoa(r.MaxTokens) + " batched tokens) − " +
			twoDecimals(r.NonTorchGiB) + " GiB non-torch = " + twoDecimals(r.KVCacheGiB) + " GiB KV cache per device; " + fit.RuntimeFor(b.Driver.Vendor).Graphs + " (≤ " +
			twoDecimals(fit.VLLMCUDAGraphGiB) + " GiB) outside the budget",
	}
	if r.Starts {
		lines = append(lines, "kv:     vLLM's pool: "+strconv.FormatInt(r.KVCacheTokens, 10)+" tokens, maximum concurrency "+
			twoDecimals(r.MaxConcurrency)+"× for "+itoa(p.MaxModelLen)+" tokens per request")
	}
	switch {
	case extra != nil && t.MaxNumBatchedTokens == r.MaxTokens:
		lines = append(lines, "batch:  --max-num-batched-tokens "+itoa(r.MaxTokens)+", as asked")
	case extra != nil:
		lines = append(lines, "batch:  --max-num-batched-tokens "+itoa(r.MaxTokens)+": vLLM needs at least as many batched tokens as sequences")
	}
	return p, lines, extra
}

// utilization spells --gpu-memory-utilization: as the target gives it, else in PlanVLLM's
// hundredths.
func utilization(t *target.Target, p *fit.VLLMPlan) string {
	if t.GPUMemoryUtilization > 0 {
		return strconv.FormatFloat(t.GPUMemoryUtilization, 'f', -1, 64)
	}
	return twoDecimals(p.Utilization)
}
