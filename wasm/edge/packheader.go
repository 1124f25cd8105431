//go:build js && wasm

package main

import (
	"net/http"
	"strings"
)

// PackedHeader is the one response header dispatch hands to syumai/workers in place of the
// handler's: syumai fills a JS Headers with one call into JS per value, each value and name a
// string made in JS with a finalizer in Go (five round trips a header; the API sends seven),
// so dispatch packs them into one value and edge/entry.mjs unpacks it into the Response's own
// headers before the Response leaves the worker. The name is entry.mjs's too.
const PackedHeader = "X-Fitclaim-Packed-Headers"

// packSep separates names and values in the packed value: a byte no header name or value of
// the API holds, and one a header value may carry (only NUL, CR and LF may not).
const packSep = "\x1f"

// packHeader replaces the headers in h by PackedHeader: name, value, name, value … joined by
// packSep, one pair per value. It leaves h as it is (and says so) when a name or value holds
// packSep or a byte no header value may carry, or when there is nothing to gain.
func packHeader(h http.Header) bool {
	if len(h) < 2 {
		return false
	}
	var b strings.Builder
	for name, values := range h {
		if strings.ContainsAny(name, packSep+"\x00\r\n") {
			return false
		}
		for _, v := range values {
			if strings.ContainsAny(v, packSep+"\x00\r\n") {
				return false
			}
			if b.Len() > 0 {
				b.WriteString(packSep)
			}
			b.WriteString(name)
			b.WriteString(packSep)
			b.WriteString(v)
		}
	}
	clear(h)
	h[PackedHeader] = []string{b.String()}
	return true
}
