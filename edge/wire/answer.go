package wire

import (
	"net/http"
	"strconv"
)

// AppendHead appends an answer's head as entry.mjs reads it: status, status text, then name,
// value, name, value … joined by '\n' (the body travels apart). false, and dst unchanged, when
// a header name or value holds '\n', '\r' or NUL, which no header may carry.
//
// One pass over the header map, each name and value checked as it is copied (a byte loop):
// it was two passes, the first testing each with strings.ContainsAny, which builds its set of
// bytes on every call (AppendHead was ~4 % of the Go side's time under Node, its ContainsAny
// calls half of it).
func AppendHead(dst []byte, status int, header http.Header) ([]byte, bool) {
	out := strconv.AppendInt(dst, int64(status), 10)
	out = append(out, '\n')
	out = append(out, http.StatusText(status)...)
	for name, values := range header {
		for _, v := range values {
			var ok1, ok2 bool
			out = append(out, '\n')
			out, ok1 = appendHeaderText(out, name)
			out = append(out, '\n')
			out, ok2 = appendHeaderText(out, v)
			if !ok1 || !ok2 {
				return dst, false
			}
		}
	}
	return out, true
}

// appendHeaderText appends s, and whether it holds none of '\n', '\r' and NUL.
func appendHeaderText(out []byte, s string) ([]byte, bool) {
	ok := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' || c == 0 {
			ok = false
		}
	}
	return append(out, s...), ok
}
