package deploy

import (
	"strconv"
	"strings"
	"unicode"
)

// lines writes indented YAML lines.
type lines struct{ b strings.Builder }

// line writes one line: the indent, then parts, written one after the other rather than
// joined first (a joined line was a string allocated and copied once more, some 35 a
// Deployment).
func (w *lines) line(indent int, parts ...string) {
	if indent <= len(indentSpaces) {
		w.b.WriteString(indentSpaces[:indent]) // one copy, not a byte at a time
	} else {
		w.b.WriteString(strings.Repeat(" ", indent))
	}
	for _, s := range parts {
		w.b.WriteString(s)
	}
	w.b.WriteByte('\n')
}

// plainQuoted reports whether every byte of s is printable ASCII (0x20-0x7e) other than '"' and
// '\\', which quote writes as they are: an image, a workload name, vLLM's arguments.
func plainQuoted(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// indentSpaces covers every indent the manifests use.
const indentSpaces = "                    "

// quote writes s as a YAML double-quoted scalar, which reads back as that string whatever it
// holds: '"' and '\' are escaped, and control characters, line and paragraph separators and the
// byte-order mark become \u escapes (YAML's own), so nothing can end the scalar or the line.
func quote(s string) string {
	if plainQuoted(s) {
		return `"` + s + `"` // what quoteRunes writes for it, in one allocation instead of a rune at a time into a growing builder
	}
	return quoteRunes(s)
}

// quoteRunes is quote rune by rune, escaping what must be (TestQuotePlainIsRunes).
func quoteRunes(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\ufffd") {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff':
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
