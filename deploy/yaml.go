package deploy

import (
	"strconv"
	"strings"
	"unicode"
)

// lines writes indented YAML lines.
type lines struct{ b strings.Builder }

func (w *lines) line(indent int, s string) {
	for range indent { // not strings.Repeat, which allocated a string per line
		w.b.WriteByte(' ')
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// quote writes s as a YAML double-quoted scalar, which reads back as that string whatever it
// holds: '"' and '\' are escaped, and control characters, line and paragraph separators and the
// byte-order mark become \u escapes (YAML's own), so nothing can end the scalar or the line.
func quote(s string) string {
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
