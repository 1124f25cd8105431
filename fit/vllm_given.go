package fit

import "math"

// CheckVLLM is PlanVLLM for arguments the user gave rather than ones fitclaim chooses: it runs
// in's --gpu-memory-utilization and --max-num-seqs as they are (0 = vLLM's default utilization;
// the sequences for max-num-seqs) and says, in PlanVLLM's words, whether vLLM starts and holds
// the sequences at the context, with the same proposals when it does not.
func CheckVLLM(in VLLMInput, context, sequences int) VLLMPlan {
	in.MaxModelLen = context
	if in.MaxNumSeqs == 0 {
		in.MaxNumSeqs = sequences
	}
	in = in.normalized()
	if in.MaxTokens < in.MaxNumSeqs { // vLLM wants max_num_batched_tokens ≥ max_num_seqs
		in.MaxTokens = in.MaxNumSeqs
	}
	p := VLLMPlan{Utilization: in.Utilization, MaxModelLen: context, MaxNumSeqs: in.MaxNumSeqs}
	p.Result = VLLM(in)
	if p.Result.Starts {
		p.Requests = min(sequences, in.MaxNumSeqs, int(math.Floor(p.Result.MaxConcurrency+1e-9)))
	}
	p.OK = p.Result.Starts && p.Requests >= sequences
	p.Summary = vllmSummary(p)
	if !p.OK {
		p.Fix = vllmFix(in, context, sequences, vllmTopUtilization(in.TotalGiB))
	}
	return p
}
