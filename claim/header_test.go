package claim

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A model name cannot break out of its comment line, whatever it holds.
func TestModelNameCannotEscapeComment(t *testing.T) {
	evil := []string{
		"evil\nkind: Secret",
		"evil\r\nmetadata:\n  name: pwned",
		"evil\rapiVersion: v1",
		"evil\u2028kind: Secret",
		"evil\u2029kind: Secret",
		"evil\u0085kind: Secret", // NEL, a YAML 1.1 line break
		"evil\x00\x01\x1b[31m\x7f",
		"evil\n---\napiVersion: v1\nkind: Secret",
		"evil\n...\n",
		"evil\ufeff#",
		"\xff\xfe invalid utf-8 \xc3",
		"evil\t# tab",
		strings.Repeat("\n", 290) + "x",
		strings.Repeat("é", 140) + "\nkind: Secret",
	}
	clean, err := renderFixture(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	cleanDoc := parseYAML(t, clean.YAML).doc
	for _, name := range evil {
		m := testModel7B
		m.Name = name
		r, err := renderModel(m, target.Default(), "9.9.9-test")
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		p := parseYAML(t, r.YAML)
		if len(p.header) != 4 {
			t.Errorf("%q: %d header lines, want 4:\n%s", name, len(p.header), r.YAML)
		}
		if !strings.HasPrefix(p.header[1], "# model:  evil") && strings.HasPrefix(name, "evil") {
			t.Errorf("%q: model line %q", name, p.header[1])
		}
		// Same structure as the clean render but for the derived name.
		if n := path(t, p.doc, "metadata", "name").(string); !validLabel(n) || n != DeriveName(name) {
			t.Errorf("%q: name %q", name, n)
		}
		p.doc["metadata"] = cleanDoc["metadata"]
		if !reflect.DeepEqual(p.doc, cleanDoc) {
			t.Errorf("%q: structure differs:\n%s", name, r.YAML)
		}
		// The JSON carries the name escaped and parses back to it (invalid UTF-8 as U+FFFD).
		var j map[string]any
		if err := json.Unmarshal([]byte(r.JSON), &j); err != nil {
			t.Errorf("%q: JSON: %v\n%s", name, err, r.JSON)
		} else if j["model"] != string([]rune(name)) {
			t.Errorf("%q: JSON model %q", name, j["model"])
		}
	}
	// kv headers carry the name too.
	m := testModel7B
	m.Name = "evil\nkind: Secret"
	r, err := renderModel(m, target.Target{MinTps: 20, EfficiencyPct: 55, Sizing: "kv", Sequences: 1, KVCache: "fp16", Driver: "amd", Count: 2}, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	if p := parseYAML(t, r.YAML); p.doc["kind"] != "ResourceClaim" || len(p.doc) != 4 {
		t.Errorf("kv: %v", p.doc)
	}
}

func TestCommentSafe(t *testing.T) {
	cases := map[string]string{
		"plain":                  "plain",
		"a\nb":                   "a\ufffdb",
		"a\u2028b":               "a\ufffdb",
		"a\x85b":                 "a\ufffdb", // invalid UTF-8 byte
		"a\u0085b":               "a\ufffdb", // NEL
		"tab\there":              "tab\ufffdhere",
		"café ≈ 7B":              "café ≈ 7B",
		strings.Repeat("x", 301): strings.Repeat("x", 300) + "…",
		// The 300-byte cut lands inside a rune: the half rune becomes U+FFFD.
		"x" + strings.Repeat("é", 160): "x" + strings.Repeat("é", 149) + "\ufffd…",
	}
	for in, want := range cases {
		if got := commentSafe(in); got != want {
			t.Errorf("commentSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommentSafeFastPath holds CommentSafe, which returns a text with nothing to replace as
// it is, to the mapping alone (commentSafeMapped) on every rune of the first planes in a
// line, every byte alone, and the cut-off and mixed cases above.
func TestCommentSafeFastPath(t *testing.T) {
	var texts []string
	for r := rune(0); r < 0x3100; r++ {
		texts = append(texts, "a "+string(r)+" ≥ b", string(r))
	}
	for b := 0; b < 256; b++ {
		texts = append(texts, "x"+string([]byte{byte(b)})+"y", "é"+string([]byte{byte(b)}))
	}
	texts = append(texts, "", "\ufffd", "a\ufffdb", "\xe2\x89", "≥\xe2\x89", "x"+strings.Repeat("é", 149)+"\xc3…", "\U0001F600 ok", "\U0010FFFF")
	for _, s := range texts {
		if got, want := CommentSafe(s), commentSafeMapped(s); got != want {
			t.Fatalf("CommentSafe(%q) = %q, the mapping gives %q", s, got, want)
		}
	}
}

func TestHeaderNumbers(t *testing.T) {
	cases := []struct {
		tps  float64
		want string
	}{{20, "for ≥ 20 tok/s"}, {22.5, "for ≥ 22.5 tok/s"}, {0.1, "for ≥ 0.1 tok/s"}, {100000, "for ≥ 100000 tok/s"}, {0.00001, "for ≥ 0.00001 tok/s"}}
	for _, c := range cases {
		r, err := renderFixture(t, func(t *target.Target) { t.MinTps = c.tps })
		if err != nil {
			t.Fatal(err)
		}
		p := parseYAML(t, r.YAML)
		if !strings.HasSuffix(p.header[2], c.want) {
			t.Errorf("minTps %v: %q, want suffix %q", c.tps, p.header[2], c.want)
		}
	}
	// 22.5 tok/s: ceil(22.5 × 4.06 × 100 / 55) = ceil(166.09) = 167.
	r, err := renderFixture(t, func(t *target.Target) { t.MinTps = 22.5 })
	if err != nil {
		t.Fatal(err)
	}
	if want := "# fit:    tok/s ≈ bandwidth × 55% / 4.1 GB  ⇒  bandwidth ≥ 167 GB/s for ≥ 22.5 tok/s"; parseYAML(t, r.YAML).header[2] != want {
		t.Errorf("header: %q", parseYAML(t, r.YAML).header[2])
	}
	// Params and weights with one decimal: Q8_0 7 × 1.05 = 7.3500000000000005 in binary → "7.4" (the golden file agrees).
	r, err = renderFixture(t, func(t *target.Target) { t.Quant = "Q8_0" })
	if err != nil {
		t.Fatal(err)
	}
	if h := parseYAML(t, r.YAML).header[1]; h != "# model:  Test Model 7B (7.0B params, Q8_0 ≈ 7.4 GB weights)" {
		t.Errorf("header: %q", h)
	}
	// Count > 1 in llmfit mode: the memory line shows the whole model, the split line each device.
	r, err = renderFixture(t, func(t *target.Target) { t.Count = 2 })
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	if p.header[3] != "# memory: ≥ 6 Gi (weights + KV/runtime headroom)" ||
		!strings.Contains(p.header[2], "bandwidth ≥ 148 GB/s") ||
		p.header[4] != "# split:  2 devices, each ≥ 3 Gi and ≥ 83 GB/s (together 2 × 0.9 of one device's" ||
		p.header[5] != "#         bandwidth)" {
		t.Errorf("count 2 header: %q", p.header)
	}
}

func TestKVHeader(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing = "Qwen/Qwen3-30B-A3B-Instruct-2507", "kv"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	want := []string{
		"# Generated by fitclaim 9.9.9-test — do not compute these constants by hand.",
		"# model:  Qwen/Qwen3-30B-A3B-Instruct-2507 (30.5B params, 3.4B active, BF16 ≈",
		"#         61.1 GB weights)",
		"# arch:   from config.json of Qwen/Qwen3-30B-A3B-Instruct-2507 via",
		"#         architectures.csv; maximum context 262144 tokens",
		"# kv:     8192 tokens × 1 sequence, fp16: 2 × 48 layers × 4 KV heads × 128 head",
		"#         dim × 2 B = 0.81 GB",
		// 3,353,032,704 active (fit/moeactive.go) × 2 B = 6.71 GB; overhead 1.903 + 48 × 0.08732 = 6.09436 ms;
		// (6.71 + 0.81) GB / (0.4345 × (0.05 − 0.00609436)) = 7.511372 / 0.01907700058 = 393.74 → 394
		// (fit's TestKVMixtureOfExperts)
		"# fit:    s/token = (6.71 GB weights (3.4B active) + 0.81 GB KV) / (bandwidth ×",
		"#         43.45%, calibrated for intel, the least efficient family any vendor's",
		"#         device may be) + 6.094 ms overhead (1.903 ms + 87.32 µs × 48 MoE",
		"#         layers)  ⇒  bandwidth ≥ 394 GB/s for ≥ 20 tok/s per sequence",
		// 56.87 + 0.75 + 0.73 = 58.35 GiB, 59,754.75 MiB: the floor is the next MiB, 59,755
		// (58.35 Gi to two decimals, rounded down), not 59 Gi
		"# memory: ≥ 59,755 Mi (58.35 Gi) = ceil(56.87 GiB weights + 0.75 GiB KV cache +",
		"#         0.73 GiB llama.cpp reserve (0.44 CUDA context + 0.29 compute buffer) =",
		"#         59,754.75 MiB)",
	}
	if !reflect.DeepEqual(p.header, want) {
		t.Errorf("kv header:\n%s\nwant\n%s", strings.Join(p.header, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.JSON, `"speedEfficiency": 0.4345,`) || !strings.Contains(r.JSON, `"speedFamily": "intel",`) ||
		!strings.Contains(r.JSON, `"speedOverheadMs": 6.094,`) || !strings.Contains(r.JSON, `"activeParamsB": 3.353,`) || !strings.Contains(r.JSON, `"kvCacheGi": 0.75,`) || !strings.Contains(r.JSON, `"kvEstimated": false,`) {
		t.Errorf("kv JSON:\n%s", r.JSON)
	}
	// The estimate says so: moondream2 has no architecture anywhere; 0.000008 × 1.927237104 × 4,096 = 0.063 GB.
	tg.Model = "vikhyatk/moondream2"
	r, err = RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	if h := parseYAML(t, r.YAML).header[2:4]; h[0]+"\n"+h[1] != "# kv:     4096 tokens × 1 sequence, fp16: estimated 0.06 GB (0.000008 GB per\n#         billion params per token; the model's layers/heads are unknown)" {
		t.Errorf("estimated kv lines: %q", h)
	}
	if !slices.Contains(r.Warnings, "the KV cache is estimated (0.000008 GB per billion parameters per token): the catalog lacks this model's layers, KV heads or head size") {
		t.Errorf("warnings: %q", r.Warnings)
	}
}

// Wrapped header lines stay within 80 columns with their "# " and never leave a unit dangling
// alone on a continuation line.
func TestHeaderWrap(t *testing.T) {
	// 8 + 62 + 8 = 78 columns of text, then " GB": the cut moves back a word, "12.88 GB" stays whole.
	long := "kv:     " + strings.Repeat("x", 62) + " = 12.88 GB"
	got := WrapComment(long)
	if len(got) != 2 || got[1] != "        12.88 GB" {
		t.Errorf("a 2-character tail was left alone: %q", got)
	}
	list := "driver: " + strings.TrimSuffix(strings.Repeat("NVIDIA H100 80GB HBM3, ", 12), ", ")
	got = WrapComment(list)
	if len(got) < 3 {
		t.Fatalf("not wrapped: %q", got)
	}
	for i, l := range got {
		if n := len([]rune("# " + l)); n > 80 || strings.HasSuffix(l, " ") || i > 0 && !strings.HasPrefix(l, "        N") {
			t.Errorf("line %d (%d runes) %q", i, n, l)
		}
	}
	if strings.Join(strings.Fields(strings.Join(got, " ")), " ") != strings.Join(strings.Fields(list), " ") {
		t.Errorf("wrapping lost words: %q", got)
	}
}

// The kv line writes each attention kind's formula with the model's numbers, and the arch line
// says where the facts came from (figures as fit's TestKVCachePerLayerKind computes them).
func TestKVHeaderPerKind(t *testing.T) {
	for _, c := range []struct {
		link string
		want []string
	}{
		// (18 × 131,072 + 18 × 128) × 2 × 8 × 64 × 2 B = 4,836,556,800 B = 4.84 GB
		{"m=openai%2Fgpt-oss-120b&s=kv&ctx=131072", []string{
			"# kv:     131072 tokens × 1 sequence, fp16: 2 × (18 full layers × tokens + 18",
			"#         sliding layers × min(tokens, 128)) × 8 KV heads × 64 head dim × 2 B =",
			"#         4.84 GB"}},
		// 61 × (512 + 64) × 2 B × 163,840 = 11,513,364,480 B = 11.51 GB
		{"m=deepseek-ai%2FDeepSeek-R1&s=kv&ctx=163840", []string{
			"# kv:     163840 tokens × 1 sequence, fp16: 61 layers × (512 latent + 64 RoPE",
			"#         key) per token (MLA) × 2 B = 11.51 GB"}},
		// 19,759,104 × 4 B = 79.04 MB + 12 × 2 × 2 × 256 × 2 B × 262,144 = 6,442,450,944 B → 6.52 GB
		{"m=Qwen%2FQwen3-Next-80B-A3B-Instruct&s=kv&ctx=262144", []string{
			"# kv:     262144 tokens × 1 sequence, fp16: 79.04 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 12 full-attention layers (of 48) × 2",
			"#         KV heads × 256 head dim × 2 B = 6.52 GB"}},
		// Qwen3.5-9B: 13,172,736 × 4 B = 52.69 MB + 2 × 8 × 4 × 256 × 2 B × 8,192 = 268,435,456 B
		// → 321,126,400 B = 0.32 GB
		{"m=Qwen%2FQwen3.5-9B&s=kv&ctx=8192", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: 52.69 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 8 full-attention layers (of 32) × 4",
			"#         KV heads × 256 head dim × 2 B = 0.32 GB"}},
		// Qwen3.5-0.8B: 18 × (16 × 128 × 128 + 3 × 6,144) = 5,050,368 elements × 4 B = 20,201,472 B
		// = 20.20 MB + 2 × 6 × 2 × 256 × 2 B × 8,192 = 100,663,296 B → 120,864,768 B = 0.12 GB
		{"m=Qwen%2FQwen3.5-0.8B&s=kv&ctx=8192", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: 20.20 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 6 full-attention layers (of 24) × 2",
			"#         KV heads × 256 head dim × 2 B = 0.12 GB"}},
		// Nemotron-Nano-9B-v2: 27 Mamba-2 layers × (128 × 80 × 128 + 12,288 × 3) = 36,384,768 × 4 B =
		// 145,539,072 B = 145.54 MB + 2 × 4 × 8 × 128 × 2 B × 8,192 = 134,217,728 B → 279,756,800 B
		// = 0.28 GB
		{"m=nvidia%2FNVIDIA-Nemotron-Nano-9B-v2&s=kv&ctx=8192", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: 145.54 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 4 full-attention layers (of 56) × 8",
			"#         KV heads × 128 head dim × 2 B = 0.28 GB"}},
		// Kimi-Linear-48B-A3B (s16-arch: a hybrid of MLA layers): 20 KDA layers × (32 × 128 × 128 + 3 ×
		// 4,096 × 3) = 11,223,040 × 4 B = 44.89 MB + 7 × 576 × 2 B × 8,192 = 66,060,288 B → 0.11 GB
		{"m=moonshotai%2FKimi-Linear-48B-A3B-Instruct&s=kv&ctx=8192", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: 44.89 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 7 full-attention layers (of 27) × (512",
			"#         latent + 64 RoPE key) per token (MLA) × 2 B = 0.11 GB"}},
		// Nemotron-H-8B-Base-8K (its row: Megatron-Bridge's NemotronHModelProvider8B): 24 Mamba-2 layers ×
		// (128 × 64 × 128 + (8,192 + 2 × 8 × 128) × 3) = 25,903,104 × 4 B = 103.61 MB + 2 × 4 × 8 × 128
		// × 2 B × 8,192 = 134,217,728 B → 237,830,144 B = 0.24 GB; BF16 weights 8,100,852,736 × 2 B =
		// 16.20 GB; 15.09 + 0.22 + 0.70 GiB → 17 Gi (without the row: llmfit's 52 full layers, 1.74 GB,
		// and the catalog's 17.0B, 33.99 GB: 34 Gi)
		{"m=nvidia%2FNemotron-H-8B-Base-8K&s=kv&ctx=8192", []string{
			"# model:  nvidia/Nemotron-H-8B-Base-8K (8.1B params, BF16 ≈ 16.2 GB weights)",
			"# params: counted from config.json's shapes (8.10B; NVIDIA: 8B); the catalog's",
			"#         17.0B is not the model's",
			"# arch:   from config.json of nvidia/Nemotron-H-8B-Base-8K via",
			"#         architectures.csv; maximum context 8192 tokens",
			"# kv:     8192 tokens × 1 sequence, fp16: 103.61 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 4 full-attention layers (of 52) × 8",
			"#         KV heads × 128 head dim × 2 B = 0.24 GB"}},
		// Nemotron-H-56B-Base-8K: 54 Mamba-2 layers × (256 × 64 × 256 + (16,384 + 2 × 8 × 256) × 3) =
		// 229,810,176 × 4 B = 919.24 MB + 2 × 10 × 8 × 128 × 2 B × 8,192 = 335,544,320 B → 1.25 GB
		// (without the row 3.96 GB); 56,324,350,464 × 2 B = 112.65 GB (192.20): 107 Gi (184)
		{"m=nvidia%2FNemotron-H-56B-Base-8K&s=kv&ctx=8192", []string{
			"# model:  nvidia/Nemotron-H-56B-Base-8K (56.3B params, BF16 ≈ 112.6 GB weights)",
			"# params: counted from config.json's shapes (56.32B; NVIDIA: 56B); the catalog's",
			"#         96.1B is not the model's",
			"# arch:   from config.json of nvidia/Nemotron-H-56B-Base-8K via",
			"#         architectures.csv; maximum context 8192 tokens",
			"# kv:     8192 tokens × 1 sequence, fp16: 919.24 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 10 full-attention layers (of 118) ×",
			"#         8 KV heads × 128 head dim × 2 B = 1.25 GB"}},
		// Qwen3.5-2B: the 0.8B's 18 Gated DeltaNet layers of 16 key / 16 value heads of 128 (NVIDIA
		// cudnn-frontend's copy of its config.json): 5,050,368 elements × 4 B = 20.20 MB + 2 × 6 × 2 ×
		// 256 × 2 B × 8,192 = 100,663,296 B → 120,864,768 B = 0.12 GB (it said 0.10 GB, state left out)
		{"m=Qwen%2FQwen3.5-2B&s=kv&ctx=8192", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: 20.20 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 6 full-attention layers (of 24) × 2",
			"#         KV heads × 256 head dim × 2 B = 0.12 GB"}},
		// Without the state in the data (a hybrid by override) it is said to be left out: 2 × 8 × 8 ×
		// 128 × 2 B × 8,192 = 268,435,456 B = 0.27 GB.
		{"m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&ctx=8192&att=hybrid&fal=8", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: 2 × 8 full-attention layers (of 32;",
			"#         the others keep a fixed state, not counted) × 8 KV heads × 128 head",
			"#         dim × 2 B = 0.27 GB"}},
		// LFM2.5-1.2B: 6 attention layers of the 16 (the others short convolutions, each keeping its
		// last 2 inputs of 2,048): 10 × 2 × 2,048 × 4 B = 163,840 B = 0.16 MB + 2 × 6 × 8 × 64 × 2 B ×
		// 32,768 = 402,653,184 B → 402,817,024 B = 0.40 GB (llmfit's 16 full layers said 1.07 GB)
		{"m=LiquidAI%2FLFM2.5-1.2B-Instruct&s=kv&ctx=32768", []string{
			"# kv:     32768 tokens × 1 sequence, fp16: 0.16 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 6 full-attention layers (of 16) × 8",
			"#         KV heads × 64 head dim × 2 B = 0.40 GB"}},
		// LFM2.5-350M: LFM2-350M's shapes (its count check: 6 attention layers): 10 × 2 × 1,024 × 4 B =
		// 81,920 B = 0.08 MB + 2 × 6 × 8 × 64 × 2 B × 32,768 = 402,653,184 B → 0.40 GB (was 1.07 GB)
		{"m=LiquidAI%2FLFM2.5-350M&s=kv&ctx=32768", []string{
			"# kv:     32768 tokens × 1 sequence, fp16: 0.08 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 6 full-attention layers (of 16) × 8",
			"#         KV heads × 64 head dim × 2 B = 0.40 GB"}},
		// LFM2-8B-A1B: 6 attention layers of 24 (the only split its catalog count allows): 18 × 2 ×
		// 2,048 × 4 B = 294,912 B = 0.29 MB + 2 × 6 × 8 × 64 × 2 B × 32,768 = 402,653,184 B → 0.40 GB
		// (llmfit's 24 full layers said 1.61 GB)
		{"m=LiquidAI%2FLFM2-8B-A1B&s=kv&ctx=32768", []string{
			"# kv:     32768 tokens × 1 sequence, fp16: 0.29 MB of fp32 recurrent state per",
			"#         sequence (the other layers) + 2 × 6 full-attention layers (of 24) × 8",
			"#         KV heads × 64 head dim × 2 B = 0.40 GB"}},
		// MiMo-V2-Flash: keys of 192, values of 128 (fit's TestMiMoValuesOwnSize): 9 × 4 × 320 × 2 B ×
		// 8,192 + 39 × 8 × 320 × 2 B × 128 = 214,302,720 B = 0.21 GB (before its row, llmfit's 2 × 48 ×
		// 4 × 192 × 2 B × 8,192 = 1.21 GB)
		{"m=XiaomiMiMo%2FMiMo-V2-Flash&s=kv&ctx=8192", []string{
			"# kv:     8192 tokens × 1 sequence, fp16: (9 full layers × 4 KV heads × (192 K +",
			"#         128 V) head dim × tokens + 39 sliding layers × 8 KV heads × (192 K +",
			"#         128 V) head dim × min(tokens, 128)) × 2 B = 0.21 GB"}},
		// 12,206,080 B of compressor state + (43 × 512 × 128 + 21 × 640 × 2,048 + 20 × 512 × 64) × 2 B
		// = 12,206,080 + 61,997,056 = 74,203,136 B = 0.07 GB (fit's TestKVCachePerLayerKind)
		{"m=deepseek-ai%2FDeepSeek-V4-Flash&s=kv&ctx=8192", []string{
			"# arch:   from config.json of deepseek-ai/DeepSeek-V4-Flash via",
			"#         architectures.csv; maximum context 1048576 tokens",
			"# kv:     8192 tokens × 1 sequence, fp16: compressed attention, one entry both K",
			"#         and V: 12.21 MB of fp32 compressor state per sequence + (43 layers ×",
			"#         512 × min(tokens, 128) + 21 CSA layers × (512 + 128 indexer) ×",
			"#         tokens/4 + 20 HCA layers × 512 × tokens/128) × 2 B = 0.07 GB"}},
		// An override is named: 2 × 32 × 16 × 128 × 2 B × 8,192 = 2,147,483,648 B = 2.15 GB.
		{"m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&kvh=16", []string{
			"# arch:   kvHeads from the override, the rest from config.json of",
			"#         meta-llama/Llama-3.1-8B(-Instruct) via architectures.csv; maximum",
			"#         context 131072 tokens",
			"# kv:     8192 tokens × 1 sequence, fp16: 2 × 32 layers × 16 KV heads × 128 head",
			"#         dim × 2 B = 2.15 GB"}},
	} {
		tg, err := target.ParsePermalink(c.link)
		if err != nil {
			t.Fatal(err)
		}
		r, err := RenderVersion(tg, "9.9.9-test")
		if err != nil {
			t.Fatal(err)
		}
		h := strings.Join(parseYAML(t, r.YAML).header, "\n")
		if !strings.Contains(h, strings.Join(c.want, "\n")) {
			t.Errorf("%s: header\n%s\nlacks\n%s", c.link, h, strings.Join(c.want, "\n"))
		}
	}
}

// A release whose catalog count is not the model's says where its count came from, on its own
// line (fit/params.go); llmfit mode prints llmfit's lines with the catalog's count.
func TestKVHeaderParamsLine(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing = "nvidia/Qwen3-8B-NVFP4", "kv"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	h := parseYAML(t, r.YAML).header
	// 8,190,735,360 parameters (Qwen/Qwen3-8B's) at NVFP4 with a 16-bit embedding and LM head:
	// 6,396,486,976 B = 6.4 GB (fit's TestPackedReleaseParams)
	want := []string{
		"# model:  nvidia/Qwen3-8B-NVFP4 (8.2B params, NVFP4 ≈ 6.4 GB weights)",
		"# params: Qwen/Qwen3-8B's count: the catalog's 4.7B for this repository counts",
		"#         packed tensors",
	}
	if len(h) < 4 || !reflect.DeepEqual(h[1:4], want) {
		t.Errorf("kv header:\n%s\nwant lines 2–4\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"))
	}
	tg.Sizing = "llmfit"
	if r, err = RenderVersion(tg, "9.9.9-test"); err != nil || strings.Contains(r.YAML, "# params:") || !strings.Contains(r.YAML, "(4.7B params,") {
		t.Errorf("llmfit mode: %v\n%s", err, r.YAML)
	}
}

// The fit line reads what a decoded token of DeepSeek-V4 reads: V4-Flash at 131,072 tokens holds
// 919,617,536 B of cache (0.92 GB) and reads 213,778,432 B of it (0.21 GB: fit's
// TestCSAReadIsTheIndexersTopK); on 4 devices under vLLM each keeps and reads all of it.
func TestKVHeaderCSARead(t *testing.T) {
	headerSays(t, "m=deepseek-ai%2FDeepSeek-V4-Flash&s=kv&ctx=131072&engine=vllm&drv=nvidia&n=4",
		"= 0.92 GB",
		"+ 0.21 GB KV read of the 0.92 GB: the windows, every indexer key, the top 512 entries of each CSA layer, every HCA entry) on 4 devices:",
		"+ 0.21 GB KV each (all of the KV cache: vLLM keeps the compressed entries whole on every device)")
}

// headerSays renders the permalink's claim and checks that its provenance header, its lines
// joined and its words single-spaced (so a phrase may wrap), contains every wanted phrase.
func headerSays(t *testing.T, link string, wants ...string) {
	t.Helper()
	tg, err := target.ParsePermalink(link)
	if err != nil {
		t.Fatal(err)
	}
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, l := range parseYAML(t, r.YAML).header {
		words = append(words, strings.Fields(strings.TrimPrefix(l, "#"))...)
	}
	h := strings.Join(words, " ")
	for _, want := range wants {
		if !strings.Contains(h, want) {
			t.Errorf("%s: header lacks %q:\n%s", link, want, h)
		}
	}
}

// The fit line reads what a decoded token of DeepSeek-V3.2 reads under vLLM: at 131,072 tokens it
// holds 61 × 1,152 × 131,072 = 9,210,691,584 B of latents (9.21 GB) and reads 1,199,308,800 B
// (1.20 GB: every token's 132 B indexer key, the top 2,048 tokens' latents; fit's
// TestDSAReadIsTheIndexersTopK). On 8 devices, 38.52 GB of weights, 20 tok/s, nvidia's 79.37 % and
// 1.903 + 58 × 0.08732 = 6.968 + 3.5 ms of overhead: (4.815 + 1.199) GB / (0.05 − 0.010468 s) / 0.7937
// = 191.7 → 192 GB/s a device, where reading every latent would ask (4.815 + 9.211) / 0.039532 / 0.7937 = 447.02 → 448.
func TestKVHeaderDSARead(t *testing.T) {
	headerSays(t, "m=deepseek-ai%2FDeepSeek-V3.2&s=kv&ctx=131072&engine=vllm&drv=nvidia&n=8",
		"= 9.21 GB",
		"+ 1.20 GB KV read of the 9.21 GB: every token's indexer key, the top 2048 tokens' latents in each layer) on 8 devices:",
		"+ 1.20 GB KV each")
}

// Under vLLM a hybrid's recurrent state is counted in the dtypes vLLM keeps it in (fit's
// TestVLLMRecurrentStateDtypes): Qwen3-Next's all bf16, 19,759,104 × 2 B = 39.52 MB, + 12 × 2 × 2 ×
// 256 × 2 B × 262,144 = 6,442,450,944 B: 6,481,969,152 B = 6.48 GB held and read; Qwen3.5-122B-A10B's
// convolution inputs bf16 and its delta-rule state fp32, 153,649,152 B = 153.65 MB.
func TestKVHeaderVLLMRecurrentState(t *testing.T) {
	for _, c := range []struct {
		link string
		want []string
	}{
		{"m=Qwen%2FQwen3-Next-80B-A3B-Instruct&s=kv&ctx=262144&engine=vllm&drv=nvidia&n=2&tps=1", []string{
			"kv: 262144 tokens × 1 sequence, fp16: 39.52 MB of bf16 recurrent state per sequence (the other layers) + 2 × 12 full-attention layers (of 48) × 2 KV heads × 256 head dim × 2 B = 6.48 GB",
			"+ 6.48 GB KV)"}},
		{"m=Qwen%2FQwen3.5-122B-A10B&s=kv&ctx=8192&engine=vllm&drv=nvidia&n=4&tps=1", []string{
			"153.65 MB of bf16 convolution + fp32 SSM recurrent state per sequence"}},
	} {
		headerSays(t, c.link, c.want...)
	}
}

// A re-upload without an architectures.csv row takes the row of the model it re-uploads (fit's
// TestReuploadTakesItsKinsArchitecture): nvidia/GLM-5-NVFP4 holds GLM-5's latents, 78 × 1,152 B ×
// 131,072 = 11,777,605,632 B (11.78 GB), and under vLLM reads 78 × (132 × 131,072 + 1,152 × 2,048)
// = 1,533,542,400 B (1.53 GB), and the header names the row it took.
func TestKVHeaderReuploadKin(t *testing.T) {
	headerSays(t, "m=nvidia%2FGLM-5-NVFP4&s=kv&ctx=131072&engine=vllm&drv=nvidia&n=8",
		"arch: from config.json of zai-org/GLM-5 / GLM-5.1 via architectures.csv (the row of zai-org/GLM-5-FP8, which this repository re-uploads: the same name but for its owner and format)",
		"= 11.78 GB",
		"+ 1.53 GB KV read of the 11.78 GB")
}

// Under vLLM with an fp8 cache, DeepSeek-V3.2's latent is the 656 B fp8_ds_mla entry in the memory
// and in the read (fit's TestVLLMDSAReadsFP8DSMLA): at 131,072 tokens the read is 61 × (132 ×
// 131,072 + 656 × 2,048) = 1,137,344,512 B = 1.14 GB of the 61 × 576 × 131,072 = 4.61 GB held.
func TestKVHeaderDSAFP8Latent(t *testing.T) {
	headerSays(t, "m=deepseek-ai%2FDeepSeek-V3.2&s=kv&ctx=131072&engine=vllm&drv=nvidia&n=8&kv=fp8",
		"and its fp8 latent as fp8_ds_mla, 656 B (in the memory floor's KV blocks; the top-k latents are read at that size)",
		"+ 1.14 GB KV read of the 4.61 GB")
}
