package claim

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"

	"github.com/fitclaim/fitclaim/fit"
)

// parsed is a rendered manifest read back.
type parsed struct {
	doc     map[string]any
	header  []string // the leading comment lines
	request map[string]any
}

// parseYAML reads a rendered manifest back: exactly one YAML document (counted by the streaming
// decoder), strictly parsed (no duplicate keys) by sigs.k8s.io/yaml, every line before apiVersion
// a comment, and the claim or template spec located.
func parseYAML(t testing.TB, y string) parsed {
	t.Helper()
	var p parsed
	dec := yamlv2.NewDecoder(strings.NewReader(y))
	docs := 0
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("YAML stream: %v\n%s", err, y)
		}
		docs++
	}
	if docs != 1 {
		t.Fatalf("%d YAML documents, want 1:\n%s", docs, y)
	}
	if err := yaml.UnmarshalStrict([]byte(y), &p.doc); err != nil {
		t.Fatalf("sigs.k8s.io/yaml: %v\n%s", err, y)
	}
	lines := strings.Split(y, "\n")
	i := 0
	for ; i < len(lines) && !strings.HasPrefix(lines[i], "apiVersion: "); i++ {
		if !strings.HasPrefix(lines[i], "# ") {
			t.Fatalf("header line %d is not a comment: %q\n%s", i, lines[i], y)
		}
		p.header = append(p.header, lines[i])
	}
	if i == len(lines) {
		t.Fatalf("no apiVersion line:\n%s", y)
	}
	for _, l := range lines[i:] {
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") {
			t.Fatalf("stray line %q in the manifest:\n%s", l, y)
		}
	}
	if !strings.HasSuffix(y, "\n") || strings.HasSuffix(y, "\n\n") {
		t.Errorf("manifest does not end in exactly one newline")
	}
	spec := path(t, p.doc, "spec").(map[string]any)
	if p.doc["kind"] == "ResourceClaimTemplate" {
		spec = path(t, spec, "spec").(map[string]any)
	}
	reqs := path(t, spec, "devices", "requests").([]any)
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	p.request = reqs[0].(map[string]any)
	return p
}

// path walks maps by key.
func path(t testing.TB, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("at %q: %T is not a map", k, v)
		}
		v, ok = m[k]
		if !ok {
			t.Fatalf("no key %q in %v", k, m)
		}
	}
	return v
}

func expression(t testing.TB, exact map[string]any) string {
	t.Helper()
	sel := path(t, exact, "selectors").([]any)
	if len(sel) != 1 {
		t.Fatalf("%d selectors", len(sel))
	}
	return path(t, sel[0], "cel", "expression").(string)
}

const llmfitExpr6Gi148 = "'memory' in device.capacity['llmfit.ai'] && " +
	"device.capacity['llmfit.ai'].memory.compareTo(quantity('6Gi')) >= 0 && " +
	"'memoryBandwidthGBs' in device.attributes['llmfit.ai'] && " +
	"device.attributes['llmfit.ai'].memoryBandwidthGBs >= 148 && " +
	"'healthy' in device.attributes['llmfit.ai'] && " +
	"device.attributes['llmfit.ai'].healthy"

