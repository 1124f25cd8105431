package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// The command lines the issues wrote out, each run as written. Scripts rely on them: a flag, a
// command or a JSON key here may be added to, never renamed. (Other tests hold the figures;
// these hold the names, shapes and exit statuses.)

// keysOf is the sorted key set of a JSON object.
func keysOf(t *testing.T, text string) []string {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		t.Fatalf("%v in %q", err, text)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Issue 2: `fitclaim claim MODEL [--min-tps N] [--efficiency N] [--quant Q] [--template] [--name N]
// [--device-class C] [--json]`, llmfit's flags and defaults; issue 4: `--sizing`, `--context`,
// `--sequences`, `--kv-cache`, `--driver`, `--count`, `--params`, `--layers`, `--kv-heads`,
// `--head-dim`, `--active-params`. Each flag is its permalink key: the same bytes.
func TestIssueClaimFlags(t *testing.T) {
	cases := []struct {
		args []string
		link string
	}{
		{[]string{"NousResearch/Llama-2-7b-chat-hf", "--min-tps", "30", "--efficiency", "60", "--quant", "Q8_0", "--template",
			"--name", "my-claim", "--device-class", "gpu.example.com"},
			"m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60&q=Q8_0&tpl=1&name=my-claim&dc=gpu.example.com"},
		{[]string{"--params", "12", "--active-params", "3", "--layers", "40", "--kv-heads", "8", "--head-dim", "128",
			"--sizing", "kv", "--context", "4096", "--sequences", "2", "--kv-cache", "fp8", "--driver", "nvidia", "--count", "2"},
			"p=12&ap=3&L=40&kvh=8&hd=128&s=kv&ctx=4096&seq=2&kv=fp8&drv=nvidia&n=2"},
	}
	for _, c := range cases {
		tg, err := target.ParsePermalink(c.link)
		if err != nil {
			t.Fatal(err)
		}
		want, err := claim.Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		out, errOut, code := runCLI(append([]string{"claim"}, c.args...)...)
		if code != 0 || out != want.YAML {
			t.Errorf("claim %q: exit %d (%s), not the bytes of #%s", c.args, code, errOut, c.link)
		}
		out, _, code = runCLI(append([]string{"claim", "--json"}, c.args...)...)
		if code != 0 || out != want.JSON+"\n" {
			t.Errorf("claim --json %q: exit %d, not the bytes of #%s", c.args, code, c.link)
		}
	}
	// llmfit's defaults and JSON: ten keys, alphabetical, minTps written 20.0 (issue 2).
	out, _, code := runCLI("claim", "NousResearch/Llama-2-7b-chat-hf", "--json")
	want := []string{"claimName", "deviceClass", "efficiencyPct", "memoryGi", "minBandwidthGBs", "minTps", "model", "quant", "resolverVersion", "weightsGb"}
	if code != 0 || !slices.Equal(keysOf(t, out), want) || !strings.Contains(out, `"minTps": 20.0,`) ||
		!strings.Contains(out, `"efficiencyPct": 55,`) || !strings.Contains(out, `"resolverVersion": "`+claim.Version+`"`) {
		t.Errorf("exit %d: %s", code, out)
	}
	// Issue 4: kv mode adds sizing, contextTokens, sequences, kvCache, kvCacheGi, activeParamsB.
	out, _, code = runCLI("claim", "Qwen/Qwen3-30B-A3B-Instruct-2507", "--sizing", "kv", "--json")
	keys := keysOf(t, out)
	for _, k := range []string{"sizing", "contextTokens", "sequences", "kvCache", "kvCacheGi", "activeParamsB"} {
		if code != 0 || !slices.Contains(keys, k) {
			t.Errorf("kv JSON lacks %s: %s", k, out)
		}
	}
	// Issue 2: "Errors go to stderr with exit status 1; usage errors exit 2."
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"claim", "NousResearch/Llama-2-7b-chat-hf", "--efficiency", "500"}, exitError},
		{[]string{"claim", "no-such-model-anywhere"}, exitError},
		{[]string{"claim", "NousResearch/Llama-2-7b-chat-hf", "--no-such-flag"}, exitUsage},
		{[]string{"no-such-command"}, exitUsage},
	} {
		out, errOut, code := runCLI(c.args...)
		if code != c.code || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and the message on stderr", c.args, code, out, errOut, c.code)
		}
	}
}

