//go:build js && wasm

// Command page is the browser build: it installs the fitclaim global and waits for calls.
//
// Its garbage collector runs at GOGC=800, set by the page (web/boot.js passes it in the Go
// environment, and web/firstclaim.js to the warm-up worker's instance): a collection marks the
// live heap (about 1 MB once the page has started) and its finalizers call into JavaScript once
// for each JS value the calls since the last one left behind, 6-15 ms of CPU in the render it
// falls in (Chromium traces, issue 10 §3). Below 4 MB x GOGC/100 of heap Go does not collect,
// and a page render allocates about 25 KB: at Go's default (100) a collection every ~160 renders;
// at 400 every ~600 bridge calls (one in ~240 of the page bench's page renders, four in its
// 1,000); at 800 half as often, for a heap of up to 32 MB instead of 16. The environment, not
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
