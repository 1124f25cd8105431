//go:build js && wasm

// Command minimalwasm is the baseline of the first-load benchmark: the smallest Go program a
// page can await, which only sets a global through syscall/js and stays alive, as the page's
// bridge does. bench/bench.sh builds it with the page's flags and serves it with a tiny page.
package main

import "syscall/js"

func main() {
	js.Global().Set("minimal", js.ValueOf(map[string]any{"ready": true}))
	select {}
}
