package claim

import (
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Kubernetes' own patterns (k8s.io/apimachinery/pkg/util/validation), written out independently.
var (
	dns1123Label     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	dns1123Subdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

func validLabel(s string) bool     { return len(s) <= 63 && dns1123Label.MatchString(s) }
func validSubdomain(s string) bool { return len(s) <= 253 && dns1123Subdomain.MatchString(s) }

func TestDeriveNameExamples(t *testing.T) {
	cases := []struct{ in, want string }{
		// REFERENCE §1.
		{"Qwen2.5 32B Instruct", "qwen2-5-32b-instruct-fit"},
		{"NousResearch/Llama-2-7b-chat-hf", "nousresearch-llama-2-7b-chat-hf-fit"},
		// llmfit's fixture.
		{"Test Model 7B", "test-model-7b-fit"},
		// Runs of symbols collapse, ends are trimmed.
		{"--a__b..c--", "a-b-c-fit"},
		{"  Meta / Llama ", "meta-llama-fit"},
		// Non-ASCII letters and digits are not ASCII alphanumerics: they become '-'.
		{"Café-ß-٣", "caf-fit"},
		{"模型 7B", "7b-fit"},
		// All symbols: llmfit would write "-fit", not a valid label; fitclaim falls back.
		{"!!!///", "model-fit"},
		{"", "model-fit"},
		{"模型", "model-fit"},
		{"\n\t\u2028", "model-fit"},
		// The 48-character cut, then a second trim: 47 letters, '-', more → cut after the dash, trimmed.
		{strings.Repeat("a", 47) + "-bcdef", strings.Repeat("a", 47) + "-fit"},
		// Exactly 48 kept.
		{strings.Repeat("b", 60), strings.Repeat("b", 48) + "-fit"},
		{strings.Repeat("c", 48), strings.Repeat("c", 48) + "-fit"},
		// The cut counts the stem after collapsing: "a b" runs.
		{strings.Repeat("a ", 30), strings.TrimSuffix(strings.Repeat("a-", 24), "-") + "-fit"},
	}
	for _, c := range cases {
		got := DeriveName(c.in)
		if got != c.want {
			t.Errorf("DeriveName(%q) = %q, want %q", c.in, got, c.want)
		}
		if !validLabel(got) {
			t.Errorf("DeriveName(%q) = %q is not a DNS-1123 label", c.in, got)
		}
	}
}

func TestDeriveNameCatalog(t *testing.T) {
	count := map[string][]string{}
	for _, m := range catalog.Models() {
		n := DeriveName(m.Name)
		if !validLabel(n) || len(n) > 52 || !strings.HasSuffix(n, "-fit") {
			t.Errorf("%s → %q: not a DNS-1123 label of at most 52 characters ending -fit", m.Name, n)
		}
		count[n] = append(count[n], m.Name)
	}
	var shared []string
	entries := 0
	for n, ms := range count {
		if len(ms) > 1 {
			shared = append(shared, n)
			entries += len(ms)
		}
	}
	slices.Sort(shared)
	if len(shared) != 15 || entries != 38 {
		t.Errorf("%d entries share %d derived names, want 38 sharing 15: %v", entries, len(shared), shared)
	}
	if got := count["microsoft-phi-3-mini-4k-instruct-fit"]; len(got) != 2 {
		t.Errorf("phi-3 mini names: %v", got)
	}
	if got := count["lmstudio-community-qwen3-coder-30b-a3b-instruct-fit"]; len(got) != 4 {
		t.Errorf("qwen3 coder names: %v", got)
	}
	// Llama-2-7b-chat-hf's name is its entry's alone: not shared, 0.
	if sharedCount("microsoft-phi-3-mini-4k-instruct-fit") != 2 || sharedCount("nousresearch-llama-2-7b-chat-hf-fit") != 0 || sharedCount("no-such-fit") != 0 ||
		sharedCount("lmstudio-community-qwen3-coder-30b-a3b-instruct-fit") != 4 {
		t.Error("sharedCount disagrees")
	}
}

// Every entry of a shared name gets the warning; no other entry does.
func TestSharedNameWarning(t *testing.T) {
	byName := map[string]int{}
	for _, m := range catalog.Models() {
		byName[DeriveName(m.Name)]++
	}
	warned := 0
	for _, m := range catalog.Models() {
		n := byName[DeriveName(m.Name)]
		if n < 2 {
			continue
		}
		tg := target.Default()
		tg.Model = m.Name
		r, err := RenderVersion(tg, "9.9.9-test")
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		want := "the claim name " + r.Name + " is derived from " + strconv.Itoa(n) +
			" catalog models (llmfit cuts names at 48 characters and ignores case); set name to make it unique"
		if !slices.Contains(r.Warnings, want) {
			t.Errorf("%s: warnings %q lack %q", m.Name, r.Warnings, want)
		}
		warned++
		// An override silences it.
		tg.Name = "my-own-name"
		r, err = RenderVersion(tg, "9.9.9-test")
		if err != nil || r.Name != "my-own-name" || hasPrefix(r.Warnings, "the claim name") {
			t.Errorf("%s with an override: %v, %q", m.Name, err, r.Warnings)
		}
	}
	if warned != 38 {
		t.Errorf("%d entries warned, want 38", warned)
	}
	tg := target.Default()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if hasPrefix(r.Warnings, "the claim name") {
		t.Errorf("unique name warned: %q", r.Warnings)
	}
	// A custom model's name is never "shared" with the catalog.
	r, err = Render(target.Target{ParamsB: 7, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "custom-7b-fit" || hasPrefix(r.Warnings, "the claim name") {
		t.Errorf("custom: %s %q", r.Name, r.Warnings)
	}
}

// hasPrefix reports whether any string of list starts with p.
func hasPrefix(list []string, p string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.HasPrefix(x, p) })
}

func renderFixture(t *testing.T, mut func(*target.Target)) (Result, error) {
	t.Helper()
	tg := target.Default()
	if mut != nil {
		mut(&tg)
	}
	return renderModel(testModel7B, tg, "9.9.9-test")
}

func TestNameOverride(t *testing.T) {
	for _, ok := range []string{
		"a", "my-claim", "my-claim.v1", "llmfit.ai", "0", "a.b.c.d", "x1-2-3",
		// Valid names that YAML would read as numbers, booleans, null or dates unless quoted.
		"123", "1.5", "1e3", "1e999", "0x1f", "0o17", "0b101", "017", "08", "true", "yes", "no", "on", "off", "y", "n", "null",
		"2001-12-14", "2001-1-2", "nan", "inf", "infinity", "0x1p-2", "99999999999999999999",
		strings.Repeat("a", 63), strings.Repeat("a", 63) + "." + strings.Repeat("b", 63),
		// Kubernetes sets no 63-character limit on a subdomain's parts (IsDNS1123Subdomain).
		strings.Repeat("a", 64), strings.Repeat("a", 100) + ".b",
		strings.Repeat(strings.Repeat("a", 62)+".", 4) + "a", // 253 characters
	} {
		r, err := renderFixture(t, func(t *target.Target) { t.Name = ok })
		if err != nil {
			t.Errorf("name %q: %v", ok, err)
			continue
		}
		if got := path(t, parseYAML(t, r.YAML).doc, "metadata", "name"); r.Name != ok || got != ok || !strings.Contains(r.JSON, `"claimName": "`+ok+`"`) {
			t.Errorf("name %q not used (reads back as %#v): %s", ok, got, r.YAML)
		}
		if !validSubdomain(ok) {
			t.Errorf("test bug: %q is not a subdomain", ok)
		}
	}
	const shape = "must be a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters (got "
	bad := []struct{ in, msg string }{
		{"My-Claim", shape + `"My-Claim")`},
		{"my_claim", shape + `"my_claim")`},
		{"-claim", shape + `"-claim")`},
		{"claim-", shape + `"claim-")`},
		{"a..b", shape + `"a..b")`},
		{".a", shape + `".a")`},
		{"a.", shape + `"a.")`},
		{"a b", shape + `"a b")`},
		{"a\nkind: Secret", shape + `"a\nkind: Secret")`},
		{"claim\u00e9", shape + strconv.Quote("claim\u00e9") + ")"},
		{strings.Repeat("a", 59) + "_", shape + `"` + strings.Repeat("a", 59) + `_")`},
		{strings.Repeat(strings.Repeat("a", 62)+".", 4) + "ab", "must be at most 253 characters (got 254)"},
		{strings.Repeat("x", 10000), "must be at most 253 characters (got 10000)"},
	}
	for _, c := range bad {
		_, err := renderFixture(t, func(t *target.Target) { t.Name = c.in })
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != "name" || fe.Key != "name" {
			t.Errorf("name %q: %v, want a FieldError on name", c.in, err)
			continue
		}
		if err.Error() != "Claim name (name): "+c.msg {
			t.Errorf("name %q: %q\n want %q", c.in, err.Error(), "Claim name (name): "+c.msg)
		}
	}
}

func TestDeviceClassValidation(t *testing.T) {
	r, err := renderFixture(t, func(t *target.Target) { t.DeviceClass = "gpu.example.com" })
	if err != nil || !strings.Contains(r.YAML, "deviceClassName: gpu.example.com\n") || r.Bounds.DeviceClass != "gpu.example.com" ||
		!strings.Contains(r.JSON, `"deviceClass": "gpu.example.com"`) {
		t.Errorf("custom class: %v\n%s", err, r.YAML)
	}
	// The selector still reads the driver's domain.
	if !strings.Contains(r.YAML, "device.capacity['llmfit.ai']") {
		t.Errorf("selector domain changed with the class:\n%s", r.YAML)
	}
	for _, bad := range []string{"GPU.nvidia.com", "gpu_nvidia", "gpu..nvidia", "-gpu", strings.Repeat("a", 254), "gpu nvidia", "gpu.nvidia.com\n"} {
		_, err := renderFixture(t, func(t *target.Target) { t.DeviceClass = bad })
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != "deviceClass" || !strings.HasPrefix(err.Error(), "Device class (deviceClass, dc): must be") {
			t.Errorf("deviceClass %q: %v", bad, err)
		}
	}
}

// deriveNameReference is llmfit's rule written the plain way (lower-case the whole name, map,
// collapse, trim, cut, trim), the oracle for the allocation-free DeriveName.
func deriveNameReference(model string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(model) {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	stem := strings.Trim(b.String(), "-")
	if len(stem) > stemMax {
		stem = strings.Trim(stem[:stemMax], "-")
	}
	if stem == "" {
		stem = fallbackStem
	}
	return stem + nameSuffix
}

func FuzzDeriveNameAgreesWithReference(f *testing.F) {
	for _, s := range []string{"", "-", "Qwen2.5 32B Instruct", "\u0130stanbul", "\u212a", "--a--", strings.Repeat("ab-", 30), "\xff\xfe", "é-ü"} {
		f.Add(s)
	}
	for _, m := range catalog.Models()[:50] {
		f.Add(m.Name)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := DeriveName(s), deriveNameReference(s); got != want {
			t.Fatalf("DeriveName(%q) = %q, reference %q", s, got, want)
		}
	})
}

func TestDeriveNameWholeCatalogAgreesWithReference(t *testing.T) {
	for _, m := range catalog.Models() {
		if got, want := DeriveName(m.Name), deriveNameReference(m.Name); got != want {
			t.Errorf("%q: %q, reference %q", m.Name, got, want)
		}
	}
}

// The page's link repair drops a bad name or device class with the very message a render (the
// command line's, the API's) refuses it with, and keeps the rest of the link: one rule, the
// table's Form (target/form.go).
func TestRepairLinkDropsWhatRenderRefuses(t *testing.T) {
	for _, c := range []struct {
		key string
		set func(*target.Target, string)
	}{
		{"name", func(t *target.Target, s string) { t.Name = s }},
		{"dc", func(t *target.Target, s string) { t.DeviceClass = s }},
	} {
		for _, bad := range []string{"Bad_Name!", "💩", "My-Claim", "-claim", "a..b", "a.", "a b", "a\nkind: Secret", "claim\u00e9",
			strings.Repeat("é", 200), strings.Repeat(strings.Repeat("a", 62)+".", 4) + "ab", strings.Repeat("x", 300)} {
			_, err := renderFixture(t, func(t *target.Target) { c.set(t, bad) })
			if err == nil {
				t.Fatalf("%s %q: rendered", c.key, bad)
			}
			r := target.RepairLink("p=7&tps=30&" + c.key + "=" + url.QueryEscape(bad))
			if got := target.Permalink(r.Target); got != "p=7&tps=30" {
				t.Errorf("%s %q: kept %q", c.key, bad, got)
			}
			if len(r.Dropped) != 1 || r.Dropped[0].Err.Error() != err.Error() {
				t.Errorf("%s %q: repair says %s\n render says %v", c.key, bad, r.Message(), err)
			}
		}
	}
}
