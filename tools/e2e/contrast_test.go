package e2e

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The page's colours (web/style.css's custom properties, light and dark) meet WCAG 2.2 AA for
// every pair the stylesheet puts text on (4.5:1), and 3:1 for what marks a control or the focus
// (1.4.11). No browser needed: the pairs are the stylesheet's own, listed here by hand.

// relativeLuminance is WCAG 2.x's: each sRGB channel linearised, weighted 0.2126, 0.7152, 0.0722.
func relativeLuminance(t *testing.T, hex string) float64 {
	t.Helper()
	lin := func(s string) float64 {
		v, err := strconv.ParseUint(s, 16, 8)
		if err != nil {
			t.Fatalf("colour %q: %v", hex, err)
		}
		c := float64(v) / 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(hex[1:3]) + 0.7152*lin(hex[3:5]) + 0.0722*lin(hex[5:7])
}

func contrast(t *testing.T, a, b string) float64 {
	t.Helper()
	la, lb := relativeLuminance(t, a), relativeLuminance(t, b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func TestContrastFormula(t *testing.T) {
	// Black on white: (1 + 0.05) / (0 + 0.05) = 21. #777777 on white: channel 0x77/255 = 0.4667,
	// ((0.4667+0.055)/1.055)^2.4 = 0.1845, (1.05)/(0.2345) = 4.48 (the well-known "#777 just fails").
	if got := contrast(t, "#000000", "#ffffff"); math.Abs(got-21) > 1e-9 {
		t.Errorf("black on white %.4f, want 21", got)
	}
	if got := contrast(t, "#777777", "#ffffff"); math.Abs(got-4.48) > 0.01 {
		t.Errorf("#777 on white %.4f, want 4.48", got)
	}
}

// schemes reads the custom properties of :root (light) and of the dark scheme's :root (dark,
// over the light ones).
func schemes(t *testing.T) map[string]map[string]string {
	t.Helper()
	css, err := os.ReadFile(filepath.Join(repoRoot(t), "web", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(css)
	prop := regexp.MustCompile(`--([\w-]+):\s*(#[0-9a-fA-F]{6})\b`)
	block := func(from int, start string) string { // from start to its closing brace
		i := strings.Index(s[from:], start)
		if i < 0 {
			t.Fatalf("style.css has no %q", start)
		}
		i += from
		return s[i : i+strings.Index(s[i:], "}")]
	}
	read := func(b string, into map[string]string) {
		for _, m := range prop.FindAllStringSubmatch(b, -1) {
			into[m[1]] = strings.ToLower(m[2])
		}
	}
	light := map[string]string{}
	read(block(0, ":root {"), light)
	dark := map[string]string{}
	for k, v := range light {
		dark[k] = v
	}
	d := strings.Index(s, "prefers-color-scheme: dark")
	if d < 0 {
		t.Fatal("style.css has no dark scheme")
	}
	read(block(d, ":root {"), dark)
	return map[string]map[string]string{"light": light, "dark": dark}
}

func TestColourContrastAA(t *testing.T) {
	text := [][2]string{ // foreground, background: every pair the stylesheet sets text in
		{"fg", "bg"}, {"fg", "panel"}, {"fg", "code-bg"},
		{"muted", "panel"}, {"muted", "bg"}, {"muted", "code-bg"}, // hints, placeholders (on bg), unselected tabs, the kubectl lines
		{"accent", "panel"}, {"accent", "bg"}, {"accent", "code-bg"}, // links, secondary buttons
		{"accent-fg", "accent"}, // buttons, the highlighted option
		{"accent", "err-bg"},    // an error's "Go to …" buttons and the models it offers (.btn.link in .result-error)
		{"err", "err-bg"}, {"err", "panel"}, {"warn", "warn-bg"}, {"warn", "panel"},
		{"ok", "ok-bg"}, {"ok", "panel"}, {"bad", "bad-bg"}, {"bad", "panel"},
	}
	marks := [][2]string{ // 3:1: the focus ring, a field's edge
		{"focus", "panel"}, {"focus", "bg"}, {"control-border", "panel"}, {"control-border", "bg"},
	}
	for name, v := range schemes(t) {
		check := func(pairs [][2]string, min float64) {
			for _, p := range pairs {
				a, b := v[p[0]], v[p[1]]
				if a == "" || b == "" {
					t.Errorf("%s: --%s or --%s is not a #rrggbb colour in style.css", name, p[0], p[1])
					continue
				}
				if r := contrast(t, a, b); r < min {
					t.Errorf("%s: --%s %s on --%s %s is %.2f:1, below %.1f:1", name, p[0], a, p[1], b, r, min)
				} else {
					t.Logf("%s: %-14s on %-8s %5.2f:1", name, p[0], p[1], r)
				}
			}
		}
		check(text, 4.5)
		check(marks, 3)
	}
}

// Nothing fades text: an opacity below 1 blends a colour pair that passes into one that fails
// (the stale result at .6 took the code's text to 4.4:1 and the muted text to 2.6:1).
func TestNoTranslucentText(t *testing.T) {
	css, err := os.ReadFile(filepath.Join(repoRoot(t), "web", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`opacity:\s*([0-9.]+)`).FindAllStringSubmatch(string(css), -1) {
		if v, err := strconv.ParseFloat(m[1], 64); err != nil || v != 1 {
			t.Errorf("style.css has %q", m[0])
		}
	}
}
