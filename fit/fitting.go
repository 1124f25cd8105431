package fit

import (
	"math"
	"sync"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// ModelFit is one catalog model that fits a device, at its defaults.
type ModelFit struct {
	Name             string
	ParamsB          float64
	Quant            string
	MoE              bool
	Downloads        int64
	NeedGiB          float64
	TokensPerSecond  float64
	MaxContextTokens int64
}

// FittingModels answers "which popular models run on this hardware?": the catalog's text
// generators (not its embedding and reranker models, catalog.Model.Embedding), most downloaded
// first, that fit on count devices at their defaults (their own quantization, their context up to
// 8,192 tokens, one sequence, an fp16 KV cache), up to limit of them, each with its estimated
// speed. Errors are *FieldError (the device, count or limit).
func FittingModels(d Device, count, limit int) ([]ModelFit, error) {
	if limit < 1 || limit > target.MaxListLimit {
		return nil, target.ListLimitError(itoa(limit))
	}
	dev, name, err := resolveDevice(d)
	if err != nil {
		return nil, err
	}
	if count < 1 || count > target.MaxCount {
		// The count field's own range error, word for word what a claim says of the same n.
		f, _ := target.ByName("count")
		return nil, f.Errorf(itoa(count))
	}
	t := target.Default()
	t.Sizing, t.Count = target.SizingKV, count
	all := catalog.Models()
	order := catalog.ByDownloads() // most downloaded first, made once: the catalog does not change
	// No model whose weights alone, at the smallest bytes per parameter of any format, and the
	// least reserve of the default engine (its fixed part: the compute buffer only adds) exceed
	// the devices is worth resolving.
	usable := dev.MemoryGiB * float64(count)
	if dev.Unified {
		usable *= UnifiedGPUShare
	}
	reserve := llamaCppContextGiB
	out := make([]ModelFit, 0, limit) // made once, not grown by doubling as the fits are found
	for _, i := range order {
		m := all[i]
		if m.Embedding {
			continue // an embedding or reranker model generates no text: no decode speed to offer
		}
		if paramsB(&m)*1e9*minBytesPerParam()/gib+reserve*float64(count) > usable {
			continue
		}
		b, err := ResolveEntry(t, m)
		if err != nil {
			continue // an entry that cannot be sized (no parameter count) is not offered
		}
		var e Estimate // the verdict and figures only: the bounds stay b, not copied into e
		e.judge(&b, dev, name, false)
		if !e.Fits {
			continue
		}
		out = append(out, ModelFit{Name: m.Name, ParamsB: b.ParamsB, Quant: b.Quant, MoE: b.ActiveParamsB < b.ParamsB,
			Downloads: m.Downloads, NeedGiB: e.NeedGiB, TokensPerSecond: e.TokensPerSecond, MaxContextTokens: e.MaxContextTokens})
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

// EmbeddingNote says that a catalog model is an embedding, reranker or other encoder-only model
// (catalog.Model.Embedding): the decode speed and the bandwidth floor fitclaim gives it are those
// of a decoder of its size, not its throughput.
func EmbeddingNote(name string) string {
	return name + " is an embedding or reranker model: it generates no text, so its decode speed and bandwidth floor are a decoder's of its size, not its throughput"
}

// minBytesPerParam is the smallest bytes per parameter of any quantization or serving format.
var minBytesPerParam = sync.OnceValue(func() float64 {
	least := math.Inf(1)
	for _, q := range Quants() {
		least = math.Min(least, RealBytesPerParam(q))
	}
	for _, q := range ServingFormats() {
		least = math.Min(least, RealBytesPerParam(q))
	}
	return least
})
