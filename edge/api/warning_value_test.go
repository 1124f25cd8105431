package api

import "testing"

// TestWarningValue: the quoted-string escapes '"' and '\', and the value is printable ASCII
// whatever the text holds (a header carries no line break; workerd refuses a character above
// U+00FF and sends one up to it as a Latin-1 byte).
func TestWarningValue(t *testing.T) {
	for text, want := range map[string]string{
		"plain":            `299 - "plain"`,
		`say "hi" \ there`: `299 - "say \"hi\" \\ there"`,
		"2 × B200 ≥ 80 GB/s … → 1–2 — ok": `299 - "2 x B200 >= 80 GB/s ... -> 1-2 -- ok"`,
		"“quoted” ’s":                     `299 - "\"quoted\" 's"`,
		"line\nbreak\r\ttab\x00nul\x7f":   `299 - "line break  tab nul "`,
		"模型 é ☃ 💩":                        `299 - "?? ? ? ?"`,
		"bad \xff\xfe utf-8":              `299 - "bad ?? utf-8"`,
		"":                                `299 - ""`,
	} {
		if got := warningValue(text); got != want {
			t.Errorf("warningValue(%q) = %q, want %q", text, got, want)
		}
	}
	if got := warningValues([]string{"a", "b"}); len(got) != 2 || got[0] != `299 - "a"` || got[1] != `299 - "b"` {
		t.Errorf("warningValues: %q", got)
	}
}
