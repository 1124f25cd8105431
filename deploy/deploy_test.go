package deploy

import (
	"errors"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

func mustTarget(t *testing.T, link string) target.Target {
	t.Helper()
	tg, err := target.ParsePermalink(link)
	if err != nil {
		t.Fatalf("%s: %v", link, err)
	}
	return tg
}

// with is the engine and image a test sets on a target.
type with struct{ Engine, Image string }

func mustRender(t *testing.T, link string, o with) Result {
	t.Helper()
	tg := mustTarget(t, link)
	tg.Engine, tg.Image = o.Engine, o.Image
	r, err := Render(tg)
	if err != nil {
		t.Fatalf("%s: %v", link, err)
	}
	return r
}

// Hand-written arguments for a few targets; the figures in the comments are worked by hand from
// the catalog rows (parameters_raw, layers, KV heads, head size).
func TestArgs(t *testing.T) {
	cases := []struct {
		name, link string
		o          with
		image      string
		args       []string
		starts     bool
		summary    string
	}{{
		// Qwen2.5-7B-Instruct-AWQ on 2 devices, 4 × 8192 tokens. The smallest product the NVIDIA
		// claim (6 Gi per device) admits is the T4: 14.74 GiB as CUDA sees it. Weights: fit's AWQ
		// bytes with scales for the linear layers, the embedding and LM head (2 × 152,064 × 3584 =
		// 1,089,994,752) in 16 bits: (5,785,780,224 − 1,089,994,752) × 0.51953125 + 1,089,994,752 × 2
		// = 4,619,596,800 B = 4.30 GiB, 2.15 GiB per device; activation (2048 batched tokens
		// on a small device, 4 sampled rows): 9.52 × 4 × 152,064 × 4 B + 1.43 × 2048 × 3584 × 2 B =
		// 0.0216 + 0.0196 = 0.041 GiB; non-torch (tensor parallel) 0.55 GiB. KV per token per
		// device: 2 × 28 layers × 4/2 heads × 128 × 2 B = 28,672 B; 4 × 8192 tokens = 0.875 GiB.
		// Need (2.15 + 0.041 + 0.55 + 0.875) / 14.74 = 0.25 of the device, under vLLM's default
		// 0.90, which stays. Pool: 0.90 × 14.74 − 2.15 − 0.041 − 0.55 = 10.52 GiB, 48 requests of
		// 8192 tokens (0.21875 GiB each); --max-num-seqs 4 holds 4. AWQ comes from the checkpoint:
		// no --quantization.
		name: "AWQ over 2 devices", link: "m=Qwen%2FQwen2.5-7B-Instruct-AWQ&s=kv&ctx=8192&seq=4&drv=nvidia&n=2",
		image: "vllm/vllm-openai:v0.20.0",
		args: []string{"Qwen/Qwen2.5-7B-Instruct-AWQ", "--tensor-parallel-size", "2", "--max-model-len", "8192",
			"--max-num-seqs", "4", "--gpu-memory-utilization", "0.90"},
		starts: true, summary: "vLLM starts: 4 requests of 8192 tokens at once",
	}, {
		// Qwen3-8B in BF16 with an fp8 KV cache, 2 × 4096 tokens: the claim's floor under vLLM
		// (20 Gi) and bandwidth (463 GB/s) admit the A10G at the smallest: 23,028 MiB = 22.49 GiB
		// less the driver's 0.44 = 22.05 GiB. Weights 8,190,735,360 × 2 B = 15.257 GiB; activation
		// 9.52 × 2 × 151,936 × 4 B + 1.43 × 2048 × 4096 × 2 B = 0.011 + 0.022 = 0.033 GiB;
		// non-torch 0.112. Pool 0.90 × 22.05 − 15.257 − 0.033 − 0.112 = 4.44 GiB; a request: 2 × 36
		// × 8 × 128 × 1 B × 4096 = 0.281 GiB → 15.8 at once; 2 held.
		name: "BF16 with an fp8 KV cache", link: "m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096&seq=2&kv=fp8&drv=nvidia",
		image: "vllm/vllm-openai:v0.20.0",
		args: []string{"Qwen/Qwen3-8B", "--tensor-parallel-size", "1", "--max-model-len", "4096",
			"--max-num-seqs", "2", "--gpu-memory-utilization", "0.90", "--kv-cache-dtype", "fp8", "--dtype", "bfloat16"},
		starts: true, summary: "vLLM starts: 2 requests of 4096 tokens at once",
	}, {
		// The same model under llmfit's sizing at 32,768 tokens: the floor is the weights × 1.2
		// (a quant override) = 16.38 GB × 1.2 = 19.66 → 20 Gi, any llmfit.ai device of 20 Gi:
		// 20 − 0.44 = 19.56 GiB as CUDA sees it. Need (15.257 + 0.028 activation + 0.112 +
		// 147,456 B × 32,768 = 4.5 GiB) / 19.56 = 1.02 of the device: more than the 0.94 that
		// leaves the 1.12 GiB of CUDA graphs room (⌊(19.56 − 1.12) / 19.56 × 100⌋ / 100), so 0.94:
		// pool 0.94 × 19.56 − 15.397 = 2.99 GiB < 4.5 GiB: vLLM does not start.
		name: "does not start", link: "m=Qwen%2FQwen3-8B&q=BF16&ctx=32768",
		image: "vllm/vllm-openai:v0.20.0",
		args: []string{"Qwen/Qwen3-8B", "--tensor-parallel-size", "1", "--max-model-len", "32768",
			"--max-num-seqs", "1", "--gpu-memory-utilization", "0.94", "--dtype", "bfloat16"},
		summary: "vLLM does not start on the claimed devices: To serve at least one request with the model's max seq len (32768), (4.50 GiB KV cache is needed, which is larger than the available KV cache memory (2.99 GiB).",
	}, {
		// Q8_0 on a 16-bit checkpoint: vLLM quantizes to fp8 as it loads. On 4 T4s (14.74 GiB):
		// weights 8,190,735,360 × 1.05 B / 4 = 2.002 GiB per device, activation 0.028, non-torch
		// 0.55: pool 0.90 × 14.74 − 2.58 = 10.69 GiB, far more than one 2048-token request.
		name: "Q8_0 as fp8", link: "m=Qwen%2FQwen3-8B&q=Q8_0&s=kv&ctx=2048&drv=nvidia&n=4",
		image: "vllm/vllm-openai:v0.20.0",
		args: []string{"Qwen/Qwen3-8B", "--tensor-parallel-size", "4", "--max-model-len", "2048",
			"--max-num-seqs", "1", "--gpu-memory-utilization", "0.90", "--quantization", "fp8"},
		starts: true, summary: "vLLM starts: 1 request of 2048 tokens at once",
	}, {
		// llama.cpp: one context pool of 8192 × 4 = 32,768 tokens shared by 4 slots; AMD → ROCm image.
		// A q8_0 V cache needs flash attention: --flash-attn on (llama.cpp's on|off|auto form).
		// The model's own format in kv mode is its release format, BF16 (fit.ReleaseFormat).
		// Qwen/Qwen3-8B holds safetensors only: -hf names its GGUF re-upload unsloth/Qwen3-8B-GGUF.
		name: "llama.cpp on AMD", link: "m=Qwen%2FQwen3-8B&s=kv&ctx=8192&seq=4&kv=q8_0&drv=amd",
		o:     with{Engine: "llama.cpp"},
		image: "ghcr.io/ggml-org/llama.cpp:server-rocm-b9603",
		args: []string{"-hf", "unsloth/Qwen3-8B-GGUF:BF16", "--ctx-size", "32768", "--parallel", "4", "-ngl", "999",
			"--host", "0.0.0.0", "--port", "8080", "--cache-type-k", "q8_0", "--cache-type-v", "q8_0", "--flash-attn", "on"},
		starts: true, summary: "llama.cpp starts: 4 slots of 8192 tokens",
	}, {
		// The image override replaces the pinned one and nothing else.
		name: "image override", link: "m=Qwen%2FQwen3-8B&s=kv&ctx=1024",
		o:     with{Engine: "llama.cpp", Image: "registry.example/llama.cpp:server-cuda12-b1@sha256:abc"},
		image: "registry.example/llama.cpp:server-cuda12-b1@sha256:abc",
		args: []string{"-hf", "unsloth/Qwen3-8B-GGUF:BF16", "--ctx-size", "1024", "--parallel", "1", "-ngl", "999",
			"--host", "0.0.0.0", "--port", "8080"},
		starts: true, summary: "llama.cpp starts: 1 slot of 1024 tokens",
	}, {
		// A GGUF repository is downloaded from as it is.
		name: "a GGUF repository", link: "m=unsloth%2Fgpt-oss-20b-GGUF&s=kv&ctx=4096&q=Q4_K_M",
		o:     with{Engine: "llama.cpp"},
		image: "ghcr.io/ggml-org/llama.cpp:server-cuda12-b9603",
		args: []string{"-hf", "unsloth/gpt-oss-20b-GGUF:Q4_K_M", "--ctx-size", "4096", "--parallel", "1", "-ngl", "999",
			"--host", "0.0.0.0", "--port", "8080"},
		starts: true, summary: "llama.cpp starts: 1 slot of 4096 tokens",
	}, {
		// An FP8 release publishes no GGUF files and the catalog knows no re-upload of it: -hf on
		// it would fail to find a file, so llama.cpp does not start as written.
		name: "no GGUF files", link: "m=nvidia%2FLlama-3.1-8B-Instruct-FP8&s=kv&ctx=4096&q=Q4_K_M",
		o:     with{Engine: "llama.cpp"},
		image: "ghcr.io/ggml-org/llama.cpp:server-cuda12-b9603",
		args: []string{"-hf", "nvidia/Llama-3.1-8B-Instruct-FP8:Q4_K_M", "--ctx-size", "4096", "--parallel", "1", "-ngl", "999",
			"--host", "0.0.0.0", "--port", "8080"},
		summary: "llama.cpp does not start as sized: nvidia/Llama-3.1-8B-Instruct-FP8 publishes no GGUF files and the catalog knows no GGUF re-upload of it",
	}}
	for _, c := range cases {
		r := mustRender(t, c.link, c.o)
		if !slices.Equal(r.Args, c.args) {
			t.Errorf("%s: args\n%q\nwant\n%q", c.name, r.Args, c.args)
		}
		if r.Image != c.image {
			t.Errorf("%s: image %q, want %q", c.name, r.Image, c.image)
		}
		if r.Starts != c.starts || c.summary != "" && !strings.HasPrefix(r.Summary, c.summary) {
			t.Errorf("%s: starts %v, summary %q; want %v, %q", c.name, r.Starts, r.Summary, c.starts, c.summary)
		}
		if !strings.Contains(r.YAML, "# "+strings.SplitN(r.Summary, " ", 4)[0]) {
			t.Errorf("%s: the header does not carry the summary", c.name)
		}
	}
}

// A GGUF quantization cannot be served by vLLM from the model's repository: the output says so
// and proposes the fix.
func TestVLLMRefusesGGUF(t *testing.T) {
	r := mustRender(t, "m=Qwen%2FQwen3-8B", with{})
	if r.Starts || slices.Contains(r.Args, "--quantization") {
		t.Fatalf("starts %v, args %q", r.Starts, r.Args)
	}
	for _, want := range []string{"Q4_K_M is a llama.cpp (GGUF) format", "set quant BF16", "engine llama.cpp"} {
		if !strings.Contains(r.Summary, want) {
			t.Errorf("summary %q lacks %q", r.Summary, want)
		}
	}
	// The override of an AWQ checkpoint to another format is refused the same way.
	r = mustRender(t, "m=Qwen%2FQwen2.5-7B-Instruct-AWQ&q=BF16", with{})
	if r.Starts || !strings.Contains(r.Summary, "set quant AWQ-4bit") {
		t.Errorf("AWQ checkpoint overridden to BF16: starts %v, %q", r.Starts, r.Summary)
	}
}

// The document before the first "---" is exactly what claim renders for ClaimTarget: a
// template, for the engine (and under vLLM for --max-num-seqs = the sequences), as
// `fitclaim claim --template --engine E [--max-num-seqs N]` writes it.
func TestClaimBytes(t *testing.T) {
	for _, link := range []string{"m=Qwen%2FQwen3-8B", "m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&drv=any&n=2", "m=Qwen%2FQwen3-8B&tpl=1&name=my.claim"} {
		for _, e := range Engines() {
			tg := mustTarget(t, link)
			tg.Template, tg.Engine = true, e
			if e == target.EngineVLLM {
				tg.MaxNumSeqs = tg.Sequences
			}
			c, err := claim.Render(tg)
			if err != nil {
				t.Fatal(err)
			}
			r := mustRender(t, link, with{Engine: e})
			if !strings.HasPrefix(r.YAML, c.YAML+"---\n") {
				t.Errorf("%s %s: the claim document differs from claim's template", link, e)
			}
			if strings.Count(r.YAML, "\n---\n") != 2 {
				t.Errorf("%s %s: want 3 documents", link, e)
			}
			if !strings.Contains(r.YAML, "resourceClaimTemplateName: \""+c.Name+"\"\n") {
				t.Errorf("%s %s: the pod does not reference %s", link, e, c.Name)
			}
		}
	}
}

func TestWorkloadName(t *testing.T) {
	cases := map[string]string{
		"qwen-qwen3-8b-fit": "qwen-qwen3-8b-fit",
		"my.claim":          "my-claim",
		"123-fit":           "m-123-fit",
		// 62 a's, '-', 'b': 64 characters, cut to 63 after the '-' and trimmed.
		strings.Repeat("a", 62) + ".b": strings.Repeat("a", 62),
	}
	for in, want := range cases {
		if got := workloadName(in); got != want {
			t.Errorf("workloadName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		link  string
		o     with
		field string
	}{
		{"m=Qwen%2FQwen3-8B", with{Engine: "tgi"}, "engine"},
		{"m=Qwen%2FQwen3-8B", with{Image: "bad image"}, "image"},
		{"m=Qwen%2FQwen3-8B", with{Image: "-flag"}, "image"},
		{"m=Qwen%2FQwen3-8B", with{Image: strings.Repeat("a", 513)}, "image"},
		{"p=7", with{}, "model"},
		{"m=Qwen%2FQwen3-8B&tps=0", with{}, "minTps"},
	}
	for _, c := range cases {
		tg := mustTarget(t, c.link)
		tg.Engine, tg.Image = c.o.Engine, c.o.Image
		_, err := Render(tg)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s %+v: %v, want a %s error", c.link, c.o, err, c.field)
		}
	}
}

// The page's link repair drops a bad image with the very message the Deployment (the API's,
// the command line's) refuses it with, and keeps the rest of the link: one rule, the table's
// Form (target/form.go).
func TestRepairLinkDropsWhatDeployRefuses(t *testing.T) {
	for _, bad := range []string{"bad image", "-flag", "a\"b", "x;rm -rf /", "imägë", strings.Repeat("a", 513)} {
		tg := mustTarget(t, "m=Qwen%2FQwen3-8B")
		tg.Image = bad
		_, err := Render(tg)
		if err == nil {
			t.Fatalf("%q: rendered", bad)
		}
		r := target.RepairLink("m=Qwen%2FQwen3-8B&engine=llama.cpp&image=" + url.QueryEscape(bad))
		if got := target.Permalink(r.Target); got != "m=Qwen%2FQwen3-8B&engine=llama.cpp" {
			t.Errorf("%q: kept %q", bad, got)
		}
		if len(r.Dropped) != 1 || r.Dropped[0].Err.Error() != err.Error() {
			t.Errorf("%q: repair says %s\n deploy says %v", bad, r.Message(), err)
		}
	}
}

// quote keeps anything inside one double-quoted scalar.
func TestQuote(t *testing.T) {
	cases := map[string]string{
		`a"b\c`:       `"a\"b\\c"`,
		"x\ny\u2028z": `"x\u000ay\u2028z"`,
		"\xff":        "\"\ufffd\"",
	}
	for in, want := range cases {
		if got := quote(in); got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// quote's plain-ASCII path writes what the rune loop writes: every string of one or two bytes
// (each byte value), and 20,000 random strings of printable ASCII with a byte of any value now
// and then.
func TestQuotePlainIsRunes(t *testing.T) {
	check := func(s string) {
		if got, want := quote(s), quoteRunes(s); got != want {
			t.Fatalf("quote(%q) = %s, rune by rune %s", s, got, want)
		}
	}
	check("")
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(0x20 + rng.IntN(0x5f))
			if rng.IntN(30) == 0 {
				b[i] = byte(rng.IntN(256))
			}
		}
		check(string(b))
	}
}

// When vLLM cannot start on the claimed devices the output says so and proposes the fix (the
// case "does not start" of TestArgs: 2 devices halve the weights per device).
func TestVLLMProposesFix(t *testing.T) {
	r := mustRender(t, "m=Qwen%2FQwen3-8B&q=BF16&ctx=32768", with{})
	for _, want := range []string{"it would with 2 devices (--tensor-parallel-size 2)", "an fp8 KV cache"} {
		if !strings.Contains(r.Summary, want) || !strings.Contains(strings.ReplaceAll(r.YAML, "\n#         ", " "), want) {
			t.Errorf("summary or header lacks %q:\n%s", want, r.Summary)
		}
	}
}

// The result's query gives the same bytes back (the API link the page shows).
func TestQueryRoundTrip(t *testing.T) {
	for _, c := range []struct {
		link string
		o    with
	}{
		{"m=Qwen%2FQwen3-8B&s=kv", with{}},
		{"m=Qwen%2FQwen3-8B", with{Engine: "llama.cpp", Image: "reg.example:5000/a/b@sha256:00"}},
		{"m=Qwen%2FQwen3-8B", with{Engine: "vllm"}},
	} {
		r := mustRender(t, c.link, c.o)
		back, err := target.ParsePermalink(r.Query)
		if err != nil {
			t.Fatalf("%q: %v", r.Query, err)
		}
		again, err := Render(back)
		if err != nil || again.YAML != r.YAML {
			t.Errorf("%q does not give the same bytes back (%v)", r.Query, err)
		}
	}
}

// vLLM refuses fewer batched tokens than sequences: with 2,500 sequences on a claim whose
// smallest device is small (under 70 GiB, default 2,048 batched tokens) the plan asks for 2,500.
func TestVLLMBatchedTokens(t *testing.T) {
	r := mustRender(t, "m=Qwen%2FQwen3-0.6B&s=kv&ctx=256&seq=2500&kv=fp8&tps=1", with{})
	i := slices.Index(r.Args, "--max-num-batched-tokens")
	if i < 0 || r.Args[i+1] != "2500" {
		t.Errorf("args %q lack --max-num-batched-tokens 2500", r.Args)
	}
	// 4 sequences need no flag: the default holds them.
	if r := mustRender(t, "m=Qwen%2FQwen3-0.6B&s=kv&ctx=256&seq=4", with{}); slices.Contains(r.Args, "--max-num-batched-tokens") {
		t.Errorf("args %q: a flag the default covers", r.Args)
	}
}

// vLLM's arguments given in the target are written as given, and judged as given (fit.PlanVLLM
// keeps them).
func TestVLLMArgumentsAsAsked(t *testing.T) {
	r := mustRender(t, "m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096&seq=2&drv=nvidia&gmu=0.5&mns=64&mbt=4096", with{})
	for _, pair := range [][2]string{{"--gpu-memory-utilization", "0.5"}, {"--max-num-seqs", "64"}, {"--max-num-batched-tokens", "4096"}} {
		if i := slices.Index(r.Args, pair[0]); i < 0 || r.Args[i+1] != pair[1] {
			t.Errorf("args %q lack %s %s", r.Args, pair[0], pair[1])
		}
	}
	// The claim under vLLM is sized for that utilization (36 Gi), so its smallest product is the
	// A100 40GB (39.38 GiB as CUDA sees it): budget 0.5 × 39.38 = 19.69 GiB, less 15.26 GiB of BF16
	// weights (8,190,735,360 × 2 B), 0.39 activation and 0.11 non-torch = 3.93 GiB of KV cache;
	// a request of 4096 tokens takes 4096 × 147,456 B = 0.5625 GiB: 6.99 at once, and
	// --max-num-seqs 64 lets vLLM run 6 of them.
	if !r.Starts || r.Summary != "vLLM starts: 6 requests of 4096 tokens at once" {
		t.Errorf("gmu 0.5: starts %v, %q", r.Starts, r.Summary)
	}
}

// A BF16 Deployment on a claim whose allow-list holds pre-Ampere products (no bfloat16) says so.
func TestBF16OnOldDevices(t *testing.T) {
	// Qwen3-0.6B in BF16 (1.2 GB) needs little bandwidth: the allow-list reaches the T4.
	r := mustRender(t, "m=Qwen%2FQwen3-0.6B&q=BF16&s=kv&ctx=2048&drv=nvidia", with{})
	found := false
	for _, p := range r.Problems {
		found = found || strings.Contains(p, "NVIDIA T4") && strings.Contains(p, "set quant F16")
	}
	if !found {
		t.Errorf("problems %q do not name the T4", r.Problems)
	}
	// In F16 there is nothing to say.
	r = mustRender(t, "m=Qwen%2FQwen3-0.6B&q=F16&s=kv&ctx=2048&drv=nvidia", with{})
	for _, p := range r.Problems {
		if strings.Contains(p, "bfloat16") {
			t.Errorf("F16: %q", p)
		}
	}
	if i := slices.Index(r.Args, "--dtype"); i < 0 || r.Args[i+1] != "float16" {
		t.Errorf("F16 args %q", r.Args)
	}
}

// vLLM refuses before it counts memory: a --max-model-len above max_position_embeddings
// (Qwen3-8B's config.json: 40,960) and a tensor-parallel size that does not divide the query heads
// (Llama-3.3-70B: 64 heads; 3 does not divide 64, 4 does: 64 / 4 = 16).
func TestVLLMRefusesLengthAndTensorParallelSize(t *testing.T) {
	r := mustRender(t, "m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=131072&drv=nvidia", with{})
	if r.Starts || !strings.Contains(r.Summary, "vLLM refuses --max-model-len 131072, above the model's 40960 tokens") {
		t.Errorf("context beyond the model: starts %v, %q", r.Starts, r.Summary)
	}
	if r = mustRender(t, "m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=40960&drv=nvidia", with{}); !r.Starts {
		t.Errorf("context at the model's maximum: %q", r.Summary)
	}
	r = mustRender(t, "m=meta-llama%2FLlama-3.3-70B-Instruct&q=FP8&s=kv&ctx=8192&drv=nvidia&n=3&tps=5", with{})
	if r.Starts || !strings.Contains(r.Summary, "the model's 64 attention heads do not divide by it; set count to one of 1, 2, 4 or 8") {
		t.Errorf("3 devices: starts %v, %q", r.Starts, r.Summary)
	}
	if r = mustRender(t, "m=meta-llama%2FLlama-3.3-70B-Instruct&q=FP8&s=kv&ctx=8192&drv=nvidia&n=4&tps=5", with{}); strings.Contains(r.Summary, "refuses") {
		t.Errorf("4 devices: %q", r.Summary)
	}
}

// The header's kv line said "as the claim was sized" beside the engine's KV-cache flag in llmfit's
// sizing too, where the claim holds no KV cache at all.
func TestKVLineSaysWhatTheClaimHolds(t *testing.T) {
	unwrap := func(yaml string) string { return strings.ReplaceAll(yaml, "\n#         ", " ") }
	for _, c := range []struct {
		link string
		o    with
		want string
	}{
		{"m=Qwen%2FQwen3-8B&kv=fp8", with{}, "# kv:     --kv-cache-dtype fp8 (1 byte per element); the claim, in llmfit's sizing, holds no KV cache (sizing kv sizes one)\n"},
		{"m=Qwen%2FQwen3-8B&kv=fp8&s=kv", with{}, "# kv:     --kv-cache-dtype fp8, as the claim was sized (1 byte per element)\n"},
		{"m=Qwen%2FQwen3-8B&kv=q8_0", with{Engine: "llama.cpp"}, "# kv:     --cache-type-k/-v q8_0; the claim, in llmfit's sizing, holds no KV cache (sizing kv sizes one)\n"},
		{"m=Qwen%2FQwen3-8B&kv=q8_0&s=kv", with{Engine: "llama.cpp"}, "# kv:     --cache-type-k/-v q8_0, as the claim was sized\n"},
	} {
		if y := unwrap(mustRender(t, c.link, c.o).YAML); !strings.Contains(y, c.want) {
			t.Errorf("%s %+v: no %q in\n%s", c.link, c.o, c.want, y)
		}
	}
}

// The claim's warning about what llmfit's sizing ignores names what was asked, not the engine
// and --max-num-seqs deploy fills in for the claim.
func TestIgnoredWarningNamesTheAsked(t *testing.T) {
	for _, c := range []struct {
		link string
		o    with
		want string // "" = no such warning
	}{
		{"m=Qwen%2FQwen3-8B&ctx=4096", with{}, "sizing llmfit ignores context: use sizing kv to size the claim for it"},
		{"m=Qwen%2FQwen3-8B", with{}, ""},
		{"m=Qwen%2FQwen3-8B&seq=2", with{Engine: "vllm"}, "sizing llmfit ignores sequences, engine: use sizing kv to size the claim for them"},
	} {
		r := mustRender(t, c.link, c.o)
		var got []string
		for _, w := range r.Claim.Warnings {
			if strings.Contains(w, " ignores ") {
				got = append(got, w)
			}
		}
		if want := []string{c.want}; c.want == "" && len(got) != 0 || c.want != "" && !slices.Equal(got, want) {
			t.Errorf("%s %+v: %q, want %q", c.link, c.o, got, c.want)
		}
	}
}

// TestNoServiceLinks: the pod spec turns Kubernetes' service links off. With them on (the
// default) every Service of the namespace puts {NAME}_PORT=tcp://IP:PORT in the container's
// environment, and a Service named vllm (ours with name vllm, or any other in the namespace)
// sets VLLM_PORT, which vLLM reads as its own port: it stops with "VLLM_PORT 'tcp://…' appears
// to be a URI. This may be caused by a Kubernetes service discovery issue" (vllm/envs.py,
// get_vllm_port). llama.cpp's server reads LLAMA_ARG_* the same way.
func TestNoServiceLinks(t *testing.T) {
	for _, engine := range Engines() {
		r := mustRender(t, "m=Qwen%2FQwen3-8B&drv=nvidia&n=2&name=vllm", with{Engine: engine})
		pod := r.YAML[strings.Index(r.YAML, "kind: Deployment"):]
		pod = pod[strings.Index(pod, "\n    spec:\n"):]
		if !strings.HasPrefix(pod, "\n    spec:\n      enableServiceLinks: false\n") {
			t.Errorf("%s: the pod spec does not turn service links off:\n%s", engine, pod[:min(len(pod), 200)])
		}
		if r.Name != "vllm" {
			t.Errorf("%s: name %q, want vllm (the Service whose link would set VLLM_PORT)", engine, r.Name)
		}
	}
}

// TestVLLMCommand: the vLLM container's command is `vllm serve`, the pinned image's entrypoint,
// written out: vLLM's ROCm build (docker/Dockerfile.rocm) ends in a stage with CMD /bin/bash and
// no entrypoint, so an image given for AMD devices would run the first argument, the model, as
// its program. The model is the command's positional argument, the first (vLLM's own form). llama.cpp's server images all start llama-server: no command.
func TestVLLMCommand(t *testing.T) {
	for _, c := range []struct {
		link string
		o    with
		want string
	}{
		{"m=Qwen%2FQwen3-8B&drv=nvidia&q=BF16", with{}, "          command:\n            - \"vllm\"\n            - \"serve\"\n          args:\n            - \"Qwen/Qwen3-8B\"\n            - \"--tensor-parallel-size\"\n"},
		{"m=Qwen%2FQwen3-8B&drv=amd&q=BF16", with{Image: "rocm/vllm:latest"}, "          command:\n            - \"vllm\"\n            - \"serve\"\n          args:\n            - \"Qwen/Qwen3-8B\"\n            - \"--tensor-parallel-size\"\n"},
		{"m=Qwen%2FQwen3-8B&drv=amd", with{Engine: "llama.cpp"}, "          image: \"ghcr.io/ggml-org/llama.cpp:server-rocm-" + LlamaCppBuild + "\"\n          args:\n"},
	} {
		if y := mustRender(t, c.link, c.o).YAML; !strings.Contains(y, c.want) {
			t.Errorf("%s %+v: no %q in\n%s", c.link, c.o, c.want, y)
		}
	}
}

// TestCacheVolume: both engines download into /root/.cache (vLLM's huggingface_hub, llama.cpp's
// -hf), which the pod keeps in an emptyDir, so a container that restarts (an out-of-memory kill,
// a crash while capturing graphs) finds the weights it downloaded instead of fetching them again.
func TestCacheVolume(t *testing.T) {
	for _, c := range []struct {
		link string
		o    with
	}{
		{"m=Qwen%2FQwen3-8B&drv=nvidia&q=BF16", with{}},
		{"m=Qwen%2FQwen3-8B&drv=nvidia&q=BF16&n=2", with{}},
		{"m=Qwen%2FQwen3-8B&drv=amd&n=2", with{Engine: "llama.cpp"}},
	} {
		y := mustRender(t, c.link, c.o).YAML
		for _, want := range []string{
			"          volumeMounts:\n            - name: cache\n              mountPath: /root/.cache\n",
			"      volumes:\n        - name: cache\n          emptyDir: {}\n",
			"# cache:  /root/.cache in an emptyDir",
		} {
			if !strings.Contains(y, want) {
				t.Errorf("%s %+v: no %q in\n%s", c.link, c.o, want, y)
			}
		}
	}
}
