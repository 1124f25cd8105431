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

// compact is shortest unless that takes more than 16 characters, then the shortest digits with
// an exponent ("1e-300"): fitclaim's own lines, not llmfit's (which keep shortest). A target speed
// of 1e-300 tok/s, which the field's range (> 0) allows as llmfit does, was 302 digits in the
// kv header.
func compact(x float64) string {
	if s := shortest(x); len(s) <= 16 {
		return s
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// commentSafe is CommentSafe for a name in the header, cut at 300 bytes.
func commentSafe(s string) string {
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return CommentSafe(s)
}

// CommentSafe keeps text inside its comment line: control characters, line and paragraph
// separators and invalid UTF-8 become U+FFFD, so nothing can start a new YAML line. Package
// deploy's header uses it too. Nearly every line has nothing to replace: a byte loop finds
// that (printable ASCII is skipped a byte at a time) and returns s as it is, where the
// rune-by-rune mapping with a function call per rune was ~2 % of the edge worker's Go time in
// wasm (deploy.yaml runs every header line through it).
func CommentSafe(s string) string {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if mapsToReplacement(r) {
			return commentSafeMapped(s)
		}
		i += size
	}
	return s
}

// mapsToReplacement reports whether CommentSafe replaces r (utf8.RuneError also stands for
// a byte of invalid UTF-8).
func mapsToReplacement(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff'
}

// commentSafeMapped is CommentSafe for a text with something to replace.
func commentSafeMapped(s string) string {
	return strings.Map(func(r rune) rune {
		if mapsToReplacement(r) {
			return '\ufffd'
		}
		return r
	}, strings.ToValidUTF8(s, "\ufffd"))
}
