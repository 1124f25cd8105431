//go:build js && wasm

// Command page is the browser build: it installs the fitclaim global and waits for calls.
//
// Its garbage collector runs at GOGC=400, set by the page (web/app.js passes it in the Go
// environment): the live heap is mostly the catalog, which every collection marks again while
// the page waits (the wasm runtime has one thread); a render allocates about 60 KB, so at Go's
// default (100) one render in ~60 paid for a whole collection and set the render p99. At 400 it
// is one in several hundred, for a few more MB of memory. The environment, not
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
