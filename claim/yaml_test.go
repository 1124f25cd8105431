package claim

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
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
	r, err = renderFixture(t, func(t *target.Target) { t.Template = true })
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
		mut  func(*target.Target)
		w    want
	}{
		{"llmfit", nil, want{class: "llmfit.ai", exprHas: []string{"quantity('6Gi')", ">= 148"}}},
		{"nvidia", func(t *target.Target) { t.Driver = "nvidia" }, want{class: "gpu.nvidia.com",
			exprHas: []string{"'type' in device.attributes['gpu.nvidia.com'] && device.attributes['gpu.nvidia.com'].type == 'gpu'",
				"device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('6Gi')) >= 0",
				"'productName' in device.attributes['gpu.nvidia.com'] && device.attributes['gpu.nvidia.com'].productName in ['NVIDIA B200', 'NVIDIA H200', ",
				"'Tesla T4', ", "'NVIDIA GeForce RTX 4080', ", "'NVIDIA GB10', 'NVIDIA A30', ",
				"'NVIDIA H20', 'NVIDIA H800', ", "'Tesla V100-PCIE-16GB', ", "'NVIDIA RTX 5000 Ada Generation', ",
				"'NVIDIA GH200 120GB', 'NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition', ",
				"'NVIDIA RTX A4000', 'NVIDIA GeForce RTX 4090 D', 'NVIDIA RTX A5500', 'NVIDIA RTX A4500', ",
				"'NVIDIA RTX 2000 Ada Generation', 'NVIDIA L2', 'NVIDIA A800 40GB Active', 'NVIDIA A800-SXM4-40GB']"},
			exprHasNot: []string{"memoryBandwidthGBs", "healthy", ",,", "&& &&"}}},
		{"amd", func(t *target.Target) { t.Driver = "amd" }, want{class: "gpu.amd.com",
			exprHas:    []string{"'memory' in device.capacity['gpu.amd.com'] && device.capacity['gpu.amd.com'].memory.compareTo(quantity('6Gi')) >= 0"},
			exprHasNot: []string{"&& 'memoryBandwidthGBs'", "productName"}}},
		{"intel", func(t *target.Target) { t.Driver = "intel" }, want{class: "gpu.intel.com",
			exprHas: []string{"device.capacity['gpu.intel.com'].memory.compareTo(quantity('6Gi')) >= 0"}}},
		{"any", func(t *target.Target) { t.Driver = "any" }, want{firstAvail: []string{"llmfit", "nvidia"}}},
		{"nvidia x2", func(t *target.Target) { t.Driver, t.Count = "nvidia", 2 }, want{class: "gpu.nvidia.com", count: 2, constraint: "model",
			exprHas: []string{"quantity('3Gi')"}}},
		{"llmfit x3", func(t *target.Target) { t.Count = 3 }, want{class: "llmfit.ai", count: 3,
			exprHas: []string{"quantity('2Gi')", ">= 55 &&"}}}, // 6/3 = 2 Gi; 147.64 / 2.7 = 54.68 → 55
		{"any x2", func(t *target.Target) { t.Driver, t.Count = "any", 2 }, want{firstAvail: []string{"llmfit", "nvidia"}, count: 2, constraint: "model/nvidia"}},
		// kv: the fixture's own format is BF16 (no release format known): 7e9 × 2 B = 13.0385 GiB + estimated
		// KV 0.000008 × 7 × 4,096 = 0.229376 GB = 0.2136 GiB + 0.9717 GiB llama.cpp reserve (vocabulary and
		// width unknown) = 14.2238 → 15 Gi.
		{"kv", func(t *target.Target) { t.Sizing = "kv" }, want{class: "llmfit.ai", exprHas: []string{"quantity('14566Mi')"}}}, // kv: the need to the MiB
		{"class", func(t *target.Target) { t.DeviceClass = "my-class.example" }, want{class: "my-class.example", exprHas: []string{"'llmfit.ai'"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, tpl := range []bool{false, true} {
				r, err := renderFixture(t, func(t *target.Target) {
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

// Names and classes keep llmfit's plain spelling when YAML reads them as text, and are quoted
// only when it would not.
func TestYAMLStringQuoting(t *testing.T) {
	for s, want := range map[string]string{
		"test-model-7b-fit": "test-model-7b-fit", "llmfit.ai": "llmfit.ai", "gpu.nvidia.com": "gpu.nvidia.com",
		"a1": "a1", "1a": "1a", "1-2": "1-2", "1.2.3": "1.2.3", "e1": "e1", "0x": "0x", "yes-fit": "yes-fit", "2001-12-145": "2001-12-145",
		"123": "'123'", "1.5": "'1.5'", "1e3": "'1e3'", "0x1f": "'0x1f'", "true": "'true'", "off": "'off'", "null": "'null'", "2001-12-14": "'2001-12-14'",
	} {
		if got := yamlString(s); got != want {
			t.Errorf("yamlString(%q) = %s, want %s", s, got, want)
		}
	}
	r, err := renderFixture(t, func(t *target.Target) { t.Name, t.DeviceClass = "2001-12-14", "true" })
	if err != nil {
		t.Fatal(err)
	}
	p := parseYAML(t, r.YAML)
	if path(t, p.doc, "metadata", "name") != "2001-12-14" || path(t, p.request, "exactly", "deviceClassName") != "true" {
		t.Errorf("quoted values read back wrong:\n%s", r.YAML)
	}
}

const llmfitExpr6Gi148 = "'memory' in device.capacity['llmfit.ai'] && " +
	"device.capacity['llmfit.ai'].memory.compareTo(quantity('6Gi')) >= 0 && " +
	"'memoryBandwidthGBs' in device.attributes['llmfit.ai'] && " +
	"device.attributes['llmfit.ai'].memoryBandwidthGBs >= 148 && " +
	"'healthy' in device.attributes['llmfit.ai'] && " +
	"device.attributes['llmfit.ai'].healthy"

// TestIsDate: YAML 1.1's date shape, YYYY-M(M)-D(D), digits only (the scalars that must be
// quoted so a YAML 1.1 reader does not take them for a timestamp).
func TestIsDate(t *testing.T) {
	for s, want := range map[string]bool{
		"2024-01-02": true, "2024-1-2": true, "0000-00-00": true,
		"2024-01-02-03": false, "202-01-02": false, "20245-01-02": false, "2024--02": false, "2024-01-": false,
		"2024-123-02": false, "2024-01-123": false, "abcd-01-02": false, "2024-01": false, "2024-01-0a": false,
		"": false, "-": false, "--": false, "2024": false,
	} {
		if got := isDate(s); got != want {
			t.Errorf("isDate(%q) = %v, want %v", s, got, want)
		}
	}
}

// yamlNonStringParsed is yamlNonString without its shortcuts (every text lowered and parsed):
// the reference TestYAMLNonStringShortcuts holds it to.
func yamlNonStringParsed(s string) bool {
	switch strings.ToLower(s) {
	case "", "~", "null", "y", "n", "yes", "no", "true", "false", "on", "off":
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return true
	}
	if _, err := strconv.ParseInt(s, 0, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return true
	}
	return isDate(s)
}

// TestYAMLNonStringShortcuts: skipping the parse for text that cannot be a number, and the
// words for text longer than five bytes, decides every text as parsing it all does: numbers in
// every spelling strconv reads, the words in any case, Unicode that lowers to ASCII, and what
// the claims write.
func TestYAMLNonStringShortcuts(t *testing.T) {
	texts := []string{"", "~", "Null", "NULL", "y", "Y", "n", "yes", "No", "TRUE", "False", "on", "OFF", "offf", "nul",
		"0", "-0", "+1", "1.5", ".5", "-.5", "5.", "1e9", "1E-9", "1e999", "-1e999", "0x1p-2", "0X1P+2", "0x10", "0o17", "0b101", "017",
		"1_000", "0x_1", "_1", "1_", "inf", "+Inf", "-INFINITY", "infinity", "nan", "NaN", "+nan", "in", "infinit", "9223372036854775808",
		"-9223372036854775809", "1.5.5", "--1", "+-1", "+", "-", ".", "e5", "2024-01-02", "2024-1-2",
		"\u212a", "\u0130", "ſ", "ＴＲＵＥ", "Qwen/Qwen2.5-7B-Instruct", "gpu.nvidia.com", "llmfit.ai", "model", "7B", "1.5B", "8e"}
	for _, a := range []string{"", "+", "-"} {
		for _, b := range []string{"0", "1", ".", "i", "I", "n", "N", "x", "_", "e", "0x", "0b"} {
			for _, c := range []string{"", "1", "e1", "nf", "an", "_1", "p1", "x", "."} {
				texts = append(texts, a+b+c)
			}
		}
	}
	for _, s := range texts {
		if got, want := yamlNonString(s), yamlNonStringParsed(s); got != want {
			t.Errorf("yamlNonString(%q) = %v, parsing it gives %v", s, got, want)
		}
	}
}
