package deploy

import "github.com/fitclaim/fitclaim/fit"

// vllmPort is where vLLM's OpenAI-compatible server listens by default.
const vllmPort = 8000

// vllmCommand is the container's command: `vllm serve`, the entrypoint of vLLM's own
// vllm/vllm-openai images (docker/Dockerfile's vllm-openai stage), written out because the
// Deployment's args are that command's: vLLM's ROCm build ends in a stage whose CMD is
// /bin/bash and no entrypoint (docker/Dockerfile.rocm's final stage; only its vllm-openai stage
// adds `vllm serve`), so a ROCm or XPU image given for the AMD or Intel driver would otherwise
// run the model's name as its program and the pod would not start.
var vllmCommand = []string{"vllm", "serve"}

// trustLine explains --trust-remote-code, written only when asked (trustRemoteCode): on, it runs
// whatever Python a repository ships. Which catalog models need it is trustProblem's.
const trustLine = "trust:  --trust-remote-code, as asked: vLLM imports and runs the Python files the model's repository " +
	"ships (config.json's auto_map) in this pod, with its HF_TOKEN and network; only for a repository you trust"

// vllmPlan writes vLLM's arguments from the fit. The model is `vllm serve`'s positional argument,
// its first: v0.20's parser moves a --model to that place and logs that the option "will be
// removed in a future version" (FlexibleArgumentParser.parse_args, vllm/utils/argparse_utils.py),
// and older builds (a ROCm or XPU image given as image) know only `vllm serve <model_tag>`.
func vllmPlan(b *fit.Bounds, matches []fit.Match, image string, seqsAsked bool) plan {
	t := &b.Target
	bud, budgetLines, batched := vllmBudget(b, matches)
	p := plan{container: container{Name: "vllm", Image: image, Command: vllmCommand, Port: vllmPort, SHM: t.Count > 1}}
	u := utilization(t, &bud)
	seqsWhy, uWhy := " = the sequences", " = the share of each device vLLM may use"
	if seqsAsked {
		seqsWhy = ", as asked"
	}
	if t.GPUMemoryUtilization > 0 {
		uWhy = ", as asked: the share of each device vLLM may use"
	}
	p.Args = []string{
		b.Model.Name,
		"--tensor-parallel-size", itoa(t.Count),
		"--max-model-len", itoa(bud.MaxModelLen),
		"--max-num-seqs", itoa(bud.MaxNumSeqs),
		"--gpu-memory-utilization", u,
	}
	p.Args = append(p.Args, batched...)
	if t.TrustRemoteCode {
		p.Args = append(p.Args, "--trust-remote-code")
	}
	p.Explain = append(p.Explain,
		"engine: vLLM "+VLLMVersion+" (command vllm serve, whatever the image's entrypoint) serving "+b.Model.Name+" on port "+itoa(vllmPort)+"; --tensor-parallel-size "+itoa(t.Count)+
			" = the claimed devices, --max-model-len "+itoa(bud.MaxModelLen)+" = the context, --max-num-seqs "+itoa(bud.MaxNumSeqs)+
			seqsWhy+", --gpu-memory-utilization "+u+uWhy)
	if t.TrustRemoteCode {
		p.Explain = append(p.Explain, trustLine)
	}
	// blocking reasons come first: the summary names the first of them.
	var blocking, notes []string
	if why := fit.VLLMRefusal(b); why != "" { // before any memory is counted
		blocking = append(blocking, why)
	}
	switch b.KVCache {
	case "fp8":
		p.Args = append(p.Args, "--kv-cache-dtype", "fp8")
		p.Explain = append(p.Explain, "kv:     --kv-cache-dtype fp8"+kvSizedAs(b, " (1 byte per element)"))
	case "q8_0", "q4_0":
		blocking = append(blocking, fit.VLLMKVCacheRefusal(b))
	}
	if flag, line, problem := fit.VLLMWeights(b); problem != "" {
		blocking = append(blocking, problem)
	} else {
		p.Args = append(p.Args, flag...)
		p.Explain = append(p.Explain, line)
	}
	// vLLM reads the config before any weight: without --trust-remote-code a model_type transformers
	// and vLLM do not know stops it there (trustProblem)
	trustBlocking, trustNote := trustProblem(b)
	if trustBlocking != "" {
		blocking = append(blocking, trustBlocking)
	}
	if trustNote != "" {
		notes = append(notes, trustNote)
	}
	if isDeepSeekV4(b) {
		var line, note string
		p.Args, line, note = deepSeekV4Plan(b, p.Args, image)
		p.Explain = append(p.Explain, line)
		if note != "" {
			notes = append(notes, note)
		}
	}
	p.Explain = append(p.Explain, budgetLines...)
	switch {
	case !bud.Result.Starts:
		blocking = append(blocking, bud.Result.Reason+" "+bud.Fix)
	case !bud.OK:
		notes = append(notes, "vLLM holds "+plural(bud.Requests, "request")+" of "+itoa(bud.MaxModelLen)+
			" tokens at once, fewer than the "+itoa(t.Sequences)+" sequences asked; the others wait. "+bud.Fix)
	}
	if n := vendorNote(b, "vLLM"); n != "" && image == VLLMImage {
		// the pinned image is the CUDA build: on AMD or Intel devices the pod does not run; an
		// image given for the vendor is taken at its word
		blocking = append([]string{n}, blocking...)
	}
	if n := anyVendorNote(b, "vLLM"); n != "" && image == VLLMImage {
		notes = append(notes, n)
	}
	if n := bf16Note(b, matches); n != "" {
		notes = append(notes, n)
	}
	p.Starts = len(blocking) == 0
	if p.Starts {
		p.Summary = bud.Summary
		p.Problems = notes
	} else {
		p.Summary = "vLLM does not start on the claimed devices: " + blocking[0]
		p.Problems = append(blocking[1:], notes...)
	}
	return p
}
