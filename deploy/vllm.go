package deploy

import (
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
)

// vllmPort is where vLLM's OpenAI-compatible server listens by default.
const vllmPort = 8000

// vllmPlan writes vLLM's arguments from the fit. The model is passed with --model: the image's
// entrypoint is `vllm serve`, and vLLM's Docker guide asks for --model there (a positional
// model is silently replaced by the image's default).
func vllmPlan(b *fit.Bounds, matches []fit.Match, image string, seqsAsked bool) plan {
	t := &b.Target
	bud, budgetLines, batched := vllmBudget(b, matches)
	p := plan{container: container{Name: "vllm", Image: image, Port: vllmPort, SHM: t.Count > 1}}
	u := utilization(t, &bud)
	seqsWhy, uWhy := " = the sequences", " = the share of each device vLLM may use"
	if seqsAsked {
		seqsWhy = ", as asked"
	}
	if t.GPUMemoryUtilization > 0 {
		uWhy = ", as asked: the share of each device vLLM may use"
	}
	p.Args = []string{
		"--model", b.Model.Name,
		"--tensor-parallel-size", itoa(t.Count),
		"--max-model-len", itoa(bud.MaxModelLen),
		"--max-num-seqs", itoa(bud.MaxNumSeqs),
		"--gpu-memory-utilization", u,
	}
	p.Args = append(p.Args, batched...)
	p.Explain = append(p.Explain,
		"engine: vLLM "+VLLMVersion+" serving "+b.Model.Name+" on port "+itoa(vllmPort)+"; --tensor-parallel-size "+itoa(t.Count)+
			" = the claimed devices, --max-model-len "+itoa(bud.MaxModelLen)+" = the context, --max-num-seqs "+itoa(bud.MaxNumSeqs)+
			seqsWhy+", --gpu-memory-utilization "+u+uWhy)
	// blocking reasons come first: the summary names the first of them.
	var blocking, notes []string
	if why := fit.VLLMRefusal(b); why != "" { // before any memory is counted
		blocking = append(blocking, why)
	}
	switch b.KVCache {
	case "fp8":
		p.Args = append(p.Args, "--kv-cache-dtype", "fp8")
		p.Explain = append(p.Explain, "kv:     --kv-cache-dtype fp8, as the claim was sized (1 byte per element)")
	case "q8_0", "q4_0":
		blocking = append(blocking, fit.VLLMKVCacheRefusal(b))
	}
	if flag, line, problem := vllmWeights(b); problem != "" {
		blocking = append(blocking, problem)
	} else {
		p.Args = append(p.Args, flag...)
		p.Explain = append(p.Explain, line)
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

// vllmWeights says how vLLM loads the weights the claim was sized for: the flags, the header
// line, or why it cannot. vLLM serves a repository's checkpoint; AWQ, GPTQ and FP8 checkpoints
// carry a quantization_config that vLLM reads itself (no --quantization); a 16-bit checkpoint
// can be cast (--dtype) or quantized to fp8 as it loads (--quantization fp8, which needs no
// calibration and takes 1 byte per parameter, within Q8_0's 1.05); GGUF needs a GGUF file, which
// the catalog's repositories do not hold.
func vllmWeights(b *fit.Bounds) (flags []string, line, problem string) {
	q, model := b.Quant, b.Model.Name
	own := checkpointFormat(&b.Model)
	switch {
	case b.Model.IsGGUFRepository():
		return nil, "", model + " holds GGUF files (llama.cpp's), which vLLM does not serve: engine llama.cpp, or the original 16-bit repository"
	case strings.HasPrefix(own, "mlx-"):
		return nil, "", model + " holds Apple MLX weights (" + own + "), which vLLM does not serve: engine llama.cpp with a GGUF repository, or the original 16-bit repository"
	}
	if checkpointQuantized(own) {
		if strings.EqualFold(q, own) {
			return nil, "weights: " + own + ", read from the checkpoint's quantization_config (vLLM needs no --quantization)", ""
		}
		return nil, "", "vLLM loads " + model + " as its checkpoint is, " + own + ", and the claim is sized for " + q +
			": set quant " + own + ", or choose a " + q + " repository"
	}
	switch q {
	case "BF16", "F16", "FP16", "F32":
		dtype := map[string]string{"BF16": "bfloat16", "F16": "float16", "FP16": "float16", "F32": "float32"}[q]
		return []string{"--dtype", dtype}, "weights: " + q + " (--dtype " + dtype + "), as the claim was sized", ""
	case "Q8_0", "FP8":
		return []string{"--quantization", "fp8"}, "weights: --quantization fp8 quantizes the 16-bit checkpoint to 1 byte per parameter " +
			"as it loads (its embedding and LM head stay 16-bit), as the claim (" + q + ") was sized", ""
	}
	why := model + " is not " + article(q) + " " + q + " checkpoint" // AWQ, GPTQ, INT8, NVFP4, MXFP4 need one
	switch {
	case ggufType(q):
		why = q + " is a llama.cpp (GGUF) format"
	case strings.HasPrefix(q, "mlx-"):
		why = q + " is an Apple MLX format"
	}
	return nil, "", "vLLM would load " + model + "'s 16-bit weights, but the claim is sized for " + q + " and " + why +
		": set quant BF16 (or FP8 for fp8 weights) so the claim holds what vLLM loads, or engine llama.cpp"
}

// checkpointFormat is how the repository holds its weights: its release format (fit.ReleaseFormat:
// FP8 for an FP8 repository, MXFP4 experts + BF16 for gpt-oss), else llmfit's quantization where
// that names a quantized checkpoint.
func checkpointFormat(m *catalog.Model) string {
	if own := fit.ReleaseFormat(m).Name; checkpointQuantized(own) || !checkpointQuantized(m.Quantization) {
		return own
	}
	return m.Quantization
}

// article is "an" before a vowel sound of the format names ("an NVFP4", "an INT8", "an AWQ-4bit").
func article(q string) string {
	if strings.ContainsRune("AEIOUFHLMNRSX", rune(q[0])) {
		return "an"
	}
	return "a"
}