func TestYAMLParsesBack(t *testing.T) {
	r, err := renderFixture(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	if p.doc["apiVersion"] != "resource.k8s.io/v1" || p.doc["kind"] != "ResourceClaim" ||
		path(t, p.doc, "metadata", "name") != "test-model-7b-fit" || len(p.doc) != 4 {
		t.Errorf("doc = %v", p.doc)
	}
	if p.request["name"] != "model" || len(p.request) != 2 {
		t.Errorf("request = %v", p.request)
	}
	exact := path(t, p.request, "exactly").(map[string]any)
	if exact["deviceClassName"] != "llmfit.ai" || len(exact) != 2 {
		t.Errorf("exactly = %v", exact)
	}
	if got := expression(t, exact); got != llmfitExpr6Gi148 {
		t.Errorf("expression:\n got %s\nwant %s", got, llmfitExpr6Gi148)
	}
	if len(p.header) != 4 {
		t.Errorf("header: %q", p.header)
	}

	// Template: spec.spec, same request.
	r, err = renderFixture(t, func(t *fit.Target) { t.Template = true })
	if err != nil {
		t.Fatal(err)
	}
	p = parseYAML(t, r.YAML)
	if p.doc["kind"] != "ResourceClaimTemplate" || expression(t, path(t, p.request, "exactly").(map[string]any)) != llmfitExpr6Gi148 {
		t.Errorf("template: %v", p.doc)
	}
	if spec := path(t, p.doc, "spec").(map[string]any); len(spec) != 1 {
		t.Errorf("template spec has %d keys, want only spec", len(spec))
	}
}

// Every driver, count and sizing renders a manifest that parses back with the right shape.
func TestYAMLShapes(t *testing.T) {
	type want struct {
		class      string
		exprHas    []string
		exprHasNot []string
		count      float64 // 0: no count key
		constraint string  // the request the matchAttribute constraint names
		firstAvail []string
	}
	cases := []struct {
		name string
		mut  func(*fit.Target)
		w    want
	}{
		{"llmfit", nil, want{class: "llmfit.ai", exprHas: []string{"quantity('6Gi')", ">= 148"}}},
		{"nvidia", func(t *fit.Target) { t.Driver = "nvidia" }, want{class: "gpu.nvidia.com",
			exprHas: []string{"'type' in device.attributes['gpu.nvidia.com'] && device.attributes['gpu.nvidia.com'].type == 'gpu'",
				"device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('6Gi')) >= 0",
				"'productName' in device.attributes['gpu.nvidia.com'] && device.attributes['gpu.nvidia.com'].productName in ['NVIDIA B200', 'NVIDIA H200', ",
				"'Tesla T4', ", "'NVIDIA GeForce RTX 4080', ", "'NVIDIA GB10']"},
			exprHasNot: []string{"memoryBandwidthGBs", "healthy", ",,", "&& &&"}}},
		{"amd", func(t *fit.Target) { t.Driver = "amd" }, want{class: "gpu.amd.com",
			exprHas:    []string{"'memory' in device.capacity['gpu.amd.com'] && device.capacity['gpu.amd.com'].memory.compareTo(quantity('6Gi')) >= 0"},
			exprHasNot: []string{"&& 'memoryBandwidthGBs'", "productName"}}},
		{"intel", func(t *fit.Target) { t.Driver = "intel" }, want{class: "gpu.intel.com",
			exprHas: []string{"device.capacity['gpu.intel.com'].memory.compareTo(quantity('6Gi')) >= 0"}}},
		{"any", func(t *fit.Target) { t.Driver = "any" }, want{firstAvail: []string{"llmfit", "nvidia"}}},
		{"nvidia x2", func(t *fit.Target) { t.Driver, t.Count = "nvidia", 2 }, want{class: "gpu.nvidia.com", count: 2, constraint: "model",
			exprHas: []string{"quantity('3Gi')"}}},
		{"llmfit x3", func(t *fit.Target) { t.Count = 3 }, want{class: "llmfit.ai", count: 3,
			exprHas: []string{"quantity('2Gi')", ">= 55 &&"}}}, // 6/3 = 2 Gi; 147.64 / 2.7 = 54.68 → 55
		{"any x2", func(t *fit.Target) { t.Driver, t.Count = "any", 2 }, want{firstAvail: []string{"llmfit", "nvidia"}, count: 2, constraint: "model/nvidia"}},
		// kv: the fixture's own format is BF16 (no release format known): 7e9 × 2 B = 13.0385 GiB + estimated
		// KV 0.000008 × 7 × 4,096 = 0.229376 GB = 0.2136 GiB + 1.25 GiB llama.cpp reserve = 14.502 → 15 Gi.
		{"kv", func(t *fit.Target) { t.Sizing = "kv" }, want{class: "llmfit.ai", exprHas: []string{"quantity('15Gi')"}}},
		{"class", func(t *fit.Target) { t.DeviceClass = "my-class.example" }, want{class: "my-class.example", exprHas: []string{"'llmfit.ai'"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, tpl := range []bool{false, true} {
				r, err := renderFixture(t, func(t *fit.Target) {
					if c.mut != nil {
						c.mut(t)
					}
					t.Template = tpl
				})
				if err != nil {
					t.Fatal(err)
				}
				p := parseYAML(t, r.YAML)
				checkExact := func(exact map[string]any, class string) {
					if exact["deviceClassName"] != class {
						t.Errorf("deviceClassName %v, want %s", exact["deviceClassName"], class)
					}
					if c.w.count > 0 {
						if exact["count"] != c.w.count || exact["allocationMode"] != "ExactCount" {
							t.Errorf("count %v mode %v", exact["count"], exact["allocationMode"])
						}
					} else if _, ok := exact["count"]; ok {
						t.Error("count written for one device")
					}
				}
				if c.w.firstAvail != nil {
					subs := path(t, p.request, "firstAvailable").([]any)
					if len(subs) != 2 {
						t.Fatalf("%d sub-requests", len(subs))
					}
					for i, s := range subs {
						sm := s.(map[string]any)
						if sm["name"] != c.w.firstAvail[i] {
							t.Errorf("sub-request %d named %v", i, sm["name"])
						}
						checkExact(sm, map[int]string{0: "llmfit.ai", 1: "gpu.nvidia.com"}[i])
					}
					if !strings.Contains(expression(t, subs[0].(map[string]any)), "memoryBandwidthGBs") ||
						!strings.Contains(expression(t, subs[1].(map[string]any)), "productName in [") {
						t.Error("any: sub-request selectors")
					}
				} else {
					exact := path(t, p.request, "exactly").(map[string]any)
					checkExact(exact, c.w.class)
					e := expression(t, exact)
					for _, s := range c.w.exprHas {
						if !strings.Contains(e, s) {
							t.Errorf("expression lacks %q:\n%s", s, e)
						}
					}
					for _, s := range c.w.exprHasNot {
						if strings.Contains(e, s) {
							t.Errorf("expression has %q:\n%s", s, e)
						}
					}
					if len(e) > 10240 {
						t.Errorf("expression is %d bytes", len(e))
					}
				}
				spec := path(t, p.doc, "spec").(map[string]any)
				if tpl {
					spec = path(t, spec, "spec").(map[string]any)
				}
				devices := path(t, spec, "devices").(map[string]any)
				if c.w.constraint == "" {
					if _, ok := devices["constraints"]; ok {
						t.Error("unexpected constraints")
					}
				} else {
					cons := path(t, devices, "constraints").([]any)
					want := []any{map[string]any{"requests": []any{c.w.constraint}, "matchAttribute": "gpu.nvidia.com/productName"}}
					if !reflect.DeepEqual(cons, want) {
						t.Errorf("constraints = %v, want %v", cons, want)
					}
				}
			}
		})
	}
}

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
		r, err := renderModel(m, fit.DefaultTarget(), "9.9.9-test")
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
	r, err := renderModel(m, fit.Target{MinTps: 20, EfficiencyPct: 55, Sizing: "kv", Sequences: 1, KVCache: "fp16", Driver: "amd", Count: 2}, "9.9.9-test")
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

func TestJSONLayout(t *testing.T) {
	r, err := renderFixture(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	keys := jsonKeys(t, r.JSON)
	if got := strings.Join(keys, ","); got != "claimName,deviceClass,efficiencyPct,memoryGi,minBandwidthGBs,minTps,model,quant,resolverVersion,weightsGb" {
		t.Errorf("llmfit keys = %s", got)
	}
	var j map[string]any
	if err := json.Unmarshal([]byte(r.JSON), &j); err != nil {
		t.Fatal(err)
	}
	if j["memoryGi"] != 6.0 || j["minBandwidthGBs"] != 148.0 || j["weightsGb"] != 4.1 || j["resolverVersion"] != "9.9.9-test" {
		t.Errorf("values: %v", j)
	}
	// llmfit mode with overrides of everything llmfit knows still has exactly ten keys.
	r, err = renderFixture(t, func(t *fit.Target) {
		t.Quant, t.MinTps, t.EfficiencyPct, t.Template, t.Name, t.DeviceClass = "Q8_0", 22.5, 60, true, "x", "y.z"
	})
	if err != nil {
		t.Fatal(err)
	}
	if keys := jsonKeys(t, r.JSON); len(keys) != 10 || !strings.Contains(r.JSON, `"minTps": 22.5,`) || !strings.Contains(r.JSON, `"weightsGb": 7.4`) {
		t.Errorf("llmfit overrides: %s", r.JSON)
	}
	// 7.35 rounds half away from zero to 7.4 (Rust's round), not to even.
	// kv mode adds its keys; another driver adds count, driver and the product list.
	r, err = renderFixture(t, func(t *fit.Target) { t.Sizing, t.Driver = "kv", "nvidia" })
	if err != nil {
		t.Fatal(err)
	}
	want := "activeParamsB,claimName,contextTokens,count,deviceClass,driver,efficiencyPct,kvCache,kvCacheGi,kvEstimated,memoryGi,minBandwidthGBs,minTps,model,productNames,quant,resolverVersion,sequences,sizing,speedEfficiency,speedFamily,speedOverheadMs,weightsGb"
	if got := strings.Join(jsonKeys(t, r.JSON), ","); got != want {
		t.Errorf("kv+nvidia keys:\n got %s\nwant %s", got, want)
	}
	if err := json.Unmarshal([]byte(r.JSON), &j); err != nil {
		t.Fatal(err)
	}
	// The products (≥ 15 Gi = 15,360 MiB and ≥ 388 GB/s: 14.229376 GB / (0.7672 × 0.047862), nvidia's
	// calibrated efficiency): 24 of the first table's 26 NVIDIA rows (not the L4 and T4), and of the
	// later rows the TITAN RTX, 3090 Ti, 4070 Ti SUPER, 4080 SUPER, 5060 Ti 16GB, 5070 Ti, 5080,
	// RTX 5880 Ada, RTX PRO 6000 Workstation and RTX A5000: 34.
	if j["sizing"] != "kv" || j["kvEstimated"] != true || j["contextTokens"] != 4096.0 || j["driver"] != "nvidia" || j["count"] != 1.0 ||
		len(j["productNames"].([]any)) != 34 || j["activeParamsB"] != 7.0 || j["kvCache"] != "fp16" {
		t.Errorf("kv+nvidia values: %v", j)
	}
	// Two-space indent, one key per line, no trailing newline (as llmfit prints it).
	if !strings.HasPrefix(r.JSON, "{\n  \"activeParamsB\": 7.0,\n") || !strings.HasSuffix(r.JSON, "\n}") {
		t.Errorf("layout:\n%s", r.JSON)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(r.JSON), "", "  "); err != nil || buf.String() != r.JSON {
		t.Errorf("not in encoding/json's own two-space layout:\n%s\nvs\n%s", r.JSON, buf.String())
	}
}

// jsonKeys lists the top-level keys in order.
func jsonKeys(t *testing.T, s string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %v %v", tok, err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// serde_json prints f64 with ryu: shortest digits, a fraction or an exponent always, plain
// notation for decimal exponents -5 < k ≤ 16.
func TestJSONFloat(t *testing.T) {
	cases := []struct {
		x    float64
		want string
	}{
		{20, "20.0"}, {22.5, "22.5"}, {0, "0.0"}, {4.1, "4.1"}, {7.4, "7.4"}, {0.5, "0.5"}, {-3, "-3.0"}, {-0.25, "-0.25"},
		{100000, "100000.0"}, {1e15, "1000000000000000.0"}, {1e16, "1e16"}, {1.5e16, "1.5e16"}, {1234567890123456, "1234567890123456.0"},
		{1e17, "1e17"}, {1.25e20, "1.25e20"}, {1.7976931348623157e308, "1.7976931348623157e308"},
		{0.0001, "0.0001"}, {0.00001, "0.00001"}, {1e-6, "1e-6"}, {1.5e-7, "1.5e-7"}, {0.000123, "0.000123"},
		{5e-324, "5e-324"}, {0.30000000000000004, "0.30000000000000004"}, {123.456, "123.456"},
	}
	for _, c := range cases {
		if got := jsonFloat(c.x); got != c.want {
			t.Errorf("jsonFloat(%v) = %q, want %q", c.x, got, c.want)
		}
		// And it is valid JSON for the same number.
		var back float64
		if err := json.Unmarshal([]byte(jsonFloat(c.x)), &back); err != nil || back != c.x {
			t.Errorf("jsonFloat(%v) = %q reads back as %v, %v", c.x, jsonFloat(c.x), back, err)
		}
	}
}

func TestJSONString(t *testing.T) {
	cases := map[string]string{
		"plain":      `"plain"`,
		`q"b\`:       `"q\"b\\"`,
		"\n\r\t\b\f": `"\n\r\t\b\f"`,
		"\x00\x1f":   `"\u0000\u001f"`,
		"\x7f":       "\"\x7f\"",
		"é≈\u2028":   "\"é≈\u2028\"",
		"bad\xffx":   `"bad\ufffdx"`,
		"</script>":  `"</script>"`,
	}
	for in, want := range cases {
		got := jsonString(in)
		if got != want {
			t.Errorf("jsonString(%q) = %s, want %s", in, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != string([]rune(in)) {
			t.Errorf("jsonString(%q) reads back as %q, %v", in, back, err)
		}
	}
}

func TestRoundHalfAway(t *testing.T) {
	cases := []struct{ x, want float64 }{{7.35, 7.4}, {4.06, 4.1}, {0.05, 0.1}, {2.25, 2.3}, {-2.25, -2.3}, {0.04, 0}, {17.7085087744, 17.7}}
	for _, c := range cases {
		if got := roundHalfAway(c.x, 1); got != c.want {
			t.Errorf("roundHalfAway(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestHeaderNumbers(t *testing.T) {
	cases := []struct {
		tps  float64
		want string
	}{{20, "for ≥ 20 tok/s"}, {22.5, "for ≥ 22.5 tok/s"}, {0.1, "for ≥ 0.1 tok/s"}, {100000, "for ≥ 100000 tok/s"}, {0.00001, "for ≥ 0.00001 tok/s"}}
	for _, c := range cases {
		r, err := renderFixture(t, func(t *fit.Target) { t.MinTps = c.tps })
		if err != nil {
			t.Fatal(err)
		}
		p := parseYAML(t, r.YAML)
		if !strings.HasSuffix(p.header[2], c.want) {
			t.Errorf("minTps %v: %q, want suffix %q", c.tps, p.header[2], c.want)
		}
	}
	// 22.5 tok/s: ceil(22.5 × 4.06 × 100 / 55) = ceil(166.09) = 167.
	r, err := renderFixture(t, func(t *fit.Target) { t.MinTps = 22.5 })
	if err != nil {
		t.Fatal(err)
	}
	if want := "# fit:    tok/s ≈ bandwidth × 55% / 4.1 GB  ⇒  bandwidth ≥ 167 GB/s for ≥ 22.5 tok/s"; parseYAML(t, r.YAML).header[2] != want {
		t.Errorf("header: %q", parseYAML(t, r.YAML).header[2])
	}
	// Params and weights with one decimal: Q8_0 7 × 1.05 = 7.3500000000000005 in binary → "7.4" (the golden file agrees).
	r, err = renderFixture(t, func(t *fit.Target) { t.Quant = "Q8_0" })
	if err != nil {
		t.Fatal(err)
	}
	if h := parseYAML(t, r.YAML).header[1]; h != "# model:  Test Model 7B (7.0B params, Q8_0 ≈ 7.4 GB weights)" {
		t.Errorf("header: %q", h)
	}
	// Count > 1 in llmfit mode: the memory line shows the whole model, the split line each device.
	r, err = renderFixture(t, func(t *fit.Target) { t.Count = 2 })
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	if p.header[3] != "# memory: ≥ 6 Gi (weights + KV/runtime headroom)" ||
		!strings.Contains(p.header[2], "bandwidth ≥ 148 GB/s") ||
		p.header[4] != "# split:  2 devices, each ≥ 3 Gi and ≥ 83 GB/s (together 2 × 0.9 of one device's bandwidth)" {
		t.Errorf("count 2 header: %q", p.header)
	}
}

func TestKVHeader(t *testing.T) {
	tg := fit.DefaultTarget()
	tg.Model, tg.Sizing = "Qwen/Qwen3-30B-A3B-Instruct-2507", "kv"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	want := []string{
		"# Generated by fitclaim 9.9.9-test — do not compute these constants by hand.",
		"# model:  Qwen/Qwen3-30B-A3B-Instruct-2507 (30.5B params, 3.3B active, BF16 ≈ 61.1 GB weights)",
		"# arch:   from config.json of Qwen/Qwen3-30B-A3B-Instruct-2507 via architectures.csv; maximum context",
		"#         262144 tokens",
		"# kv:     8192 tokens × 1 sequence, fp16: 2 × 48 layers × 4 KV heads × 128 head dim × 2 B = 0.81 GB",
		// 3,339,427,840 × 1.442 × 2 B = 9.63 GB; (9.63 + 0.81) / 0.0205471566 = 507.91 → 508 (fit's TestKVMixtureOfExperts)
		"# fit:    s/token = (9.63 GB weights (3.3B active × 1.442 MoE read factor) + 0.81 GB KV) / (bandwidth",
		"#         × 42.93%, calibrated for intel, the least efficient family any vendor's device may be) +",
		"#         2.138 ms overhead  ⇒  bandwidth ≥ 508 GB/s for ≥ 20 tok/s per sequence",
		"# memory: ≥ 59 Gi = ceil(56.87 GiB weights + 0.75 GiB KV cache + 1.25 GiB llama.cpp reserve (0.75 CUDA",
		"#         context + 0.5 compute buffer))",
	}
	if !reflect.DeepEqual(p.header, want) {
		t.Errorf("kv header:\n%s\nwant\n%s", strings.Join(p.header, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.JSON, `"speedEfficiency": 0.4293,`) || !strings.Contains(r.JSON, `"speedFamily": "intel",`) ||
		!strings.Contains(r.JSON, `"speedOverheadMs": 2.138,`) || !strings.Contains(r.JSON, `"activeParamsB": 3.339,`) || !strings.Contains(r.JSON, `"kvCacheGi": 0.75,`) || !strings.Contains(r.JSON, `"kvEstimated": false,`) {
		t.Errorf("kv JSON:\n%s", r.JSON)
	}
	// The estimate says so: moondream2 has no architecture anywhere; 0.000008 × 1.927237104 × 4,096 = 0.063 GB.
	tg.Model = "vikhyatk/moondream2"
	r, err = RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	if h := parseYAML(t, r.YAML).header[2:4]; h[0]+"\n"+h[1] != "# kv:     4096 tokens × 1 sequence, fp16: estimated 0.06 GB (0.000008 GB per billion params per token;\n#         the model's layers/heads are unknown)" {
		t.Errorf("estimated kv lines: %q", h)
	}
	if !slices.Contains(r.Warnings, "the KV cache is estimated (0.000008 GB per billion parameters per token): the catalog lacks this model's layers, KV heads or head size") {
		t.Errorf("warnings: %q", r.Warnings)
	}
}

func TestWarnings(t *testing.T) {
	// llmfit mode leaves room for 7,233 fp16 tokens of Qwen2.5-7B (fit tests compute it) < 8,192.
	tg := fit.DefaultTarget()
	tg.Model = "Qwen/Qwen2.5-7B-Instruct"
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, "llmfit sizing computes no KV cache: the memory floor leaves room for about 7233 tokens of fp16 KV cache; use sizing kv to size for a context") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	// The fixture's 6 Gi leave room for 32,956 tokens > 4,096: no warning at all.
	rf, err := renderFixture(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rf.Warnings) != 0 {
		t.Errorf("fixture warnings: %q", rf.Warnings)
	}
	// Context longer than the model's.
	tg.Sizing, tg.Context = "kv", 65536
	r, err = Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, "context 65536 is longer than the model's 32768 tokens") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	// AMD: the bandwidth floor is not enforced; said in the warnings and the header.
	rf, err = renderFixture(t, func(t *fit.Target) { t.Driver = "amd" })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rf.Warnings, "gpu.amd.com publishes no bandwidth: the 148 GB/s floor is not enforced by this claim, only memory") ||
		!strings.Contains(rf.YAML, "# driver: gpu.amd.com publishes no bandwidth and no product list is known: the ≥ 148 GB/s floor is NOT\n#         enforced, only memory\n") {
		t.Errorf("amd: %q\n%s", rf.Warnings, rf.YAML)
	}
	// Nothing fits one device: propose the smallest count.
	r, err = Render(fit.Target{ParamsB: 405, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, "no accelerator in the catalog meets these floors with 1 device; 2 × NVIDIA B200 would (set count to 2)") {
		t.Errorf("405B warnings: %q", r.Warnings)
	}
	// Nothing fits even eight.
	rf, err = renderFixture(t, func(t *fit.Target) { t.MinTps = 100000 })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rf.Warnings, "no accelerator in the catalog meets these floors, even 8 of them") {
		t.Errorf("100k tok/s warnings: %q", rf.Warnings)
	}
	// The matches travel with the result.
	if len(rf.Matches) != 129 { // every row of data/accelerators.csv
		t.Errorf("%d matches", len(rf.Matches))
	}
}

func TestRenderErrors(t *testing.T) {
	for _, c := range []struct {
		t     fit.Target
		field string
	}{
		{fit.Target{}, "minTps"},
		{fit.Target{Model: "no-such-model-zzzzzzzzzzzz", MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1}, "model"},
		{fit.Target{ParamsB: 7, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1, Name: "Bad"}, "name"},
	} {
		_, err := Render(c.t)
		var fe *fit.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v: %v, want a FieldError on %s", c.t, err, c.field)
		}
	}
}

func TestVersion(t *testing.T) {
	if Version != Release+"+catalog.2026-05-12" {
		t.Errorf("Version = %q", Version)
	}
	tg := fit.DefaultTarget()
	tg.ParamsB = 7
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.YAML, "# Generated by fitclaim "+Version+" — do not compute") || !strings.Contains(r.JSON, `"resolverVersion": "`+Version+`"`) {
		t.Errorf("version not stamped:\n%s\n%s", r.YAML, r.JSON)
	}
}

// Extreme but valid inputs render positive, parseable numbers (fit caps its floors at 2^53).
func TestExtremeRender(t *testing.T) {
	// The KV-aware sizing refuses a speed at or past 1 / (t0 + communication): 1 / (2.138 + 3.5 ms) =
	// 177.37 tok/s on 8 devices; the extreme inputs are tried just under it.
	tg := fit.Target{ParamsB: fit.MaxParamsB, Quant: "F32", MinTps: 177, EfficiencyPct: 1, Sizing: "kv",
		Context: fit.MaxContext, Sequences: fit.MaxSequences, KVCache: "fp16", Driver: "llmfit", Count: 8,
		Layers: fit.MaxLayers, KVHeads: fit.MaxKVHeads, HeadDim: fit.MaxHeadDim}
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	for _, h := range p.header {
		if strings.Contains(h, "-9223372036854775808") || strings.Contains(h, "≥ -") {
			t.Errorf("negative number in %q", h)
		}
	}
	e := expression(t, path(t, p.request, "exactly").(map[string]any))
	if strings.Contains(e, ">= -") || strings.Contains(e, "quantity('-") {
		t.Errorf("negative floor: %s", e)
	}
	if math.IsNaN(r.Bounds.ReadGBPerToken) {
		t.Error("NaN read")
	}
}

// Llama-2-7b's llmfit floor (4 Gi) is smaller than its weights (3.63 GiB) plus 0.5 GiB overhead:
// the warning says there is no room at all rather than "about 0 tokens".
func TestWarningNoKVRoom(t *testing.T) {
	tg := fit.DefaultTarget()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bounds.KVTokensRoom != 0 || !slices.Contains(r.Warnings, "llmfit sizing computes no KV cache: the memory floor leaves no room for a KV cache beside the weights and 0.5 GiB of runtime overhead; use sizing kv to size for a context") {
		t.Errorf("room %d, warnings %q", r.Bounds.KVTokensRoom, r.Warnings)
	}
}

// Wrapped header lines stay within 100 columns (a short unbroken tail may run 12 past it) and
// never leave a unit dangling alone on a continuation line.
func TestHeaderWrap(t *testing.T) {
	long := "kv:     32768 tokens × 4 sequences, fp16: 2 × 48 layers × 4 KV heads × 128 head dim × 2 B = 12.88 GB"
	if got := wrap(long, commentWidth, "        "); len(got) != 1 {
		t.Errorf("a 2-character tail was wrapped: %q", got)
	}
	list := "driver: " + strings.TrimSuffix(strings.Repeat("NVIDIA H100 80GB HBM3, ", 12), ", ")
	got := wrap(list, commentWidth, "        ")
	if len(got) < 3 {
		t.Fatalf("not wrapped: %q", got)
	}
	for i, l := range got {
		if n := len([]rune(l)); n > commentWidth+12 || strings.HasSuffix(l, " ") || i > 0 && !strings.HasPrefix(l, "        N") {
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
			"# kv:     131072 tokens × 1 sequence, fp16: 2 × (18 full layers × tokens + 18 sliding layers ×",
			"#         min(tokens, 128)) × 8 KV heads × 64 head dim × 2 B = 4.84 GB"}},
		// 61 × (512 + 64) × 2 B × 163,840 = 11,513,364,480 B = 11.51 GB
		{"m=deepseek-ai%2FDeepSeek-R1&s=kv&ctx=163840", []string{
			"# kv:     163840 tokens × 1 sequence, fp16: 61 layers × (512 latent + 64 RoPE key) per token (MLA) × 2",
			"#         B = 11.51 GB"}},
		// 12 × 2 × 2 × 256 × 2 B × 262,144 = 6,442,450,944 B = 6.44 GB
		{"m=Qwen%2FQwen3-Next-80B-A3B-Instruct&s=kv&ctx=262144", []string{
			"# kv:     262144 tokens × 1 sequence, fp16: 2 × 12 full-attention layers (of 48; the others keep a",
			"#         fixed state) × 2 KV heads × 256 head dim × 2 B = 6.44 GB"}},
		// An override is named: 2 × 32 × 16 × 128 × 2 B × 8,192 = 2,147,483,648 B = 2.15 GB.
		{"m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&kvh=16", []string{
			"# arch:   kvHeads from the override, the rest from config.json of meta-llama/Llama-3.1-8B(-Instruct)",
			"#         via architectures.csv; maximum context 131072 tokens",
			"# kv:     8192 tokens × 1 sequence, fp16: 2 × 32 layers × 16 KV heads × 128 head dim × 2 B = 2.15 GB"}},
	} {
		tg, err := ParsePermalink(c.link)
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
