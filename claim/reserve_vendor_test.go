package claim

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// An AMD or Intel claim is sized with reserves measured under CUDA (fit/runtime_words.go): its
// header says so on a line of its own and its JSON names the runtime they were measured on; an
// NVIDIA claim, and llmfit's mode, say nothing new.
func TestReserveMeasuredOnCUDA(t *testing.T) {
	cases := []struct {
		driver, engine string
		line           string // the reserve line, unwrapped; "" = none
	}{
		{"amd", "", "reserve: its 451 MiB ROCm/HIP context is llama.cpp's CUDA context on RTX 4090s, used as an estimate for HIP: no public HIP start-up log measures it"},
		{"intel", "vllm", "reserve: vLLM's activation peak, non-torch memory, XPU graphs and the share the driver keeps are CUDA measurements on NVIDIA boards (data/vllm-train.tsv), used as an estimate for Level Zero: no public Level Zero start-up log measures it"},
		{"nvidia", "vllm", ""},
		{"any", "", ""}, // its Deployment runs the CUDA build
	}
	for _, c := range cases {
		tg := target.Default()
		tg.Model, tg.Sizing, tg.Driver, tg.Engine = "Qwen/Qwen2.5-7B-Instruct", "kv", c.driver, c.engine
		r, err := RenderVersion(tg, "9.9.9-test")
		if err != nil {
			t.Fatal(err)
		}
		header := unwrapHeader(parseYAML(t, r.YAML).header)
		got := ""
		for _, l := range header {
			if strings.HasPrefix(l, "reserve:") {
				got = l
			}
		}
		if got != c.line {
			t.Errorf("%s/%s: reserve line %q, want %q", c.driver, c.engine, got, c.line)
		}
		hasKey := strings.Contains(r.JSON, `"reserveMeasuredOn": "CUDA",`)
		if hasKey != (c.line != "") {
			t.Errorf("%s/%s: reserveMeasuredOn in the JSON = %v, want %v:\n%s", c.driver, c.engine, hasKey, c.line != "", r.JSON)
		}
	}
	// llmfit's mode on AMD keeps its bytes: no such line, no such key.
	tg := target.Default()
	tg.Model, tg.Driver = "Qwen/Qwen2.5-7B-Instruct", "amd"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.YAML, "reserve:") || strings.Contains(r.JSON, "reserveMeasuredOn") {
		t.Errorf("llmfit mode speaks of the reserve's runtime:\n%s\n%s", r.YAML, r.JSON)
	}
}

// unwrapHeader joins each header field's continuation lines ("#         …") to it, without "# ".
func unwrapHeader(lines []string) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimPrefix(l, "# ")
		if strings.HasPrefix(l, "        ") && len(out) > 0 {
			out[len(out)-1] += " " + strings.TrimSpace(l)
			continue
		}
		out = append(out, l)
	}
	return out
}
