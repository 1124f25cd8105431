//go:build js && wasm

// Command edge is fitclaim's API as a Cloudflare Worker: syumai/workers serves the pure-Go
// handler of edge/api (which calls claim, fit and catalog) from the JS runtime. edge/build.sh
// builds it; edge/serve.sh runs it in workerd.
package main

import (
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/syumai/workers"
)

func main() {
	workers.Serve(api.Handler())
}
