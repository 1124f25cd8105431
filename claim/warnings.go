package claim

import (
	"github.com/fitclaim/fitclaim/target"
	"strconv"
	"strings"
	"sync"

	"github.com/fitclaim/fitclaim/fit"
)

// warnings are what a careful reviewer would point out about a claim that is nonetheless valid.
// matches are fit.Matches(*b), or nil when they are not at hand: then the one warning that reads
// them (proposal) asks fit only whether any selectable device fits, and judges the whole catalog
// only when none does.
func warnings(b *fit.Bounds, name string, matches []fit.Match) []string {
	t := &b.Target
	var w []string
	if len(b.ModelOthers) > 0 { // issue 12: a name without its org "resolves to the most-downloaded exact match and says which"
		w = append(w, ModelChoice(b))
	}
	if t.Name == "" && !b.Custom {
		if n := sharedCount(name); n > 1 {
			w = append(w, "the claim name "+name+" is derived from "+strconv.Itoa(n)+
				" catalog models (llmfit cuts names at "+strconv.Itoa(stemMax)+" characters and ignores case); set name to make it unique")
		}
	}
	if t.Sizing == target.SizingLlmfit {
		if w1 := llmfitCountWarning(b); w1 != "" {
			w = append(w, w1)
		}
		if m := b.Model.ContextLength; m > 0 && b.KVTokensRoom < int64(min(m, fit.DefaultContextCap)) {
			room := "room for about " + strconv.FormatInt(b.KVTokensRoom, 10) + " tokens of fp16 KV cache"
			if b.KVTokensRoom == 0 {
				room = "no room for a KV cache beside the weights and " + shortest(fit.RuntimeOverheadGiB) + " GiB of runtime overhead"
			}
			w = append(w, "llmfit sizing computes no KV cache: the memory floor leaves "+room+"; use sizing kv to size for a context")
		}
		if ignored := IgnoredBySizing(t); ignored != "" {
			w = append(w, ignored)
		}
	} else {
		why := ""
		if b.Engine == target.EngineVLLM {
			if kv := fit.VLLMKVCacheRefusal(b); kv != "" { // sized as asked, for a start-up vLLM refuses
				w = append(w, kv)
			}
			if _, _, weights := fit.VLLMWeights(b); weights != "" { // sized for weights vLLM would not load
				w = append(w, weights)
			}
			why = fit.VLLMRefusal(b) // vLLM's words for a context or a device count it refuses
		}
		if m := b.MaxContext; m > 0 && b.ContextTokens > m && why == "" {
			w = append(w, "context "+strconv.Itoa(b.ContextTokens)+" is longer than the model's "+strconv.Itoa(m)+" tokens")
		}
		if why != "" {
			w = append(w, why)
		}
		if note := fit.VLLMPaddingNote(b); note != "" {
			w = append(w, note)
		}
		if b.Model.Embedding {
			w = append(w, fit.EmbeddingNote(b.Model.Name))
		}
		if b.KVEstimated {
			why := "the catalog lacks this model's layers, KV heads or head size"
			if b.Custom { // not in the catalog: the user can give them
				why = "give the model's Layers, KV heads and Head dimension (layers, kvHeads, headDim) to size it"
			}
			w = append(w, "the KV cache is estimated ("+estimatedKVRate(b, "parameters")+"): "+why)
		}
	}
	if !b.Driver.Bandwidth {
		w = append(w, b.Driver.Domain+" publishes no bandwidth: the "+strconv.FormatInt(b.MinBandwidthGBs, 10)+
			" GB/s floor"+perDevice(t.Count)+" is not enforced by this claim, only memory")
	}
	if p := proposal(b, matches); p != "" {
		w = append(w, p)
	}
	return w
}

