//go:build js && wasm

// Command edge is fitclaim's API as a Cloudflare Worker: syumai/workers serves the pure-Go
// handler of edge/api (which calls claim, fit and catalog) from the JS runtime. edge/build.sh
// builds it; edge/serve.sh runs it in workerd.
//
// One instance of this program serves every request of its isolate: edge/entry.mjs
// instantiates it once, and main registers the handler with syumai/workers, signals readiness
// and then stays alive (workers.Serve would return after the first answer: syumai/workers
// v0.32.0 ends the program once one response body is closed). dispatch answers each request
// from a buffer so that close never happens; see dispatch.go.
package main

import (
	"runtime/debug"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/syumai/workers"
)

// gcPercent lets the heap grow to five times what is live before a collection (the page's
// setting too). The instance's live heap is about 1 MB and a request allocates some 50 KB, so
// Go's default (100, with its 4 MB floor) collected every ~65 requests; in wasm a collection
// runs on the worker's one thread, between requests, at 2-15 ms each (gctrace under node, the
// edge/bench mix). With 400 it runs every ~400 requests, within a 16 MB heap (the isolate may
// use 128 MB).
const gcPercent = 400

func main() {
	debug.SetGCPercent(gcPercent)
	h := testHooks(api.Handler())
	workers.ServeNonBlock(dispatch(h))
	directHandler = h // requests without a body: one call each (direct.go)
	workers.Ready()
	select {} // park main for good: requests arrive as calls from entry.mjs into this instance
}
