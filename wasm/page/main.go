//go:build js && wasm

// Command page is the browser build: it installs the fitclaim global and waits for calls; the
// page's renders come through its exports (export.go).
//
// Its garbage collector runs at GOGC=100, Go's default, set by the page anyway (web/boot.js passes
// it in the Go environment, and web/firstclaim.js to the warm-up worker's instance) so the choice
// stays visible. Why not higher: the engine's memory is an ArrayBuffer V8 counts as memory outside
// its heap, and it only grows. At GOGC=800 Go let its heap grow to 30-50 MB over a fresh page's
// first thousand renders (the live heap is about 3 MB), the memory grew some 90 times during them,
// and each growth past V8's limit for the page's whole memory started one of V8's major
// collections on the page's thread (11 in the page bench's cold renders, each 50-250 ms of CPU,
// almost all of it in their second-pass phantom callbacks); at 400 alike (10). At 100 the memory
// stays near 10 MB: 6 growths and 2 major collections in the same renders (Chromium traces, issue
// 10 §3). The price is Go's own collections, one per ~100 calls (3 -> 4 -> 2 MB), each about
// 1.3 ms of CPU, split among the calls it runs in: the page's renders make no JavaScript values
// (export.go), so none has a finalizer to run; through fitclaim.renderInto each collection also
// called into JavaScript for every value the calls since the last one had left (6-15 ms in the
// render it fell in), which is why GOGC was 800 before. The environment, not
// runtime/debug.SetGCPercent: runtime/debug brings package os and its start-up into the wasm.
package main

import (
	"syscall/js"

	"github.com/fitclaim/fitclaim/wasm/bridge"
)

func main() {
	// The runtime has started and every package's init has run: a mark for the page bench
	// (tools/cmd/pagebench prints the fitclaim:* marks of a load).
	if perf := js.Global().Get("performance"); perf.Type() == js.TypeObject {
		perf.Call("mark", "fitclaim:go-main")
	}
	bridge.Register()
	select {} // keep the Go runtime alive for the page's calls
}
