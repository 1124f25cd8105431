package claim

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// plural writes "1 sequence", "4 sequences".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// oneDecimal is Rust's {:.1}; twoDecimals its {:.2}.
func oneDecimal(x float64) string  { return strconv.FormatFloat(x, 'f', 1, 64) }
func twoDecimals(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// shortest is Rust's Display for f64: the shortest round-trip digits, never an exponent.
func shortest(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// commentSafe is CommentSafe for a name in the header, cut at 300 bytes.
func commentSafe(s string) string {
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return CommentSafe(s)
}

// CommentSafe keeps text inside its comment line: control characters, line and paragraph
// separators and invalid UTF-8 become U+FFFD, so nothing can start a new YAML line. Package
// deploy's header uses it too.
func CommentSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			return '\ufffd'
		}
		return r
	}, strings.ToValidUTF8(s, "\ufffd"))
}
