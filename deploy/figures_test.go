package deploy

import (
	"errors"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// No output prints a figure it could not have meant: a negative term added ("+ -0.84", which the
// vLLM reserve printed when its pool model held less than the kv line's cache), a negative one
// taken away, or a number that is not one (NaN, ±Inf). Every surface is checked for every
// target: the claim's YAML, JSON and words, its table's speeds, the deployment, the estimate's
// text and JSON.
var badFigures = []string{"+ -", "− -", "- -", "NaN", "Inf"}

// randomTarget draws a valid target from seed: a catalog model (or a custom size), either sizing,
// either engine, any driver and device count, contexts up to 16M, up to 4096 sequences, the vLLM
// arguments, a KV type, and a device for the estimate. Nothing user-typed is free text, so a bad
// figure can only come from the arithmetic.
func randomTarget(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	models := catalog.Models()
	accels := catalog.Accelerators()
	v := map[string]string{}
	if r.IntN(8) == 0 {
		v["p"] = strconv.FormatFloat(math.Exp(r.Float64()*12-2), 'f', 3, 64)
	} else {
		v["m"] = models[r.IntN(len(models))].Name
	}
	if r.IntN(5) > 0 {
		v["s"] = "kv"
	}
	if v["s"] == "kv" && r.IntN(4) == 0 { // an architecture given or overridden
		v["L"] = strconv.Itoa(1 + r.IntN(128))
		v["kvh"] = pick("1", "8", "64")
		v["hd"] = pick("64", "128", "512")
		switch r.IntN(4) {
		case 0:
			v["att"], v["sw"], v["sl"] = "gqa", pick("128", "4096"), v["L"]
		case 1:
			v["att"], v["fal"] = "hybrid", "1"
		case 2:
			v["att"], v["csal"], v["hcal"], v["sw"] = "csa", "1", "1", "128"
		}
	}
	v["engine"] = pick("vllm", "vllm", "llama.cpp", "")
	v["ctx"] = pick("0", "1", "4096", "32768", "131072", "1048576", "16777216", strconv.Itoa(1+r.IntN(1<<20)))
	v["seq"] = pick("1", "4", "64", "256", "4096")
	v["n"] = strconv.Itoa(1 + r.IntN(8))
	v["kv"] = pick("fp16", "fp8", "q8_0", "q4_0")
	v["drv"] = pick("llmfit", "nvidia", "amd", "intel", "any")
	v["tps"] = pick("1", "20", "100", "0.01")
	if v["engine"] == "vllm" && r.IntN(3) == 0 {
		v["gmu"] = pick("0.05", "0.5", "0.9", "0.95", "1")
	}
	if v["engine"] == "vllm" && r.IntN(4) == 0 {
		v["mns"] = pick("1", "8", "256", "1024")
		v["mbt"] = pick("1", "512", "8192", "65536")
	}
	if r.IntN(4) == 0 {
		v["eff"] = strconv.Itoa(1 + r.IntN(100))
	}
	if r.IntN(2) == 0 {
		v["on"] = accels[r.IntN(len(accels))].ID
	} else {
		v["memory"] = strconv.FormatFloat(math.Exp(r.Float64()*7), 'f', 2, 64)
		v["bandwidth"] = strconv.Itoa(50 + r.IntN(8000))
		v["family"] = pick("nvidia", "amd", "apple", "intel", "other")
	}
	var q []string
	for _, k := range []string{"m", "p", "s", "L", "kvh", "hd", "att", "sw", "sl", "fal", "csal", "hcal", "engine", "ctx", "seq", "n", "kv", "drv", "tps", "gmu", "mns", "mbt", "eff", "on", "memory", "bandwidth", "family"} {
		if x, ok := v[k]; ok {
			q = append(q, k+"="+url.QueryEscape(x))
		}
	}
	return strings.Join(q, "&")
}

// checkFigures renders every surface for the query and fails on a bad figure.
func checkFigures(t *testing.T, q string) {
	t.Helper()
	bad := func(what, s string) {
		t.Helper()
		for _, b := range badFigures {
			if i := strings.Index(s, b); i >= 0 {
				t.Fatalf("%s: %s prints %q: …%s…", q, what, b, s[max(0, i-120):min(len(s), i+60)])
			}
		}
	}
	isFieldError := func(err error) bool {
		var fe *target.FieldError
		return errors.As(err, &fe)
	}
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatalf("%s: the generator made an invalid target: %v", q, err)
	}
	if containsBad(tg.Model) {
		return // a catalog name that holds a pattern itself (none does today)
	}
	if c, err := claim.Render(tg); err == nil {
		bad("claim YAML", c.YAML)
		bad("claim JSON", c.JSON)
		e := claim.Explain(&c)
		for _, l := range e.Lines {
			bad("explanation", l.Text)
		}
		bad("verdict", e.Verdict)
		for _, w := range c.Warnings {
			bad("warning", w)
		}
		for _, m := range c.Matches {
			for _, x := range []float64{m.EstTps, m.HeadroomPct, m.NeededTps} {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s: %s's table row holds %v", q, m.Accelerator.Name, x)
				}
			}
			bad("table verdict", m.Verdict)
		}
	} else if !isFieldError(err) {
		t.Fatalf("%s: claim: %v", q, err)
	}
	if d, err := Render(tg); err == nil {
		bad("deployment", d.YAML)
		bad("deploy summary", d.Summary)
		for _, p := range d.Problems {
			bad("deploy problem", p)
		}
	} else if !isFieldError(err) {
		t.Fatalf("%s: deploy: %v", q, err)
	}
	if e, err := estimate.RunRaw(q); err == nil {
		bad("estimate text", estimate.Text(e))
		bad("estimate JSON", estimate.JSON(e))
	} else if !isFieldError(err) {
		t.Fatalf("%s: estimate: %v", q, err)
	}
}

func containsBad(s string) bool {
	for _, b := range badFigures {
		if strings.Contains(s, b) {
			return true
		}
	}
	return false
}

// The targets that printed a negative term before, and a sweep of drawn ones.
func TestNoBadFigure(t *testing.T) {
	for _, q := range []string{
		// the vLLM reserve's "+ -0.84 outside --gpu-memory-utilization": the pool held no recurrent state
		"m=Qwen%2FQwen3.6-35B-A3B-FP8&s=kv&engine=vllm&ctx=131072&seq=64",
		"m=Qwen%2FQwen3.6-35B-A3B-FP8&s=kv&engine=vllm&ctx=1048576&seq=64&gmu=1&n=3",
		// and "+ -0.47": the pool held no windows nor compressor state
		"m=deepseek-ai%2FDeepSeek-V4-Pro&s=kv&engine=vllm&ctx=131072&seq=64&n=8",
		"m=Qwen%2FQwen3.5-397B-A17B&s=kv&engine=vllm&ctx=262144&seq=256&n=8&on=nvidia-h100-sxm",
	} {
		checkFigures(t, q)
	}
	n := 300
	if testing.Short() {
		n = 120
	}
	for seed := range uint64(n) {
		checkFigures(t, randomTarget(seed))
	}
}

// FuzzNoBadFigure draws targets from arbitrary seeds (go test -fuzz FuzzNoBadFigure -fuzztime 5s).
func FuzzNoBadFigure(f *testing.F) {
	for _, s := range []uint64{0, 1, 42, 1 << 40} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkFigures(t, randomTarget(seed)) })
}
