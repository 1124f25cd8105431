package deploy

//go:generate go run ./gen -data ../data -out .

import "github.com/fitclaim/fitclaim/fit"

// trustEntry is a row of trustTable (trust_gen.go): a catalog model and its config.json model_type,
// "" when the catalog does not know it.
type trustEntry struct{ Name, ModelType string }

// trustOf looks model up in trustTable by binary search (no map is built: the edge worker renders a
// Deployment per request). listed false: the model's model_type is one vLLM loads without
// --trust-remote-code; listed with modelType "": the catalog does not know it.
func trustOf(model string) (modelType string, listed bool) {
	lo, hi := 0, len(trustTable)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch n := trustTable[mid].Name; {
		case n == model:
			return trustTable[mid].ModelType, true
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
// anything); a note when trustRemoteCode is on for a model vLLM loads without it. Nothing for a model
// whose model_type the catalog does not know.
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
		return "", "trustRemoteCode (--trust-remote-code) runs " + name + "'s Python for nothing: vLLM " + VLLMVersion +
			" loads its model_type without it, and with it runs whatever code the repository ships in this pod; leave trustRemoteCode off"
	}
	return "", ""
}
