// Package mix is the edge bench's fixed request mix: twelve GET paths over every route (five
// catalog models and a custom 70B, both sizing modes, claim YAML and JSON, a Deployment, an
// estimate, the models that fit a 4090, two searches, the version). edge/bench sends them to
// workerd and net/http; edge/bench/wasmapi times the handler on them in Go wasm under Node.
package mix

import (
	"errors"
	"strconv"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// Paths returns the mix, cycled in this order by the benches.
func Paths() ([]string, error) {
	model := func(query string) (string, error) {
		found := claim.SearchModels(query, 1)
		if len(found) == 0 {
			return "", errors.New("no catalog model found for " + strconv.Quote(query))
		}
		return found[0].Name, nil
	}
	var names [5]string
	for i, q := range []string{"qwen2.5 7b instruct", "llama 3.1 8b instruct", "mistral 7b", "gemma 27b", "phi 3 mini"} {
		var err error
		if names[i], err = model(q); err != nil {
			return nil, err
		}
	}
	with := func(m string, edit func(*target.Target)) string {
		t := target.Default()
		t.Model = m
		if edit != nil {
			edit(&t)
		}
		return target.Permalink(t)
	}
	return []string{
		"/api/v1/claim.yaml?" + with(names[0], nil),
		"/api/v1/claim.json?" + with(names[1], func(t *target.Target) { t.MinTps, t.Driver = 40, "nvidia" }),
		"/api/v1/claim.yaml?" + with(names[2], func(t *target.Target) { t.Sizing, t.Context, t.Sequences = "kv", 32768, 4 }),
		"/api/v1/models?q=llama&limit=10",
		"/api/v1/claim.json?" + with(names[3], func(t *target.Target) { t.Sizing, t.KVCache, t.Count, t.Driver = "kv", "fp8", 2, "any" }),
		"/api/v1/claim.yaml?" + with(names[4], func(t *target.Target) { t.Template, t.Name, t.Driver = true, "phi-claim", "amd" }),
		"/api/v1/deploy.yaml?" + with(names[0], func(t *target.Target) { t.Sizing, t.Context, t.Engine = "kv", 16384, "vllm" }),
		"/api/v1/estimate.json?" + with(names[1], nil) + "&on=nvidia-rtx-4090",
		"/api/v1/claim.yaml?" + with("", func(t *target.Target) { t.ParamsB, t.Driver = 70, "any" }),
		"/api/v1/fitting.json?on=nvidia-rtx-4090&limit=5",
		"/api/v1/models?q=qwen+7b&limit=5",
		"/api/v1/version",
	}, nil
}
