package claim

import (
	"strconv"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
)

// Result is everything a surface shows for a target. YAML and JSON are the exact bytes every
// surface (page, API, command line) serves.
type Result struct {
	Bounds   fit.Bounds
	Name     string
	YAML     string
	JSON     string
	Warnings []string
	Matches  []fit.Match
}

// Render sizes a target and renders its claim, stamped with this fitclaim's Version.
func Render(t fit.Target) (Result, error) { return RenderVersion(t, Version) }

// RenderVersion is Render with another generator version (tests compare with llmfit's goldens).
func RenderVersion(t fit.Target, version string) (Result, error) {
	b, err := fit.Resolve(t)
	if err != nil {
		return Result{}, err
	}
	return render(b, version)
}

// renderModel renders a target for a given entry rather than a catalog lookup.
func renderModel(m catalog.Model, t fit.Target, version string) (Result, error) {
	b, err := fit.ResolveEntry(t, m)
	if err != nil {
		return Result{}, err
	}
	return render(b, version)
}

func render(b fit.Bounds, version string) (Result, error) {
	t := b.Target
	name := t.Name
	if name == "" {
		name = DeriveName(b.Model.Name)
	} else if err := checkSubdomain("name", name); err != nil {
		return Result{}, err
	}
	if t.DeviceClass != "" {
		if err := checkSubdomain("deviceClass", t.DeviceClass); err != nil {
			return Result{}, err
		}
	}
	r := Result{Bounds: b, Name: name}
	r.YAML = renderYAML(&b, name, version)
	r.JSON = renderJSON(&b, name, version)
	r.Matches = fit.Matches(b)
	r.Warnings = warnings(&b, name, r.Matches)
	return r, nil
}

// warnings are what a careful reviewer would point out about a claim that is nonetheless valid.
func warnings(b *fit.Bounds, name string, matches []fit.Match) []string {
	t := &b.Target
	var w []string
	if t.Name == "" && !b.Custom {
		if n := sharedCount(name); n > 1 {
			w = append(w, "the claim name "+name+" is derived from "+strconv.Itoa(n)+
				" catalog models (llmfit cuts names at "+strconv.Itoa(stemMax)+" characters and ignores case); set name to make it unique")
		}
	}
	if t.Sizing == fit.SizingLlmfit {
		if m := b.Model.ContextLength; m > 0 && b.KVTokensRoom < int64(min(m, fit.DefaultContextCap)) {
			room := "room for about " + strconv.FormatInt(b.KVTokensRoom, 10) + " tokens of fp16 KV cache"
			if b.KVTokensRoom == 0 {
				room = "no room for a KV cache beside the weights and " + shortest(fit.RuntimeOverheadGiB) + " GiB of runtime overhead"
			}
			w = append(w, "llmfit sizing computes no KV cache: the memory floor leaves "+room+"; use sizing kv to size for a context")
		}
	} else {
		if m := b.MaxContext; m > 0 && b.ContextTokens > m {
			w = append(w, "context "+strconv.Itoa(b.ContextTokens)+" is longer than the model's "+strconv.Itoa(m)+" tokens")
		}
		if b.KVEstimated {
			w = append(w, "the KV cache is estimated ("+shortest(fit.KVFallbackGBPerB)+" GB per billion parameters per token): the catalog lacks this model's layers, KV heads or head size")
		}
	}
	if !b.Driver.Bandwidth {
		w = append(w, b.Driver.Domain+" publishes no bandwidth: the "+strconv.FormatInt(b.MinBandwidthGBs, 10)+
			" GB/s floor is not enforced by this claim, only memory")
	}
	if p := proposal(matches, t.Count); p != "" {
		w = append(w, p)
	}
	return w
}

// proposal suggests the smallest device count when nothing in the catalog fits as asked.
func proposal(matches []fit.Match, count int) string {
	for i := range matches {
		if matches[i].Fits() {
			return ""
		}
	}
	m, ok := SplitProposal(matches)
	if !ok {
		return "no accelerator in the catalog meets these floors, even " + strconv.Itoa(fit.MaxCount) + " of them"
	}
	return "no accelerator in the catalog meets these floors with " + plural(count, "device") + "; " +
		strconv.Itoa(m.DevicesNeeded) + " × " + m.Accelerator.Name + " would (set count to " + strconv.Itoa(m.DevicesNeeded) + ")"
}

// ModelSummary is a catalog entry as a type-ahead picker and the models API show it.
type ModelSummary struct {
	Name          string  `json:"name"`
	ParamsB       float64 `json:"paramsB"`
	Quant         string  `json:"quant"`
	ContextLength int     `json:"contextLength"`
	MoE           bool    `json:"moe"`
}

// SearchModels is catalog.Search, summarised.
func SearchModels(query string, limit int) []ModelSummary {
	found := catalog.Search(query, limit)
	out := make([]ModelSummary, len(found))
	for i := range found {
		m := &found[i]
		out[i] = ModelSummary{Name: m.Name, ParamsB: fit.ParamsB(m), Quant: m.Quantization, ContextLength: m.ContextLength, MoE: m.MoE}
	}
	return out
}