// Issue 12 §4: "a name without its org resolves to the most-downloaded exact match and says
// which": the claim of the full name, and a warning on stderr.
func TestIssueNameWithoutOrg(t *testing.T) {
	full, _, _ := runCLI("claim", "meta-llama/Llama-3.1-8B-Instruct")
	out, errOut, code := runCLI("claim", "llama-3.1-8b-instruct")
	if code != 0 || out != full || !strings.Contains(errOut, "took meta-llama/Llama-3.1-8B-Instruct, the most downloaded") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// an ambiguous name "offers the top ten"
	_, errOut, code = runCLI("claim", "qwen")
	_, listed, _ := strings.Cut(errOut, " models: ")
	listed, _, _ = strings.Cut(listed, ", …; give the full name")
	if names := strings.Split(listed, ", "); code != exitError || len(names) != 10 || names[0] != "Qwen/Qwen3-VL-2B-Instruct" {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// Issue 2 / 3: `fitclaim models [QUERY]`; its JSON is the bridge's `[{name, paramsB, quant,
// contextLength, moe}]`; issue 9: `--json=false` prints the table, not JSON.
func TestIssueModels(t *testing.T) {
	out, _, code := runCLI("models", "qwen3", "--json", "--limit", "3")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 3 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	for _, m := range list {
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"contextLength", "moe", "name", "paramsB", "quant"}) {
			t.Errorf("model keys %v", keys)
		}
		if _, ok := m["moe"].(bool); !ok {
			t.Errorf("moe is not a boolean: %v", m)
		}
	}
	out, _, code = runCLI("models", "qwen3", "--json=false")
	if code != 0 || !strings.HasPrefix(out, "MODEL") {
		t.Errorf("--json=false: exit %d: %s", code, out)
	}
}

// Issue 11 § 5 and issue 13: every flag of `fitclaim estimate`'s synopsis is read, and the JSON is
// the issues' object: with --engine vllm it adds engine (naming the version modelled),
// kvCacheGiB, kvCacheTokens, maxConcurrency and starts, and maxModelLen and reason only when vLLM
// would not start; kvCacheGiB goes negative when weights and reserve exceed the budget. Both
// verdicts exit 0.
func TestIssueEstimate(t *testing.T) {
	synopsis := []string{"estimate", "--params", "8", "--active-params", "8", "--layers", "32", "--kv-heads", "8", "--head-dim", "128",
		"--quant", "BF16", "--context", "4096", "--sequences", "2", "--kv-cache", "fp8", "--count", "2",
		"--memory", "24", "--bandwidth", "1000", "--family", "nvidia-unified", "--unified", "--json"}
	out, errOut, code := runCLI(synopsis...)
	if code != 0 || !slices.Equal(keysOf(t, out), []string{"fits", "maxContextTokens", "maxSequences", "needGiB", "tokensPerSecond", "usableGiB"}) {
		t.Errorf("exit %d (%s): %s", code, errOut, out)
	}
	// issue 11 § 3: unified memory gives "the platform's GPU share, 75 % on macOS": 48 of 64 GiB
	if out, _, _ := runCLI("estimate", "--params", "8", "--memory", "64", "--bandwidth", "546", "--family", "apple", "--unified", "--json"); !strings.Contains(out, `"usableGiB":48,`) {
		t.Errorf("64 GiB unified on apple: %s", out)
	}
	// issue 13: "--on NAME converts its driver figure itself": an H100 80GB is 79.18 GiB as CUDA sees it
	if out, _, _ := runCLI("estimate", "Qwen/Qwen3-8B", "--on", "nvidia-h100-sxm", "--engine", "vllm", "--json"); !strings.Contains(out, `"usableGiB":79.18,`) {
		t.Errorf("--on nvidia-h100-sxm --engine vllm: %s", out)
	}
	// issue 11 § 2: "KV cache in fp16/bf16, fp8, q8_0, q4_0": --kv-cache bf16 is the 16-bit cache
	fp16, _, _ := runCLI("estimate", "Qwen/Qwen3-8B", "--on", "nvidia-l4", "--context", "32768", "--kv-cache", "fp16", "--json")
	bf16, errOut, code := runCLI("estimate", "Qwen/Qwen3-8B", "--on", "nvidia-l4", "--context", "32768", "--kv-cache", "bf16", "--json")
	if code != 0 || bf16 != fp16 {
		t.Errorf("--kv-cache bf16: exit %d (%s): %s, fp16's %s", code, errOut, bf16, fp16)
	}
	for _, c := range []struct {
		args   []string
		keys   []string
		starts bool
	}{
		{[]string{"Qwen/Qwen3-8B", "--on", "nvidia-h100-sxm", "--engine", "vllm", "--gpu-memory-utilization", "0.8",
			"--max-num-seqs", "64", "--max-num-batched-tokens", "4096"},
			[]string{"engine", "fits", "kvCacheGiB", "kvCacheTokens", "maxConcurrency", "maxContextTokens", "maxSequences", "needGiB", "starts", "tokensPerSecond", "usableGiB"}, true},
		{[]string{"meta-llama/Llama-3.3-70B-Instruct", "--on", "nvidia-l4", "--engine", "vllm"},
			[]string{"engine", "fits", "kvCacheGiB", "kvCacheTokens", "maxConcurrency", "maxContextTokens", "maxModelLen", "maxSequences", "needGiB", "reason", "starts", "usableGiB"}, false},
	} {
		out, errOut, code := runCLI(append(append([]string{"estimate"}, c.args...), "--json")...)
		if code != 0 || !slices.Equal(keysOf(t, out), c.keys) {
			t.Errorf("%q: exit %d (%s): %s", c.args, code, errOut, out)
			continue
		}
		var e struct {
			Engine      string
			KVCacheGiB  float64
			Starts      bool
			Fits        bool
			MaxModelLen *int
		}
		if err := json.Unmarshal([]byte(out), &e); err != nil {
			t.Fatal(err)
		}
		if e.Starts != c.starts || !strings.Contains(e.Engine, "v0.11–v0.20") ||
			(!c.starts && (e.KVCacheGiB >= 0 || e.MaxModelLen == nil || *e.MaxModelLen != 0)) {
			t.Errorf("%q: %s", c.args, out)
		}
	}
}

