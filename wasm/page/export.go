//go:build js && wasm

package main

import (
	"unsafe"

	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// The page's render call as three WebAssembly exports (web/render.js makes render(target,
// options) of them; the bytes are bridge.DecodeCall's): the page writes the call into the buffer
// fitclaim_call_buffer returns, fitclaim_render answers into a buffer of its own, and the page
// reads the answer at fitclaim_answer. Nothing passes through syscall/js, so a render leaves no
// JavaScript value behind on either side (issue 10 §3; wasm/bridge/call.go says what that cost).
// The page calls them one at a time on its one thread, and a call runs to its end without
// waiting on anything, which an export must.

// call holds the last call's bytes; answer the last answer. Both are kept from call to call, as
// the page renders on every keystroke.
var call, answer []byte

// fitclaim_call_buffer returns the address of a buffer of size bytes for the next call. The
// buffer may be new, and the engine's memory may have grown (a new ArrayBuffer): the page makes
// its views of the memory after this returns.
//
//go:wasmexport fitclaim_call_buffer
func callBuffer(size int32) uint32 {
	if size < 0 {
		size = 0
	}
	if int(size) > cap(call) {
		call = make([]byte, max(int(size), 1<<10))
	}
	call = call[:cap(call)]
	return address(call)
}

// fitclaim_render renders the call written in the buffer's first n bytes: it returns the
// length of the answer, JSON text, or minus its length when the answer is an error (JSON too:
// bridge.AppendErrorJSON). A Go panic is such an error, so the page stays alive.
//
//go:wasmexport fitclaim_render
func render(n int32) int32 { return answerCall(n, bridge.AppendRender) }

// fitclaim_permalink answers fitclaim.permalink(target) for the call written in the buffer's
// first n bytes (its options absent), as fitclaim_render answers: the permalink's length, or
// minus the length of the error's JSON (bridge.AppendPermalink).
//
//go:wasmexport fitclaim_permalink
func permalink(n int32) int32 { return answerCall(n, bridge.AppendPermalink) }

// answerCall answers the call in the buffer's first n bytes with appendAnswer into answer, and
// returns its length, or minus its length when it is an error, a panic's included.
func answerCall(n int32, appendAnswer func(dst, call []byte) ([]byte, bool)) (length int32) {
	defer func() {
		if p := recover(); p != nil {
			answer = bridge.AppendErrorJSON(answer[:0], bridge.PanicError(p))
			length = -int32(len(answer))
		}
	}()
	if n < 0 || int(n) > len(call) {
		n = 0 // not a call: DecodeCall says so
	}
	var ok bool
	answer, ok = appendAnswer(answer[:0], call[:n])
	if !ok {
		return -int32(len(answer))
	}
	return int32(len(answer))
}

// fitclaim_answer returns the address of the last answer's first byte.
//
//go:wasmexport fitclaim_answer
func answerAddress() uint32 { return address(answer) }

// address is where a slice's bytes are in the engine's memory, which the page reads as
// WebAssembly.Memory's buffer; 0 for an empty one. Go's collector does not move objects, and
// call and answer keep theirs alive.
func address(b []byte) uint32 {
	if cap(b) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}

// The first claim on a permalink load (web/boot.js, bridge.FirstClaim): fitclaim_first reads
// the link's fragment, written like a call into the buffer fitclaim_call_buffer returns, and
// answers the link's target and its claim's YAML and JSON (bridge.AppendFirstJSON) at
// fitclaim_answer; it returns the answer's length, or 0 when the page's own start must read the
// link. fitclaim_first_rest then answers the rest of that render (render's columns document,
// bridge.AppendFirstRest), once, when app.js adopts the claim; 0 when there is none.

// first is the last first claim, kept until its rest is asked for.
var first *bridge.First

// The engine is built without the model catalog (the tag catalogext): the page gives it the
// catalog's text, or first the link's shard of it, through fitclaim_catalog. fitclaim_first
// returns -1 when the catalog it holds cannot answer the link exactly as the whole catalog would
// (bridge.FirstClaimOrWait): the page then gives it the whole catalog and asks again.
//
//go:wasmexport fitclaim_first
func firstClaim(n int32) (length int32) {
	defer func() {
		if recover() != nil { // the page's own start reads the link, and says what is wrong
			first, length = nil, 0
		}
	}()
	first = nil
	if n < 0 || int(n) > len(call) {
		return 0
	}
	f, ok, wait := bridge.FirstClaimOrWait(string(call[:n]))
	if wait {
		return -1
	}
	if !ok {
		return 0
	}
	first = &f
	answer = bridge.AppendFirstJSON(answer[:0], first)
	return int32(len(answer))
}

//go:wasmexport fitclaim_first_rest
func firstRest() (length int32) {
	defer func() {
		if recover() != nil { // app.js renders the target itself
			length = 0
		}
		first = nil
	}()
	if first == nil {
		return 0
	}
	answer = bridge.AppendFirstRest(answer[:0], first)
	return int32(len(answer))
}

// fitclaim_catalog gives the engine the model catalog's text written in the buffer's first n
// bytes (the asset tools/cmd/site writes): the whole table, or one shard of it when shard is 1
// (bridge.LoadCatalog). It returns 0, or minus the length of the error's JSON at
// fitclaim_answer (bridge.AppendErrorJSON: the text is not the catalog this engine was built
// with, or is malformed).
//
//go:wasmexport fitclaim_catalog
func loadCatalog(n, shard int32) int32 {
	if n < 0 || int(n) > len(call) {
		n = 0
	}
	if err := bridge.LoadCatalog(string(call[:n]), shard == 1); err != nil {
		answer = bridge.AppendErrorJSON(answer[:0], err)
		return -int32(len(answer))
	}
	return 0
}
