package claim

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

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
	r, err = renderFixture(t, func(t *target.Target) {
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
	r, err = renderFixture(t, func(t *target.Target) { t.Sizing, t.Driver = "kv", "nvidia" })
	if err != nil {
		t.Fatal(err)
	}
	want := "activeParamsB,claimName,contextTokens,count,deviceClass,driver,efficiencyGiven,efficiencyPct,kvCache,kvCacheGi,kvEstimated,memoryGi,minBandwidthGBs,minTps,model,productNames,quant,resolverVersion,sequences,sizing,speedEfficiency,speedFamily,speedOverheadMs,weightsGb"
	if got := strings.Join(jsonKeys(t, r.JSON), ","); got != want {
		t.Errorf("kv+nvidia keys:\n got %s\nwant %s", got, want)
	}
	if err := json.Unmarshal([]byte(r.JSON), &j); err != nil {
		t.Fatal(err)
	}
	// The products (≥ 15 Gi = 15,360 MiB and ≥ 373 GB/s: 14.229376 GB / (0.7938 × 0.048096) = 372.70, nvidia's
	// calibrated efficiency): 24 of the first table's 26 NVIDIA rows (not the L4 and T4), and of the
	// later rows the TITAN RTX, 3090 Ti, 4070 Ti SUPER, 4080 SUPER, 5060 Ti 16GB, 5070 Ti, 5080,
	// RTX 5880 Ada, RTX PRO 6000 Workstation and RTX A5000: 34.
	if j["sizing"] != "kv" || j["kvEstimated"] != true || j["contextTokens"] != 4096.0 || j["driver"] != "nvidia" || j["count"] != 1.0 ||
		len(j["productNames"].([]any)) != 34 || j["activeParamsB"] != 7.0 || j["kvCache"] != "fp16" {
		t.Errorf("kv+nvidia values: %v", j)
	}
	// efficiencyPct stays the target's field (llmfit's 55, not given), and efficiencyGiven says the
	// floor did not use it: it used speedEfficiency, nvidia's calibrated 0.7938.
	if j["efficiencyPct"] != 55.0 || j["efficiencyGiven"] != false || j["speedEfficiency"] != 0.7938 || j["speedFamily"] != "nvidia" {
		t.Errorf("kv efficiency, not given: %v %v %v %v", j["efficiencyPct"], j["efficiencyGiven"], j["speedEfficiency"], j["speedFamily"])
	}
	// Given (eff=60): the floor uses 60 / 100 = 0.6, and no family.
	r, err = renderFixture(t, func(t *target.Target) { t.Sizing, t.Driver, t.EfficiencyPct = "kv", "nvidia", 60 })
	if err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	if err := json.Unmarshal([]byte(r.JSON), &g); err != nil {
		t.Fatal(err)
	}
	if g["efficiencyPct"] != 60.0 || g["efficiencyGiven"] != true || g["speedEfficiency"] != 0.6 || g["speedFamily"] != "" {
		t.Errorf("kv efficiency, given 60: %v %v %v %v", g["efficiencyPct"], g["efficiencyGiven"], g["speedEfficiency"], g["speedFamily"])
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
