package target

import (
	"errors"
	"strings"
)

// Percent-encoding as net/url's QueryEscape and QueryUnescape do it, written here so the
// browser build does not carry net/url (and the fmt, reflect and netip it brings): about a
// tenth of the wasm. escape_test.go checks both against net/url.

// Values is a query or permalink's pairs: url.Values without the package.
type Values = map[string][]string

func shouldEscape(c byte) bool {
	return !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~')
}

// queryEscape is url.QueryEscape.
func queryEscape(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if shouldEscape(s[i]) && s[i] != ' ' {
			n++
		}
	}
	if n == 0 && !strings.Contains(s, " ") {
		return s
	}
	return string(appendQueryEscape(make([]byte, 0, len(s)+2*n), s))
}

// appendQueryEscape appends queryEscape(s) to dst.
func appendQueryEscape(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			dst = append(dst, '+')
		case shouldEscape(c):
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// QueryUnescape is url.QueryUnescape, for the routes that read a key of their own beside the
// permalink's (a list's limit).
func QueryUnescape(s string) (string, error) { return queryUnescape(s) }

var errBadEscape = errors.New("invalid percent-encoding")

// hasEscape reports whether s holds a '%' or a '+': strings.ContainsAny(s, "%+") as a byte
// loop. ContainsAny looks each rune of a short text (most query values) up in the set with a
// call of its own: ~1.5 % of the edge worker's Go time in wasm.
func hasEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || c == '+' {
			return true
		}
	}
	return false
}

// queryUnescape is url.QueryUnescape: '+' is a space, %XX a byte, anything else after '%' an error.
func queryUnescape(s string) (string, error) {
	if !hasEscape(s) {
		return s, nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			out = append(out, ' ')
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", errBadEscape
			}
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			out = append(out, c)
		}
	}
	return string(out), nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}
