//go:build js && wasm && !edgetest

package main

import "net/http"

// testHooks adds nothing: the test-only routes exist only in a build with -tags edgetest
// (hooks_edgetest.go), which edge/test.sh makes; edge/build.sh, wrangler and edge/bench.sh
// build without it, so a deployed worker has no such route.
func testHooks(h http.Handler) http.Handler { return h }
