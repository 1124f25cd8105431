//go:build js && wasm

// Command page is the browser build: it installs the fitclaim global and waits for calls.
package main

import (
	"runtime/debug"

	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// gcPercent lets the heap grow to 5× what is live before a collection. The live heap is mostly
// the catalog, which every collection marks again while the page waits (the wasm runtime has
// one thread); a render allocates about 60 KB, so at Go's default (100) one render in ~60 paid
// for a whole collection and set the render p99. At 400 it is one in several hundred, for a few
// more MB of memory.
const gcPercent = 400

func main() {
	debug.SetGCPercent(gcPercent)
	bridge.Register()
	select {} // keep the Go runtime alive for the page's calls
}
