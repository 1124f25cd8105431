package deploy

import (
	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
)

// llamaCppPort is llama.cpp's server's default port.
const llamaCppPort = 8080

// llamaCppPlan writes llama.cpp server's arguments: the context is one pool shared by the
// parallel slots (each slot gets ctx-size / parallel tokens), every layer is offloaded to the
// devices (-ngl 999: more than any model has), and -hf REPO:TYPE downloads the GGUF file of that
// tensor type from the model's GGUF repository (catalog.GGUFRepository: a safetensors repository
// holds none, so its GGUF re-upload). With several devices llama.cpp splits the layers over all
// it sees.
func llamaCppPlan(b *fit.Bounds, image string) plan {
	t := &b.Target
	ctx := b.ContextTokens * t.Sequences
	repo, reupload, hasGGUF := catalog.GGUFRepository(&b.Model)
	if !hasGGUF {
		repo = b.Model.Name
	}
	p := plan{container: container{Name: "llama-server", Image: image, Port: llamaCppPort}}
	p.Args = []string{
		"-hf", repo + ":" + b.Quant,
		"--ctx-size", itoa(ctx),
		"--parallel", itoa(t.Sequences),
		"-ngl", "999",
		"--host", "0.0.0.0",
		"--port", itoa(llamaCppPort),
	}
	p.Explain = append(p.Explain,
		"engine: llama.cpp server "+LlamaCppBuild+" on port "+itoa(llamaCppPort)+"; --ctx-size "+itoa(ctx)+" = "+
			itoa(b.ContextTokens)+" tokens × "+plural(t.Sequences, "sequence")+" (--parallel "+itoa(t.Sequences)+
			": the slots share it), -ngl 999 = every layer on the "+plural(t.Count, "claimed device"))
	if t.TrustRemoteCode {
		// llama.cpp's server reads the model, its tokenizer and chat template from the GGUF file
		// and has no such flag: nothing to write, but the header says why it is not there.
		p.Explain = append(p.Explain, "trust:  trustRemoteCode is vLLM's --trust-remote-code: llama.cpp reads the GGUF file "+
			"and runs no code from the repository, so there is nothing to trust")
	}
	switch b.KVCache {
	case "q8_0", "q4_0":
		// llama.cpp keeps a quantized V cache only with flash attention: llama_init_from_model
		// refuses it with flash attention off, and under the default --flash-attn auto the
		// context throws "quantized V cache was requested, but this requires Flash Attention"
		// when the device probe turns it off (src/llama-context.cpp); on says so outright.
		p.Args = append(p.Args, "--cache-type-k", b.KVCache, "--cache-type-v", b.KVCache, "--flash-attn", "on")
		p.Explain = append(p.Explain, "kv:     --cache-type-k/-v "+b.KVCache+kvSizedAs(b, ""),
			"fa:     --flash-attn on: llama.cpp keeps a quantized V cache only with flash attention")
	case "fp8":
		p.Problems = append(p.Problems, "llama.cpp has no fp8 KV cache: set kvCache q8_0 (the same 1 byte per element), or engine vllm")
	}
	formatOK := fit.GGUFType(b.Quant)
	switch {
	case !formatOK:
		p.Problems = append(p.Problems, "llama.cpp reads GGUF files and "+b.Quant+" is not a GGUF type: set quant Q4_K_M (or another GGUF type), or engine vllm")
	case !hasGGUF:
		p.Problems = append(p.Problems, b.Model.Name+" publishes no GGUF files and the catalog knows no GGUF re-upload of it: "+
			"give -hf a GGUF repository of these weights, or engine vllm")
	case reupload:
		p.Explain = append(p.Explain, "weights: "+b.Model.Name+" publishes no GGUF files; -hf downloads the "+b.Quant+
			" GGUF file of its re-upload "+repo+" (the catalog's most downloaded); check that it holds that type")
	default:
		p.Explain = append(p.Explain, "weights: -hf downloads the "+b.Quant+" GGUF file of "+repo)
	}
	if n := anyVendorNote(b, "llama.cpp"); n != "" && image == llamaCppImage(t.Driver) {
		p.Problems = append(p.Problems, n) // after the blocking ones: the summary names the first
	}
	p.Starts = formatOK && hasGGUF && b.KVCache != "fp8"
	if p.Starts {
		p.Summary = "llama.cpp starts: " + plural(t.Sequences, "slot") + " of " + itoa(b.ContextTokens) + " tokens"
	} else {
		p.Summary = "llama.cpp does not start as sized: " + p.Problems[0]
		p.Problems = p.Problems[1:] // the summary says the first
	}
	return p
}
