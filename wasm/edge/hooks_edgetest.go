//go:build js && wasm && edgetest

package main

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// testPrefix is where the test-only routes live (edge/api's edge tests call them). They are
// compiled only with -tags edgetest, which edge/test.sh alone passes to edge/build.sh.
const testPrefix = "/__edgetest/"

// instanceID names this Go instance (random, so two instances never share one); served counts
// the requests it has answered. Together they show whether one instance serves many requests.
var (
	instanceID = newInstanceID()
	served     atomic.Int64
)

func newInstanceID() string {
	b := make([]byte, 8)
	rand.Read(b) // crypto/rand never fails (Go 1.24+); in wasm it is crypto.getRandomValues
	return hex.EncodeToString(b)
}

// testHooks serves the test-only routes and passes every other request to h:
//
//	/__edgetest/instance  "<instance id> <requests served before this one>"
//	/__edgetest/panic     panics inside the handler (dispatch must answer 500 and carry on)
//	/__edgetest/exit      ends the Go program with a panic on a goroutine of its own, which no
//	                      recover can catch (entry.mjs must answer 500 and start a new instance)
//	/__edgetest/echo      "<method> <body length>\n<body>": any method, the request body back
//	/__edgetest/headers   "ok" with a header sent twice (X-Twice: a, b) and one named __proto__,
//	                      which entry.mjs cannot pass as a plain object's keys
func testHooks(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := served.Add(1) - 1
		name, ok := strings.CutPrefix(r.URL.Path, testPrefix)
		if !ok {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		switch name {
		case "instance":
			io.WriteString(w, instanceID+" "+strconv.FormatInt(n, 10)+"\n")
		case "panic":
			panic("edgetest: a deliberate panic in a handler")
		case "exit":
			go func() { panic("edgetest: a deliberate panic outside any handler, ending the instance") }()
			select {} // the panic above ends the program before this request is answered
		case "headers":
			w.Header()["X-Twice"] = []string{"a", "b"}
			w.Header()["__proto__"] = []string{"p"}
			io.WriteString(w, "ok\n")
		case "echo":
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			io.WriteString(w, r.Method+" "+strconv.Itoa(len(body))+"\n")
			w.Write(body)
		default:
			http.NotFound(w, r)
		}
	})
}
