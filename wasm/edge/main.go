//go:build js && wasm

// Spike: proves a Go net/http handler runs in workerd via syumai/workers.
package main

import (
	"net/http"

	"github.com/syumai/workers"
)

func main() {
	http.HandleFunc("/api/v1/version", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"spike":true}` + "\n"))
	})
	workers.Serve(nil)
}
