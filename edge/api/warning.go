package api

import "unsafe"

// warningValues are the Warning header's values for a target's warnings, one per warning, in
// their order.
func warningValues(warnings []string) []string {
	out := make([]string, len(warnings))
	for i, w := range warnings {
		out[i] = warningValue(w)
	}
	return out
}

// warningValue is one warning as a Warning header's value (RFC 7234 5.5; RFC 9111 5.5 made the
// field obsolete for caches, which rarely surfaced it, but the Kubernetes API server and
// client-go use it for exactly this), as the Kubernetes API server writes its warnings
// (k8s.io/apimachinery's net.NewWarningHeader): warn-code 299 ("miscellaneous persistent
// warning"), warn-agent "-" (none named), and the text as a quoted-string, '"' and '\'
// escaped with '\'. kubectl and client-go read this form (net.ParseWarningHeaders).
//
// The value is ASCII, which Kubernetes' is not (it writes UTF-8 as it comes, for kubectl, which
// reads it as UTF-8). Both servers would pass UTF-8 through: net/http writes a value's bytes as
// they are, and workerd (2026-04-26) sends a JavaScript string's characters as UTF-8 (the edge
// worker hands it the head decoded as UTF-8, edge/entry.mjs). But RFC 9110 5.5 asks fields to
// keep to US-ASCII and has recipients treat other bytes as opaque, and most clients read a
// header's bytes as Latin-1: a script's fetch (Fetch's ByteString), Node's and Python's
// http.client, so "×" (C3 97) arrives as "Ã\u0097"; Node's Headers refuses a character above
// U+00FF outright. So the warnings' symbols are written in ASCII ("×" as "x", "≥" as ">=", "…"
// as "...", "→" as "->", dashes as "-"), any other character outside ASCII as "?", and a
// control character (a header value holds no line break) as a space: every client reads the
// same text. The words are the command line's.
func warningValue(text string) string {
	b := make([]byte, 0, len(`299 - ""`)+len(text)+8)
	b = append(b, `299 - "`...)
	for _, r := range text {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r >= ' ' && r < 0x7f:
			b = append(b, byte(r))
		case r < ' ' || r == 0x7f:
			b = append(b, ' ')
		default:
			b = append(b, asciiFor(r)...)
		}
	}
	b = append(b, '"')
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
}

// asciiFor is the ASCII a warning's symbol is written as in a header (warningValue): those
// the engine's words use, else "?".
func asciiFor(r rune) string {
	switch r {
	case '×':
		return "x"
	case '≥':
		return ">="
	case '≤':
		return "<="
	case '≠':
		return "!="
	case '…':
		return "..."
	case '→':
		return "->"
	case '⇒':
		return "=>"
	case '≈', '∼':
		return "~"
	case '−', '–', '‐', '‑':
		return "-"
	case '—':
		return "--"
	case '±':
		return "+/-"
	case '÷':
		return "/"
	case 'µ', 'μ':
		return "u"
	case '‘', '’', '′':
		return "'"
	case '“', '”':
		return `\"`
	case '\u00a0', '\u202f', '\u2009':
		return " "
	}
	return "?"
}