// Issue 12 § 1: `fitclaim check --slices FILE|- [every fitclaim claim flag] [--json]`, the JSON
// `{"allocatable": bool, "devices": [{"node", "driver", "pool", "device", "matches": bool,
// "request": the matching sub-request's name, "reasons": [...]}]}`.
func TestIssueCheck(t *testing.T) {
	data, err := os.ReadFile("../../cluster/testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stdin = strings.NewReader(string(data))
	defer func() { stdin = os.Stdin }()
	out, errOut, code := runCLI("check", "--slices", "-", "Qwen/Qwen3-8B", "--min-tps", "20", "--efficiency", "55", "--quant", "Q4_K_M",
		"--template", "--name", "c", "--device-class", "gpu.nvidia.com", "--driver", "nvidia", "--count", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Allocatable *bool
		Devices     []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Allocatable == nil || !*r.Allocatable || len(r.Devices) == 0 {
		t.Fatalf("%v: %s", err, out)
	}
	if !slices.Equal(keysOf(t, out), []string{"allocatable", "devices"}) {
		t.Errorf("top-level keys: %s", out)
	}
	matched := false
	for _, d := range r.Devices {
		for _, k := range []string{"node", "driver", "pool", "device", "request"} {
			if _, ok := d[k].(string); !ok {
				t.Errorf("device %v: %s is not a string", d, k)
			}
		}
		m, ok := d["matches"].(bool)
		if _, isList := d["reasons"].([]any); !ok || !isList {
			t.Errorf("device %v: matches not a boolean or reasons not a list", d)
		}
		if m {
			matched = true
			if d["request"] != "model" {
				t.Errorf("a matching device names request %v", d["request"])
			}
		}
	}
	if !matched {
		t.Errorf("no device matches: %s", out)
	}
}

// Issue 12 § 2: `fitclaim deploy MODEL [every claim flag] [--engine vllm|llama.cpp] [--image
// IMAGE]` writes the ResourceClaimTemplate, an apps/v1 Deployment whose pod references it
// (spec.resourceClaims and the container's resources.claims) and a v1 Service; vLLM (the
// default) gets the model (positional), --tensor-parallel-size (the devices), --max-model-len (the context),
// --max-num-seqs (the sequences), --gpu-memory-utilization and --kv-cache-dtype fp8 for an fp8
// cache; llama.cpp's server --ctx-size, --parallel and -ngl. Issue 13: the header says "vLLM
// starts: N requests of L tokens at once".
func TestIssueDeploy(t *testing.T) {
	out, errOut, code := runCLI("deploy", "Qwen/Qwen3-8B", "--quant", "BF16", "--sizing", "kv", "--context", "8192", "--sequences", "4",
		"--kv-cache", "fp8", "--driver", "nvidia", "--count", "2", "--image", "reg.example/vllm:1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	docs := strings.Split(out, "\n---\n")
	if len(docs) != 3 || !strings.Contains(docs[0], "kind: ResourceClaimTemplate\n") ||
		!strings.Contains(docs[1], "apiVersion: apps/v1\nkind: Deployment\n") || !strings.Contains(docs[2], "apiVersion: v1\nkind: Service\n") {
		t.Fatalf("not the three documents:\n%s", out)
	}
	for _, want := range []string{"resourceClaims:\n        - name: gpus\n          resourceClaimTemplateName: \"qwen-qwen3-8b-fit\"",
		"resources:\n            claims:\n              - name: gpus", `image: "reg.example/vllm:1"`,
		"args:\n            - \"Qwen/Qwen3-8B\"\n            - \"--tensor-parallel-size\"\n            - \"2\"",
		"- \"--max-model-len\"\n            - \"8192\"", "- \"--max-num-seqs\"\n            - \"4\"", "- \"--gpu-memory-utilization\"",
		"- \"--kv-cache-dtype\"\n            - \"fp8\""} {
		if !strings.Contains(docs[1], want) {
			t.Errorf("the Deployment lacks %q", want)
		}
	}
	if !strings.Contains(out+errOut, "vLLM starts: 4 requests of 8192 tokens at once") {
		t.Errorf("no \"vLLM starts\" line:\n%s", errOut)
	}
	out, errOut, code = runCLI("deploy", "Qwen/Qwen3-8B", "--sizing", "kv", "--context", "4096", "--sequences", "2", "--engine", "llama.cpp", "--driver", "amd")
	if code != 0 {
		t.Fatalf("llama.cpp: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"- \"--ctx-size\"\n            - \"8192\"", "- \"--parallel\"\n            - \"2\"", "- \"-ngl\""} {
		if !strings.Contains(out, want) {
			t.Errorf("llama.cpp's Deployment lacks %q", want)
		}
	}
}
