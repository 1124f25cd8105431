package wire

import (
	"net/http"
	"strconv"
	"strings"
)

// AppendHead appends an answer's head as entry.mjs reads it: status, status text, then name,
// value, name, value … joined by '\n' (the body travels apart). false, and dst unchanged, when
// a header name or value holds '\n', '\r' or NUL, which no header may carry.
func AppendHead(dst []byte, status int, header http.Header) ([]byte, bool) {
	for name, values := range header {
		if strings.ContainsAny(name, "\n\r\x00") {
			return dst, false
		}
		for _, v := range values {
			if strings.ContainsAny(v, "\n\r\x00") {
				return dst, false
			}
		}
	}
	out := strconv.AppendInt(dst, int64(status), 10)
	out = append(out, '\n')
	out = append(out, http.StatusText(status)...)
	for name, values := range header {
		for _, v := range values {
			out = append(out, '\n')
			out = append(out, name...)
			out = append(out, '\n')
			out = append(out, v...)
		}
	}
	return out, true
}
