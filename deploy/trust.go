package deploy

//go:generate go run ./gen -data ../data -out .

import "github.com/fitclaim/fitclaim/fit"

// trustName is the i-th name of trustNames (trust_gen.go).
func trustName(i int) string {
	start := 0
	if i > 0 {
		start = int(trustEnds[i-1])
	}
	return trustNames[start:trustEnds[i]]
}

// trustOf looks model up in trust_gen.go's sorted names by binary search (no map is built: the
// edge worker renders a Deployment per request). listed false: transformers knows the model's
// model_type, so vLLM loads it without --trust-remote-code; listed with modelType "": nothing is
// said of it; else modelType is the config.json model_type that needs the flag.
func trustOf(model string) (modelType string, listed bool) {
	lo, hi := 0, len(trustEnds)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch n := trustName(mid); {
		case n == model:
			return trustTypes[trustType[mid]], true
		case n < model:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return "", false
}

// trustProblem is what the Deployment says of --trust-remote-code under vLLM (llama.cpp reads GGUF
// and runs no Python): blocking when the model's model_type is one neither transformers nor vLLM's
// config registry knows and trustRemoteCode is off (AutoConfig raises and vLLM stops before loading
// anything); a note when trustRemoteCode is on for a model whose model_type is transformers' own.
// Nothing for the others (deploy/gen: vLLM's own configs, whose repositories often ship tokenizer
// code; a model_type the v0.20.0 image may lack; one the catalog does not know).
func trustProblem(b *fit.Bounds) (blocking, note string) {
	name := b.Model.Name
	modelType, listed := trustOf(name)
	switch {
	case listed && modelType == "":
		return "", ""
	case listed && !b.Target.TrustRemoteCode:
		return name + "'s config.json has model_type " + modelType + ", which neither transformers nor vLLM " + VLLMVersion +
			" knows: vLLM stops at loading its config unless it may run the repository's Python (config.json's auto_map); " +
			"set trustRemoteCode (--trust-remote-code) if you trust " + name + "'s code", ""
	case !listed && b.Target.TrustRemoteCode:
		return "", "trustRemoteCode (--trust-remote-code) runs " + name + "'s Python for nothing: transformers knows its model_type, " +
			"so vLLM " + VLLMVersion + " loads it without the flag, which only lets whatever code the repository ships run in this pod; leave trustRemoteCode off"
	}
	return "", ""
}
