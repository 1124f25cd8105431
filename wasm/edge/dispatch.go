//go:build js && wasm

package main

import (
	"log"
	"net/http"
	"runtime/debug"
	"syscall/js"

	"github.com/fitclaim/fitclaim/edge/api"
)

// uint8Array is JS's Uint8Array constructor, looked up once: syumai/workers' js.Global() is a
// Proxy of globalThis, and every lookup is a round trip into JS.
var uint8Array = js.Global().Get("Uint8Array")

// rawBodyWriter is the method syumai/workers' ResponseWriter (v0.32.0, internal/jshttp) has for
// a body that is already a JS value: the Response is then made from that value, and the
// writer's own pipe is never read.
type rawBodyWriter interface{ WriteRawJSBody(body js.Value) }

// dispatch adapts h to a Go instance that outlives its requests, for the requests that reach it
// through syumai/workers' handleRequest: those with a body (the others take direct.go's path). syumai/workers v0.32.0 sends a
// written body through a pipe whose Close ends the program (it closes the channel Serve waits
// on, and a second Close panics), which is why it starts an instance per request. dispatch
// instead lets h write into a buffer and hands the bytes over as a Uint8Array (rawBodyWriter),
// so the pipe stays untouched and the instance serves the next request. A panic anywhere in h
// answers 500 (api.InternalError, whatever h had written) and the instance carries on: syumai
// runs h on a goroutine of its own, where an unrecovered panic would end the program. The
// buffer also means the whole answer is made in the call that delivered the request, inside
// that request's own JS context.
func dispatch(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{header: w.Header(), status: http.StatusOK}
		serveRecovering(h, rec, r)
		w.WriteHeader(rec.status)
		raw, ok := w.(rawBodyWriter)
		if !ok {
			// Not syumai/workers v0.32.0's writer: write plainly (this instance may then end
			// after the answer; entry.mjs replaces an instance that has ended).
			w.Write(rec.body)
			return
		}
		packHeader(rec.header) // the same map as w.Header()
		b := uint8Array.New(len(rec.body))
		js.CopyBytesToJS(b, rec.body)
		raw.WriteRawJSBody(b)
	})
}

// serveRecovering runs h; after a panic, rec holds the 500 answer instead of what h wrote.
// (api.Handler recovers its own panics; this catches those of anything around it and the
// http.ErrAbortHandler that api.Recover raises for a panic after writing.)
func serveRecovering(h http.Handler, rec *recorder, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				log.Printf("fitclaim edge: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
			}
			rec.status, rec.wrote = http.StatusOK, false
			rec.body = rec.body[:0]
			api.InternalError(rec)
		}
	}()
	h.ServeHTTP(rec, r)
}

// recorder is an http.ResponseWriter into memory. Its header map is the real writer's, so
// headers set by h reach the Response as they are. (The direct path reuses one recorder, its
// map and its body's array, from request to request: direct.go.)
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   []byte
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	r.body = append(r.body, p...)
	return len(p), nil
}
