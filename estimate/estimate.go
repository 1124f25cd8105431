// Package estimate is the reverse question — "I have this hardware: does the model fit, how fast
// does it run?" — as the command line, the HTTP API and the page ask it: a query in, the verdict
// as JSON or text out. The physics is fit.EstimateOn; this package reads and writes it, so every
// surface gives the same bytes.
package estimate

import (
	"math"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// DeviceKeys are the query keys of the device, beside the target's keys (each is also the
// field's name and, prefixed with --, its flag).
var DeviceKeys = []string{"on", "memory", "bandwidth", "family", "unified"}

// TargetFlags are the target's flags the estimate command accepts (the contract's), by field.
var TargetFlags = map[string]string{
	"params": "paramsB", "active-params": "activeParamsB", "layers": "layers", "kv-heads": "kvHeads",
	"head-dim": "headDim", "quant": "quant", "context": "context", "sequences": "sequences",
	"kv-cache": "kvCache", "count": "count",
}

// ParseQuery reads a target and a device from query pairs: the device keys here, the rest by
// claim's codec (the claim's defaults).
func ParseQuery(v claim.Values) (fit.Target, fit.Device, error) {
	rest := claim.Values{}
	var d fit.Device
	for k, vals := range v {
		if !isDeviceKey(k) {
			rest[k] = vals
			continue
		}
		if len(vals) != 1 {
			return fit.Target{}, d, fit.NewFieldError(k, "given "+strconv.Itoa(len(vals))+" times; give it once")
		}
		if err := setDevice(&d, k, vals[0]); err != nil {
			return fit.Target{}, d, err
		}
	}
	t, err := claim.ParseQuery(rest)
	return t, d, err
}

// ParseRawQuery reads a raw query string or permalink fragment.
func ParseRawQuery(raw string) (fit.Target, fit.Device, error) {
	v := claim.Values{}
	for _, pair := range strings.Split(strings.TrimPrefix(raw, "#"), "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err1 := unescape(k)
		value, err2 := unescape(val)
		if err1 != nil || err2 != nil {
			return fit.Target{}, fit.Device{}, &fit.FieldError{Field: "query", Msg: "invalid percent-encoding in " + strconv.Quote(pair)}
		}
		v[key] = append(v[key], value)
	}
	return ParseQuery(v)
}

func isDeviceKey(k string) bool {
	for _, d := range DeviceKeys {
		if k == d {
			return true
		}
	}
	return false
}

func setDevice(d *fit.Device, key, v string) error {
	number := func(p *float64) error {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fit.NewFieldError(key, "must be a finite decimal number (got "+strconv.Quote(v)+")")
		}
		*p = x
		return nil
	}
	switch key {
	case "on":
		d.On = v
	case "memory":
		return number(&d.MemoryGiB)
	case "bandwidth":
		return number(&d.BandwidthGBs)
	case "family":
		d.Family = v
	case "unified":
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "1", "true", "yes", "on":
			d.Unified = true
		case "0", "false", "no", "off", "":
			d.Unified = false
		default:
			return fit.NewFieldError(key, "must be 1 or 0 (got "+strconv.Quote(v)+")")
		}
	}
	return nil
}

// unescape is query unescaping ('+' is a space).
func unescape(s string) (string, error) {
	s = strings.ReplaceAll(s, "+", " ")
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", strconv.ErrSyntax
		}
		n, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", err
		}
		b.WriteByte(byte(n))
		i += 2
	}
	return b.String(), nil
}

// Run answers the question for a query.
func Run(v claim.Values) (fit.Estimate, error) {
	t, d, err := ParseQuery(v)
	if err != nil {
		return fit.Estimate{}, err
	}
	return fit.EstimateOn(t, d)
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// JSON is the contract's object, exactly: fits, needGiB, usableGiB, tokensPerSecond (only when it
// fits), maxContextTokens, maxSequences, reason (only when it does not fit). GiB to 2 decimals,
// tokens/s to 1.
func JSON(e fit.Estimate) string {
	var w jsontext.Writer
	w.BeginObject()
	w.Key("fits")
	w.Bool(e.Fits)
	w.Key("needGiB")
	w.Num(round(e.NeedGiB, 2))
	w.Key("usableGiB")
	w.Num(round(e.UsableGiB, 2))
	if e.Fits {
		w.Key("tokensPerSecond")
		w.Num(round(e.TokensPerSecond, 1))
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
		w.Num(round(r.KVCacheGiB, 2))
		w.Key("kvCacheTokens")
		w.Int(r.KVCacheTokens)
		w.Key("maxConcurrency")
		w.Num(round(r.MaxConcurrency, 2))
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
	return w.String()
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
	s.WriteString("speed: " + strconv.FormatFloat(round(e.TokensPerSecond, 1), 'f', 1, 64) + " tokens/s per sequence (calibrated: " +
		strconv.FormatFloat(e.Efficiency*100, 'f', 1, 64) + " % of " + strconv.FormatFloat(e.Device.BandwidthGBs, 'f', -1, 64) +
		" GB/s for the " + e.Device.Family + " family, " + strconv.FormatFloat(e.OverheadSeconds*1e3, 'f', 2, 64) + " ms overhead per token")
	if e.CommSeconds > 0 {
		s.WriteString(", " + strconv.FormatFloat(e.CommSeconds*1e3, 'f', 2, 64) + " ms between devices, not calibrated")
	}
	s.WriteString(")\n")
	if r := e.VLLM; r != nil {
		s.WriteString(vllmText(e, r))
	}
	s.WriteString("longest context: " + strconv.FormatInt(e.MaxContextTokens, 10) + " tokens × " + fit.SequencesText(b.Target.Sequences) +
		"; most sequences at " + strconv.Itoa(b.ContextTokens) + " tokens: " + strconv.FormatInt(e.MaxSequences, 10) + "\n")
	return s.String()
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
