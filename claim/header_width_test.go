package claim

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/target"
)

// Issue 12: the header lines fitclaim adds beyond llmfit's wrap at 80 columns, "# " included,
// so a manifest reads in an 80-column terminal and in a review. llmfit's own lines (llmfit
// sizing, the llmfit driver, one device) and the first line, which names fitclaim in llmfit's
// words, stay as they are.
func TestHeaderWrapsAt80Columns(t *testing.T) {
	for _, link := range []string{
		"m=Qwen%2FQwen3-8B&s=kv&ctx=8192&drv=nvidia",
		"m=openai%2Fgpt-oss-120b&s=kv&drv=nvidia&n=2",
		"m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=any&n=8",
		"m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&ctx=32768&seq=4&drv=amd&engine=vllm",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&drv=nvidia",
		"m=google%2Fgemma-3-27b-it&s=kv&drv=intel&n=3&kv=q8_0",
	} {
		tg, err := target.ParsePermalink(link)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(r.YAML, "\n") {
			if !strings.HasPrefix(l, "#") {
				break
			}
			llmfits := tg.Sizing == target.SizingLlmfit && (strings.HasPrefix(l, "# model:") || strings.HasPrefix(l, "# fit:") || strings.HasPrefix(l, "# memory:"))
			if i > 0 && !llmfits && utf8.RuneCountInString(l) > 80 {
				t.Errorf("%s: header line %d is %d columns:\n%s", link, i, utf8.RuneCountInString(l), l)
			}
		}
	}
}

// Wrapping keeps every word and never splits one; a word longer than the line stays whole.
func TestWrapComment(t *testing.T) {
	line := "driver: " + strings.Repeat("word ", 30) + strings.Repeat("x", 90)
	got := WrapComment(line)
	if strings.Join(strings.Fields(strings.Join(got, " ")), " ") != strings.Join(strings.Fields(line), " ") {
		t.Errorf("words changed:\n%q", got)
	}
	for _, l := range got[:len(got)-1] {
		if utf8.RuneCountInString("# "+l) > 80 || !strings.HasPrefix(l, "driver: ") && !strings.HasPrefix(l, "        ") {
			t.Errorf("line %q", l)
		}
	}
}

// appendWrapCounted is appendWrap as it was, counting the line's runes before each pass: the
// reference TestWrapSameAsCounted holds the one-pass version to.
func appendWrapCounted(out []string, line string) []string {
	const shortTail = 4
	width := commentWidth - utf8.RuneCountInString("# ")
	for utf8.RuneCountInString(line) > width {
		cut, before := -1, -1
		n := 0
		for i, r := range line {
			if n > width {
				break
			}
			if r == ' ' && i > len(commentIndent) {
				cut, before = i, cut
			}
			n++
		}
		if cut <= 0 {
			break
		}
		if rest := strings.TrimSpace(line[cut:]); before > 0 && !strings.Contains(rest, " ") && utf8.RuneCountInString(rest) <= shortTail {
			cut = before
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = commentIndent + strings.TrimLeft(line[cut:], " ")
	}
	return append(out, line)
}

// TestWrapSameAsCounted wraps lines of every length up to 400 runes around the width (ASCII,
// with multi-byte runes, words of every size, runs of spaces, one long word, a short last
// word) both ways and requires the same lines.
func TestWrapSameAsCounted(t *testing.T) {
	words := []string{"a", "GB", "tok/s", "≥", "kv:", "café", "x", "longerword", "  ", "1,234.5", "é€𝄞"}
	var lines []string
	for n := 0; n <= 400; n++ {
		var b strings.Builder
		for i := 0; utf8.RuneCountInString(b.String()) < n; i++ {
			b.WriteString(words[(i*7+n)%len(words)])
			if (i+n)%5 != 0 {
				b.WriteByte(' ')
			}
		}
		lines = append(lines, b.String(), strings.Repeat("é", n), strings.Repeat("y", n)+" GB", "kv:     "+strings.Repeat("w ", n/2), strings.Repeat(" ", n)+"z")
	}
	// Random lines of ASCII words (the fast path, wrapCut's asciiOnly), some with a rune of two
	// or three bytes, and runs of spaces.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for n := rng.IntN(300); b.Len() < n; {
			switch k := rng.IntN(40); {
			case k == 0:
				b.WriteString("é")
			case k == 1:
				b.WriteString("≥")
			case k < 8:
				b.WriteByte(' ')
			default:
				b.WriteString(strings.Repeat(string(rune('a'+k%26)), 1+rng.IntN(9)))
			}
		}
		lines = append(lines, b.String())
	}
	for _, l := range lines {
		got, want := appendWrap(nil, l), appendWrapCounted(nil, l)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("appendWrap(%q) = %q, counting first gives %q", l, got, want)
		}
		// WriteComment writes the same lines, each after "# ".
		var b strings.Builder
		WriteComment(&b, l)
		if w := "# " + strings.Join(want, "\n# ") + "\n"; b.String() != w {
			t.Fatalf("WriteComment(%q) = %q, want %q", l, b.String(), w)
		}
	}
}

// A target speed the field's range allows (> 0, as llmfit's) but no one types as digits: in the
// kv header 1e-300 tok/s was 302 digits on a line of its own (past the 80 columns); it is
// "1e-300" now. llmfit's own line keeps llmfit's formatting, every digit.
func TestTinyMinTpsIsCompact(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.MinTps, tg.Sizing = "Qwen/Qwen3-8B", 1e-300, target.SizingKV
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.YAML, "1e-300 tok/s") || strings.Contains(r.YAML, "0.000000000") {
		t.Errorf("kv header:\n%s", r.YAML)
	}
	if e := Explain(&r); !strings.Contains(e.Matches, "above your 1e-300 tok/s") {
		t.Errorf("explanation: %q", e.Matches)
	}
	tg.Sizing = target.SizingLlmfit
	if r, err = Render(tg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.YAML, " for ≥ 0."+strings.Repeat("0", 299)+"1 tok/s\n") {
		t.Errorf("llmfit header:\n%s", r.YAML)
	}
}
