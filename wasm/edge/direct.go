//go:build js && wasm

package main

import (
	"encoding/binary"
	"log"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"github.com/fitclaim/fitclaim/edge/api"
)

// The direct path: a request without a body (GET and HEAD, what kubectl and the page send)
// reaches the handler in one call from edge/entry.mjs, through two functions this module
// exports to JS (go:wasmexport), with the request and the answer passed as bytes in this
// module's memory. It exists for its cost, measured (edge/README.md): syumai/workers'
// handleRequest, which requests with a body still take (dispatch.go), reads the URL, the
// method and each header in calls of their own between JS and Go, each JS value a Go reference
// with a finalizer, answers through a Promise and two goroutines and builds the Response with
// a call per property: some 56 calls per request and 0.2-0.3 ms of the ~1 ms a request cost in
// workerd. Here there are two plain wasm calls, no JS value in Go, no goroutine.
//
// The *http.Request is built as syumai/workers' ToRequest builds it (URL with url.Parse, Host
// and RemoteAddr from the Host and Cf-Connecting-Ip headers, no RequestURI), with two
// differences the API cannot observe: a header that arrives as one value "a, b" stays one
// value, as net/http keeps it (syumai splits it at the commas; the API's only header with a
// list, If-None-Match, splits it itself), and the context carries no JS request (syumai's
// does, for its cloudflare/* helpers, which the API does not use). The handler is the one
// dispatch serves, into the same recorder and the same recover.

// directIn holds the request entry.mjs writes: method, URL, then name, value, name, value …
// each followed by '\n' (a byte no method, URL from the WHATWG parser, header name or value
// holds). directOut holds the last answer: the head's length (4 bytes, little-endian), the head
// (status, status text, then name, value … joined by '\n'), the body. Both are reused from
// request to request; entry.mjs copies the answer out before it calls again.
var directIn, directOut []byte

// directState tells entry.mjs about the last call of fitclaimServe: {1 once the answer is in
// directOut, the answer's address, its length}. entry.mjs clears the first word before a call:
// a call that returns before the answer is made (the handler blocked on something that never
// comes, or the program ended) returns to JS all the same, and leaves it 0.
var directState [3]uint32

// fitclaimInput makes room for a request of up to n bytes and returns where entry.mjs writes
// it.
//
//go:wasmexport fitclaimInput
func fitclaimInput(n int32) uint32 {
	if n < 1 {
		n = 1
	}
	if int(n) > cap(directIn) {
		directIn = make([]byte, n)
	}
	directIn = directIn[:n]
	return uint32(uintptr(unsafe.Pointer(&directIn[0])))
}

// fitclaimState returns where directState is (a global: it never moves).
//
//go:wasmexport fitclaimState
func fitclaimState() uint32 { return uint32(uintptr(unsafe.Pointer(&directState))) }

// fitclaimServe answers the request in the first n bytes of directIn into directOut and
// directState.
//
//go:wasmexport fitclaimServe
func fitclaimServe(n int32) {
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	if r, ok := directRequest(string(directIn[:min(max(n, 0), int32(len(directIn)))])); ok {
		serveRecovering(directHandler, rec, r)
	} else {
		// A request entry.mjs cannot have made, or a URL url.Parse refuses (entry.mjs hands
		// over only WHATWG-parsed URLs with a stray '%' escaped): syumai's handleRequest
		// rejects its promise then, which entry.mjs answers with the same 500.
		api.InternalError(rec)
	}
	if !directAnswer(rec) {
		// A header no HTTP answer can carry: syumai's conversion would throw in JS and end the
		// instance, answering 500; this answers the 500 and carries on.
		log.Printf("fitclaim edge: a response header holds a byte no header may carry: %q", rec.header)
		rec = &recorder{header: http.Header{}, status: http.StatusOK}
		api.InternalError(rec)
		directAnswer(rec)
	}
	directState = [3]uint32{1, uint32(uintptr(unsafe.Pointer(&directOut[0]))), uint32(len(directOut))}
	// Let the scheduler run what is runnable before returning to JS, as the end of every call
	// through syscall/js does: above all the garbage collector's mark worker, a goroutine of its
	// own, which otherwise never runs in a program whose only activity is these calls. Without
	// this the heap grew with every request (the instance's memory 7.5 -> 86 MB over 50,000
	// requests of the bench's mix under node, still growing; with it 24 MB from the 3,000th on,
	// as on syumai's path), and no CPU time per request was measurably saved by skipping it.
	runtime.Gosched()
}

// directHandler is the handler main serves (set before workers.Ready).
var directHandler http.Handler

// directRequest reads entry.mjs's request string into a request without a body.
func directRequest(s string) (*http.Request, bool) {
	method, s, ok1 := strings.Cut(s, "\n")
	rawURL, s, ok2 := strings.Cut(s, "\n")
	if !ok1 || !ok2 {
		return nil, false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false
	}
	header := http.Header{}
	for s != "" {
		name, rest, ok1 := strings.Cut(s, "\n")
		value, rest, ok2 := strings.Cut(rest, "\n")
		if !ok1 || !ok2 {
			return nil, false
		}
		header.Add(name, value)
		s = rest
	}
	return &http.Request{
		Method:     method,
		URL:        u,
		Header:     header,
		Body:       http.NoBody,
		Host:       header.Get("Host"),
		RemoteAddr: header.Get("Cf-Connecting-Ip"),
	}, true
}

// directAnswer lays rec out in directOut; false when a header name or value holds '\n', '\r'
// or NUL, which no header may carry.
func directAnswer(rec *recorder) bool {
	for name, values := range rec.header {
		if strings.ContainsAny(name, "\n\r\x00") {
			return false
		}
		for _, v := range values {
			if strings.ContainsAny(v, "\n\r\x00") {
				return false
			}
		}
	}
	out := append(directOut[:0], 0, 0, 0, 0)
	out = strconv.AppendInt(out, int64(rec.status), 10)
	out = append(out, '\n')
	out = append(out, http.StatusText(rec.status)...)
	for name, values := range rec.header {
		for _, v := range values {
			out = append(out, '\n')
			out = append(out, name...)
			out = append(out, '\n')
			out = append(out, v...)
		}
	}
	binary.LittleEndian.PutUint32(out, uint32(len(out)-4))
	directOut = append(out, rec.body.Bytes()...)
	return true
}
