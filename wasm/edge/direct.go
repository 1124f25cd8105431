//go:build js && wasm

package main

import (
	"log"
	"net/http"
	"runtime"
	"unsafe" // also for go:linkname

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/edge/wire"
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

// directIn holds the request entry.mjs writes (edge/wire's format: method, URL, then name,
// value … each followed by '\n'). It is reused from request to request, and entry.mjs keeps its
// address and size, asking for a larger one (fitclaimInput) only when a request does not fit.
var directIn []byte

// directRec is the recorder every direct request is answered into: its header map (cleared)
// and its body's array (emptied) are reused, so a request allocates neither, and the body is
// written once, where entry.mjs copies it from. directHead holds the answer's head
// (wire.AppendHead). entry.mjs copies both out before it calls again.
var (
	directRec  = recorder{header: http.Header{}}
	directHead []byte
)

// directReader reads every direct request into the same http.Request, URL, header map and
// array of values (edge/wire's Reader), as directRec answers them all: the handler runs to its
// end inside the call, and nothing keeps the request beyond it (a handler that blocked would
// find both reused by the next request, as it already found the recorder; its call answers 500).
var directReader wire.Reader

// directState tells entry.mjs about the last call of fitclaimServe: {1 once the answer is made,
// the body's address, its length, the head's address, its length}. entry.mjs clears the first
// word before a call: a call that returns before the answer is made (the handler blocked on
// something that never comes, or the program ended) returns to JS all the same, and leaves it 0.
var directState [5]uint32

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
	directIn = directIn[:cap(directIn)]
	return uint32(uintptr(unsafe.Pointer(&directIn[0])))
}

// fitclaimState returns where directState is (a global: it never moves).
//
//go:wasmexport fitclaimState
func fitclaimState() uint32 { return uint32(uintptr(unsafe.Pointer(&directState))) }

// fitclaimServe answers the request in the first n bytes of directIn into directRec,
// directHead and directState.
//
//go:wasmexport fitclaimServe
func fitclaimServe(n int32) {
	rec := &directRec
	clear(rec.header)
	rec.status, rec.wrote, rec.body = http.StatusOK, false, rec.body[:0]
	if r, ok := directReader.Read(directIn[:min(max(n, 0), int32(len(directIn)))]); ok {
		serveRecovering(directHandler, rec, r)
	} else {
		// A request entry.mjs cannot have made, or a URL url.Parse refuses (entry.mjs hands
		// over only WHATWG-parsed URLs with a stray '%' escaped): syumai's handleRequest
		// rejects its promise then, which entry.mjs answers with the same 500.
		api.InternalError(rec)
	}
	head, ok := wire.AppendHead(directHead[:0], rec.status, rec.header)
	if !ok {
		// A header no HTTP answer can carry: syumai's conversion would throw in JS and end the
		// instance, answering 500; this answers the 500 and carries on.
		log.Printf("fitclaim edge: a response header holds a byte no header may carry: %q", rec.header)
		clear(rec.header)
		rec.status, rec.wrote, rec.body = http.StatusOK, false, rec.body[:0]
		api.InternalError(rec)
		head, _ = wire.AppendHead(directHead[:0], rec.status, rec.header)
	}
	directHead = head
	directState = [5]uint32{1, addr(rec.body), uint32(len(rec.body)), addr(head), uint32(len(head))}
	yieldIfDue()
}

// yieldEvery is how many direct requests may pass without a yield to the scheduler when no
// collection is marking: other goroutines (the sweeper, a request of syumai's path woken
// meanwhile) then wait at most that many requests.
const yieldEvery = 64

var sinceYield int

// yieldIfDue lets the scheduler run what is runnable before returning to JS, as the end of
// every call through syscall/js does, when that matters: while the garbage collector marks
// (its mark worker is a goroutine of its own, which otherwise never runs in a program whose
// only activity is these calls: the heap grew with every request without it, the instance's
// memory 7.5 -> 86 MB over 50,000 requests of the bench's mix under node, still growing), and
// every yieldEvery requests. A yield on every request cost ~3 % of a request's time in
// workerd's profile (runtime.Gosched reads the clock, a call into JS, and runs the scheduler),
// nearly all of it with nothing to run. Sweeping needs no yield: allocation sweeps as it goes,
// and a collection finishes the sweep before it starts. edge/bench/glue checks the memory
// stays flat over 50,000 requests.
func yieldIfDue() {
	sinceYield++
	if writeBarrier.enabled || sinceYield >= yieldEvery {
		sinceYield = 0
		runtime.Gosched()
	}
}

// writeBarrier is the runtime's own flag, on while a collection marks (the runtime exports it
// to linkname: go.dev/issue/67401).
//
//go:linkname writeBarrier runtime.writeBarrier
var writeBarrier struct {
	enabled bool
	pad     [3]byte
	alignme uint64
}

// addr is where b's bytes are in the instance's memory (0 for none).
func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// directHandler is the handler main serves (set before workers.Ready).
var directHandler http.Handler
