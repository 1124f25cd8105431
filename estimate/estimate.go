// Package estimate is the reverse question — "I have this hardware: does the model fit, how fast
// does it run?" — as the command line, the HTTP API and the page ask it: a query in, the verdict
// as JSON or text out. The physics is fit.EstimateOn; this package reads and writes it, so every
// surface gives the same bytes.
package estimate

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
	"github.com/fitclaim/fitclaim/target"
)

// DeviceKeys are the device fields' query keys (each is also its flag), in the table's order.
var DeviceKeys = func() []string {
	var keys []string
	for i := range target.Fields {
		if target.Fields[i].Device {
			keys = append(keys, target.Fields[i].Key)
		}
	}
	return keys
}()

// Flags are the flags of fitclaim estimate, exactly the contract's; each is a field of the
// table (package target), which reads and checks it.
var Flags = []string{
	"params", "active-params", "layers", "kv-heads", "head-dim", "quant", "context", "sequences",
	"kv-cache", "count", "on", "memory", "bandwidth", "family", "unified",
	"engine", "gpu-memory-utilization", "max-num-seqs", "max-num-batched-tokens",
	// The architecture's overrides, which the API's estimate.json and the page's hardware mode
	// read from the same keys (att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept): added so the
	// command line answers what they answer.
	"attention", "sliding-window", "sliding-layers", "full-attention-layers", "csa-layers", "hca-layers",
	"kv-lora-rank", "qk-rope-head-dim", "experts", "experts-per-token",
}

// ParseQuery reads a target, and the device it names, from query pairs (the claim's codec and
// defaults).
func ParseQuery(v target.Values) (target.Target, fit.Device, error) {
	t, err := target.ParseQuery(v)
	if err != nil {
		return target.Target{}, fit.Device{}, err
	}
	return t, fit.DeviceOf(&t), nil
}

// ParseRawQuery reads a raw query string or permalink fragment.
func ParseRawQuery(raw string) (target.Target, fit.Device, error) {
	t, err := target.ParsePermalink(raw)
	if err != nil {
		return target.Target{}, fit.Device{}, err
	}
	return t, fit.DeviceOf(&t), nil
}

// Run answers the question for a query.
func Run(v target.Values) (fit.Estimate, error) {
	t, d, err := ParseQuery(v)
	if err != nil {
		return fit.Estimate{}, err
	}
	return fit.EstimateOn(t, d)
}

// JSON is the contract's object, exactly: fits, needGiB, usableGiB, tokensPerSecond (only when it
// fits), maxContextTokens, maxSequences, reason (only when it does not fit). GiB to 2 decimals
// (need and usable with more where 2 would print a need that does not fit as equal to what is
// usable: fit.GiBDecimals), tokens/s as every estimated speed is printed (fit.SpeedDecimals: whole
// at 10 and above, a tenth below, more where that would hide how it compares with the target).
func JSON(e fit.Estimate) string {
	var w jsontext.Writer
	w.Grow(256) // the object is about 110-200 bytes: grown once, not doubled up from 8 as it is written
	w.BeginObject()
	w.Key("fits")
	w.Bool(e.Fits)
	d := e.GiBDecimals() // 2, more where 2 would print a need that does not fit as equal to what is usable
	w.Key("needGiB")
	w.Num(jsontext.Round(e.NeedGiB, d))
	w.Key("usableGiB")
	w.Num(jsontext.Round(e.UsableGiB, d))
	if e.Fits {
		w.Key("tokensPerSecond")
		w.Num(e.SpeedShown())
	}
	w.Key("maxContextTokens")
	w.Int(e.MaxContextTokens)
	w.Key("maxSequences")
	w.Int(e.MaxSequences)
	reason := ""
	if !e.Fits {
		reason = e.Reason
	}
	if r := e.VLLM; r != nil {
		// vLLM's start-up: available KV per device (negative = short by that much), the pool in
		// tokens and requests as vLLM logs them, whether it starts with --max-model-len = context
		w.Key("engine")
		w.Str(e.Engine)
		w.Key("kvCacheGiB")
		w.Num(jsontext.Round(r.KVCacheGiB, 2))
		w.Key("kvCacheTokens")
		w.Int(r.KVCacheTokens)
		w.Key("maxConcurrency")
		w.Num(jsontext.Round(r.MaxConcurrency, 2))
		w.Key("starts")
		w.Bool(r.Starts)
		if !r.Starts {
			w.Key("maxModelLen")
			w.Int(int64(r.MaxModelLen))
			reason = r.Reason // why it does not start comes first: the pod would never serve
		}
	}
	if reason != "" {
		w.Key("reason")
		w.Str(reason)
	}
	w.EndObject()
	return w.Finish() // the text itself, not a copy: w is not written again
}

