//go:build js && wasm

// Command page is the browser build: it installs the fitclaim global and waits for calls.
package main

import "github.com/fitclaim/fitclaim/wasm/bridge"

func main() {
	bridge.Register()
	select {} // keep the Go runtime alive for the page's calls
}