// proposal suggests the smallest device count when nothing in the catalog fits as asked.
// matches: see warnings (nil: not at hand).
func proposal(b *fit.Bounds, matches []fit.Match) string {
	if matches == nil {
		if b.AnySelectableFits() { // the common case: no match judged past the first that fits
			return ""
		}
		matches = fit.Matches(*b)
	}
	count := b.Target.Count
	for i := range matches {
		if matches[i].Selectable && matches[i].Fits() {
			return ""
		}
	}
	m, ok := SplitProposal(matches)
	if !ok {
		return "no accelerator in the catalog meets these floors, even " + strconv.Itoa(target.MaxCount) + " of them"
	}
	return "no accelerator in the catalog meets these floors with " + plural(count, "device") + "; " +
		strconv.Itoa(m.DevicesNeeded) + " × " + m.Accelerator.Name + " would (set count to " + strconv.Itoa(m.DevicesNeeded) + ")"
}

// IgnoredBySizing is the warning that names, in the field table's order, the fields t gives a
// value the claim's llmfit sizing ignores (the table's KVOnly rows: the KV cache, the engine's
// reserve and vLLM's budget are sizing kv's), other than their default ("--sequences 1" asks
// nothing llmfit's sizing lacks, nor "--kv-cache FP16"): "" when there are none or t's sizing is
// kv. (Package deploy asks it of the target as given: it fills the engine and vLLM's
// --max-num-seqs itself.)
func IgnoredBySizing(t *target.Target) string {
	if t.Sizing != target.SizingLlmfit {
		return ""
	}
	def := defaultTarget()
	names := ""
	for i := range target.Fields {
		f := &target.Fields[i]
		if !f.KVOnly || f.Same(t, def) || f.Canonical(f.Get(t)) == f.Get(def) {
			continue
		}
		if names != "" {
			names += ", "
		}
		names += f.Name
	}
	if names == "" {
		return ""
	}
	them := "them"
	if !strings.Contains(names, ", ") { // one field: "ignores engine: … for them" read wrong
		them = "it"
	}
	return "sizing llmfit ignores " + names + ": use sizing kv to size the claim for " + them
}

// defaultTarget is target.Default(), made once and never written: IgnoredBySizing compares
// with it through the table's fields, which let it escape (a Target on the heap per render).
var defaultTarget = sync.OnceValue(func() *target.Target {
	d := target.Default()
	return &d
})

// ModelChoice says which catalog model a name without its publisher was taken for, when it
// is the whole repository name of several (fit.Bounds.ModelOthers); "" otherwise.
func ModelChoice(b *fit.Bounds) string {
	if len(b.ModelOthers) == 0 {
		return ""
	}
	return "model " + strconv.Quote(b.ModelAsked) + " is the name of " + strconv.Itoa(len(b.ModelOthers)+1) +
		" catalog models; took " + b.Model.Name + ", the most downloaded (also " + strings.Join(b.ModelOthers, ", ") +
		"); give the full name for another"
}

// llmfitCountWarning says when llmfit's arithmetic sizes a catalog entry on a parameter count that
// is not its release's (fit.ReleaseParamsOf, what the KV-aware sizing counts): a packed
// AWQ/GPTQ/NVFP4/GGUF repository's containers, a count of no shapes. llmfit's claim for
// unsloth/gpt-oss-20b-GGUF asks 2 Gi for 1.8B parameters (1.0 GB at Q4_K_M) where the release
// holds 20.9B and its Q4_K_M file 10.81 GiB; its bytes stay llmfit's, the warning says so. Said
// only where the release's count at llmfit's own bytes a parameter does not fit the floor.
func llmfitCountWarning(b *fit.Bounds) string {
	if b.Custom || !(b.ParamsB > 0) {
		return ""
	}
	real := fit.ReleaseParamsOf(&b.Model).TotalB
	if !(real > b.ParamsB*1.1) || real*b.BytesPerParam*1e9 <= float64(b.MemoryGi)*float64(max(1, b.Target.Count))*(1<<30) {
		return "" // the release's count at llmfit's bytes a parameter still fits the floor
	}
	return "llmfit sizes " + b.Model.Name + " on the catalog's " + oneDecimal(b.ParamsB) + "B parameters, but its release holds " +
		oneDecimal(real) + "B (sizing kv's params line says why), whose " + oneDecimal(real*b.BytesPerParam*1e9/(1<<30)) + " GiB at " + b.Quant +
		" this claim's " + strconv.FormatInt(b.MemoryGi, 10) + " Gi floor cannot hold; use sizing kv to size on the release's"
}
