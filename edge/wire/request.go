// Package wire is the edge worker's direct path's format between edge/entry.mjs and Go
// (wasm/edge/direct.go), pure Go so that it is tested natively: the request entry.mjs writes
// into the Go instance's memory, read into an *http.Request, and the answer's head laid out for
// entry.mjs to read back.
//
// The request is method, URL, then name, value, name, value … each followed by '\n' (a byte no
// method, URL from the WHATWG parser, header name or value holds). Request reads it as
// syumai/workers' ToRequest builds a request (URL with url.Parse, Host and RemoteAddr from the
// Host and Cf-Connecting-Ip headers, no RequestURI, no body), and as cheaply as it can in wasm,
// where it ran once per request and was ~6 % of a request's time in a workerd profile: one
// string for the whole request (names and values are slices of it), the header names put in
// canonical form in place before that copy (workerd hands them over in lower case, so
// CanonicalMIMEHeaderKey made a new string for each), one array for every header's value, and
// the URL split by hand when it is a plain one (url.Parse otherwise).
package wire

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
)

// Request reads the request in b, which it may modify (header names are canonicalised in
// place). false: b is not a request entry.mjs can have written, or url.Parse refuses its URL.
func Request(b []byte) (*http.Request, bool) { return new(Reader).Read(b) }

// Reader reads requests as Request does into memory it keeps from one request to the next:
// the http.Request, its url.URL (when the URL is a plain one), its header map and the array of
// the header values. The edge worker answers one request at a time, each within the call that
// delivered it, so one Reader serves them all (wasm/edge/direct.go): a request then allocates
// only the string its names, values and URL are slices of. A request Read returns is valid
// until the next Read; nothing may keep it, its URL or its header map beyond that.
type Reader struct {
	req    http.Request
	url    url.URL
	header http.Header
	values []string
}

// Read reads the request in b as Request does, into rd's memory (see Reader).
func (rd *Reader) Read(b []byte) (*http.Request, bool) {
	// Count the lines and canonicalise the names (every other line from the third) in place.
	lines := 0
	for at := 0; at < len(b); {
		end := bytes.IndexByte(b[at:], '\n')
		if end < 0 {
			return nil, false // a line without its '\n'
		}
		if lines >= 2 && lines%2 == 0 {
			canonicalInPlace(b[at : at+end])
		}
		lines++
		at += end + 1
	}
	if lines < 2 || lines%2 != 0 {
		return nil, false
	}
	s := string(b)
	method, s, _ := strings.Cut(s, "\n")
	rawURL, s, _ := strings.Cut(s, "\n")
	u, ok := plainURL(rawURL, &rd.url)
	if !ok {
		var err error
		if u, err = url.Parse(rawURL); err != nil {
			return nil, false
		}
	}
	n := lines/2 - 1
	if rd.header == nil {
		rd.header = make(http.Header, n)
	}
	header := rd.header
	clear(header)
	if cap(rd.values) < n {
		rd.values = make([]string, n)
	}
	values := rd.values[:n] // one array for every value: header[name] is a slice of it
	clear(values)
	for i := 0; s != ""; i++ {
		name, rest, _ := strings.Cut(s, "\n")
		value, rest, _ := strings.Cut(rest, "\n")
		if vs, ok := header[name]; ok {
			header[name] = append(vs, value) // a repeated name (workerd joins them; kept as net/http's Add would)
		} else {
			values[i] = value
			header[name] = values[i : i+1 : i+1]
		}
		s = rest
	}
	rd.req = http.Request{
		Method:     method,
		URL:        u,
		Header:     header,
		Body:       http.NoBody,
		Host:       first(header["Host"]), // the names are canonical: Header.Get would canonicalise them again
		RemoteAddr: first(header["Cf-Connecting-Ip"]),
	}
	return &rd.req, true
}

// first is a header's first value, "" for none (as Header.Get).
func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

// canonicalInPlace puts a header name in the form textproto.CanonicalMIMEHeaderKey gives
// (http.Header.Add's): the first letter and each letter after '-' upper case, the rest lower
// case; a name holding a space or a byte that is not a token character is left as it is.
// (CanonicalMIMEHeaderKey keeps any name with a non-token byte unchanged too.)
func canonicalInPlace(name []byte) {
	for _, c := range name {
		if !isTokenByte(c) {
			return
		}
	}
	upper := true
	for i, c := range name {
		if upper && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		name[i] = c
		upper = c == '-'
	}
}

// isTokenByte is RFC 7230's tchar, textproto's validHeaderFieldByte.
func isTokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c < 0x80 && strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// plainURL splits a URL of the plain form every API request has, http(s)://host[:port]/path
// [?query] with a path of letters, digits, '-', '.', '_', '~' and '/' only, into the url.URL
// that url.Parse makes of it (Scheme, Host, Path, RawQuery; RawPath is empty as nothing in
// such a path is escaped), written into u. false for anything else, which url.Parse then
// reads. TestPlainURLIsParse holds it to url.Parse.
func plainURL(raw string, u *url.URL) (*url.URL, bool) {
	var scheme, rest string
	if r, ok := strings.CutPrefix(raw, "http://"); ok {
		scheme, rest = "http", r
	} else if r, ok := strings.CutPrefix(raw, "https://"); ok {
		scheme, rest = "https", r
	} else {
		return nil, false
	}
	slash := strings.IndexByte(rest, '/')
	if slash <= 0 {
		return nil, false
	}
	host, rest := rest[:slash], rest[slash:]
	if !plainHost(host) {
		return nil, false
	}
	path, query, hasQuery := strings.Cut(rest, "?")
	for i := 0; i < len(path); i++ {
		c := path[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			return nil, false
		}
	}
	if hasQuery && query == "" {
		return nil, false // url.Parse sets ForceQuery
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; c < 0x21 || c == 0x7f || c == '#' {
			return nil, false // url.Parse refuses control bytes and cuts a fragment at '#'
		}
	}
	*u = url.URL{Scheme: scheme, Host: host, Path: path, RawQuery: query}
	return u, true
}

// plainHost: a name or IPv4 address of letters, digits, '-' and '.', and an optional port of
// digits, which url.Parse keeps as it is.
func plainHost(host string) bool {
	name, port, hasPort := strings.Cut(host, ":")
	if name == "" || (hasPort && port == "") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	for i := 0; i < len(port); i++ {
		if c := port[i]; c < '0' || c > '9' {
			return false
		}
	}
	return true
}
