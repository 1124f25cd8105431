package claim

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/internal/jsontext"
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
	want := "activeParamsB,claimName,contextTokens,count,deviceClass,driver,efficiencyGiven,efficiencyPct,engine,kvCache,kvCacheGi,kvEstimated,memoryGi,memoryMi,minBandwidthGBs,minTps,model,overheadGi,productNames,quant,resolverVersion,sequences,sizing,speedEfficiency,speedFamily,speedOverheadMs,warnings,weightsGb"
	if got := strings.Join(jsonKeys(t, r.JSON), ","); got != want {
		t.Errorf("kv+nvidia keys:\n got %s\nwant %s", got, want)
	}
	// warnings (sixteenth session): the claim's, as Render gives them; this fixture's KV cache is
	// estimated (the catalog lacks its shapes), which the first says.
	if !strings.Contains(r.JSON, "  \"warnings\": [\n    \"the KV cache is estimated (") || len(r.Warnings) == 0 {
		t.Errorf("kv+nvidia warnings %q not in the JSON:\n%s", r.Warnings, r.JSON)
	}
	if err := json.Unmarshal([]byte(r.JSON), &j); err != nil {
		t.Fatal(err)
	}
	// The products (≥ 15 Gi = 15,360 MiB and ≥ 373 GB/s: 14.229376 GB / (0.7937 × 0.048097) = 372.74, nvidia's
	// calibrated efficiency): 24 of the first table's 26 NVIDIA rows (not the L4 and T4), and of the
	// later rows the TITAN RTX, 3090 Ti, 4070 Ti SUPER, 4080 SUPER, 5060 Ti 16GB, 5070 Ti, 5080,
	// RTX 5880 Ada, RTX PRO 6000 Workstation and RTX A5000: 34; and 13 of the 15 rows added on
	// 2026-12-03 (not the A16 and A2: 15,356 MiB < 15 Gi): 47; and the audit's GH200 120GB and
	// RTX PRO 6000 Max-Q, A800 SXM4 and PCIe, RTX A4000 (16,376 MiB) and RTX 4090 D: 53; and the
	// fifteenth session's RTX A5500, A4500, 4500 Ada, A800 40GB Active and A800 SXM4 40GB (not the
	// RTX 2000 Ada, 224 GB/s, nor the L2, 300 GB/s): 58.
	if j["sizing"] != "kv" || j["kvEstimated"] != true || j["contextTokens"] != 4096.0 || j["driver"] != "nvidia" || j["count"] != 1.0 ||
		len(j["productNames"].([]any)) != 58 || j["activeParamsB"] != 7.0 || j["kvCache"] != "fp16" {
		t.Errorf("kv+nvidia values: %v", j)
	}
	// efficiencyPct stays the target's field (llmfit's 55, not given), and efficiencyGiven says the
	// floor did not use it: it used speedEfficiency, nvidia's calibrated 0.7937.
	if j["efficiencyPct"] != 55.0 || j["efficiencyGiven"] != false || j["speedEfficiency"] != 0.7937 || j["speedFamily"] != "nvidia" {
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
		got := string(jsontext.AppendQuote(nil, in)) // how renderJSON writes a string
		if got != want {
			t.Errorf("AppendQuote(%q) = %s, want %s", in, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != string([]rune(in)) {
			t.Errorf("AppendQuote(%q) reads back as %q, %v", in, back, err)
		}
	}
}

// jsonFloatByStrings is jsonFloat as it was written before appendJSONFloat (strings cut and
// joined), kept as the reference TestAppendJSONFloatIsTheStringsVersion holds it to.
func jsonFloatByStrings(x float64) string {
	if x == 0 {
		return "0.0"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	kk := exp + 1
	n := len(digits)
	switch {
	case n <= kk && kk <= 16:
		return sign + digits + strings.Repeat("0", kk-n) + ".0"
	case 0 < kk && kk <= 16:
		return sign + digits[:kk] + "." + digits[kk:]
	case -5 < kk && kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		return sign + digits + "e" + strconv.Itoa(kk-1)
	default:
		return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
}

// TestAppendJSONFloatIsTheStringsVersion: the same text for every exponent's range (plain,
// exponent, small fractions, subnormals), both signs, the rounded values the JSON writes, and
// after text already in the buffer.
func TestAppendJSONFloatIsTheStringsVersion(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 1))
	xs := []float64{0, 1, -1, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1e16, 1e-5, 1e-6, 123.456}
	for range 20000 {
		xs = append(xs,
			math.Float64frombits(r.Uint64()),                       // any bit pattern
			(r.Float64()-0.5)*math.Pow(10, float64(r.IntN(50)-25)), // around the plain range
			math.Round(r.Float64()*1e4)/10)                         // one decimal, as weightsGb
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		want := jsonFloatByStrings(x)
		if got := string(appendJSONFloat([]byte("ab"), x)); got != "ab"+want {
			t.Fatalf("appendJSONFloat(%v) = %q, want %q", x, got, "ab"+want)
		}
	}
}
