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
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/syumai/workers"
)

func main() {
	workers.ServeNonBlock(dispatch(testHooks(api.Handler())))
	workers.Ready()
	select {} // park main for good: requests arrive as calls from entry.mjs into this instance
}