// Text is the verdict in words, for people.
func Text(e fit.Estimate) string {
	b := &e.Bounds
	var s strings.Builder
	devices := strconv.Itoa(e.Count) + " × " + e.DeviceName
	s.WriteString(b.Model.Name + " (" + b.Quant + ", " + strconv.Itoa(b.ContextTokens) + " tokens × " +
		fit.SequencesText(b.Target.Sequences) + ", " + b.KVCache + " KV cache) on " + devices + "\n")
	if !e.Fits {
		s.WriteString("does not fit: " + e.Reason + "\n")
		if r := e.VLLM; r != nil {
			s.WriteString(vllmText(e, r))
		}
		return s.String()
	}
	s.WriteString("fits: needs " + gib(e.NeedGiB) + " GiB (weights " + gib(e.WeightsGiB) + " + KV cache " + gib(e.KVGiB) +
		" + reserve " + gib(e.ReserveGiB) + ") of " + gib(e.UsableGiB) + " GiB usable\n")
	if w := e.ClaimFloorWords(); w != "" {
		s.WriteString(w + "\n")
	}
	if b.Model.Embedding {
		s.WriteString(fit.EmbeddingNote(b.Model.Name) + "\n")
	}
	read := " GB read per token at "
	if e.Count > 1 && !b.LayersInTurn(e.Count) {
		read = " GB read per token by each device at "
	}
	calibrated, family := "calibrated: ", " GB/s for the "+e.Device.Family+" family, "
	if b.EfficiencyGiven {
		calibrated, family = "", " GB/s (efficiencyPct), "
	}
	s.WriteString("speed: " + e.SpeedText() + " tokens/s per sequence (" + calibrated +
		strconv.FormatFloat(e.ReadBytesPerDevice/1e9, 'f', 2, 64) + read +
		strconv.FormatFloat(e.Efficiency*100, 'f', 1, 64) + " % of " + strconv.FormatFloat(e.Device.BandwidthGBs, 'f', -1, 64) +
		family + strconv.FormatFloat(e.OverheadSeconds*1e3, 'f', 2, 64) + " ms overhead per token" +
		moeOverheadText(b))
	if e.CommSeconds > 0 {
		s.WriteString(", " + strconv.FormatFloat(e.CommSeconds*1e3, 'f', 2, 64) + " ms between devices, not calibrated")
	}
	if b.LayersInTurn(e.Count) {
		s.WriteString("; llama.cpp's devices take their layers in turn, so a token reads all its bytes at one device's bandwidth")
	}
	s.WriteString(")\n")
	if r := e.VLLM; r != nil {
		s.WriteString(vllmText(e, r))
		if note := fit.VLLMPaddingNote(b); note != "" {
			s.WriteString(note + "\n")
		}
	}
	if w := fit.ReserveBorrowedWordsOn(e.Device.Family, b.Engine); w != "" { // AMD, Intel: CUDA's figures, said so
		s.WriteString(w + "\n")
	}
	s.WriteString("longest context: " + strconv.FormatInt(e.MaxContextTokens, 10) + " tokens × " + fit.SequencesText(b.Target.Sequences) +
		"; most sequences at " + strconv.Itoa(b.ContextTokens) + " tokens: " + strconv.FormatInt(e.MaxSequences, 10))
	s.WriteString("\n")
	return s.String()
}

// moeOverheadText says what a mixture of experts' overhead is made of: t0 and its layers' time
// (", of which 4.24 ms for 48 MoE layers"); "" for a dense model.
func moeOverheadText(b *fit.Bounds) string {
	if !(b.ActiveParamsB < b.ParamsB) {
		return ""
	}
	layers, typical := b.RoutedLayers, ""
	if layers <= 0 {
		layers, typical = fit.MoEDepth(b.ParamsB), ", typical of its size"
	}
	ms := float64(layers) * fit.MoELayerSeconds() * 1e3
	return ", of which " + strconv.FormatFloat(ms, 'f', 2, 64) + " ms for " + strconv.Itoa(layers) + " MoE layers" + typical
}

func gib(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// vllmText is vLLM's start-up in its own terms.
func vllmText(e fit.Estimate, r *fit.VLLMResult) string {
	s := "engine: " + e.Engine + ", --gpu-memory-utilization " + strconv.FormatFloat(r.Utilization, 'f', -1, 64) +
		", --max-num-seqs " + strconv.Itoa(r.MaxNumSeqs) + ", --max-num-batched-tokens " + strconv.Itoa(r.MaxTokens) + "\n" +
		"vLLM: budget " + gib(r.BudgetGiB) + " GiB − weights " + gib(r.WeightsGiB) + " − activation " + gib(r.ActivationGiB) +
		" − non-torch " + gib(r.NonTorchGiB) + " = available KV cache memory " + gib(r.KVCacheGiB) + " GiB per device\n"
	if !r.Starts {
		return s + "vLLM does not start: " + r.Reason + "\n"
	}
	return s + "vLLM starts: GPU KV cache size " + strconv.FormatInt(r.KVCacheTokens, 10) + " tokens; maximum concurrency for " +
		strconv.Itoa(e.Bounds.ContextTokens) + " tokens per request: " + strconv.FormatFloat(r.MaxConcurrency, 'f', 2, 64) + "x\n"
}

// RunRaw answers the question for a raw query string or permalink fragment (the API's, the
// page's).
func RunRaw(raw string) (fit.Estimate, error) {
	t, d, err := ParseRawQuery(raw)
	if err != nil {
		return fit.Estimate{}, err
	}
	return fit.EstimateOn(t, d)
}
