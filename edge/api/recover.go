package api

import (
	"log"
	"net/http"
	"runtime/debug"
	"strconv"
)

// InternalErrorBody is the body of the answer to a request whose handler panicked.
const InternalErrorBody = "internal error\n"

// Recover answers 500 (InternalError) when h panics before it has written anything, and logs
// the panic with its stack; the server goes on serving. A panic after the answer has begun
// cannot be turned into a 500: Recover then aborts it with http.ErrAbortHandler, which net/http
// takes as "drop this connection" (the edge worker's dispatch buffers every answer and can
// still answer 500 then). Handler is wrapped in Recover, so the same panic gives the same
// answer in net/http and at the edge.
func Recover(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := &tracker{ResponseWriter: w}
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			log.Printf("fitclaim api: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
			if t.wrote {
				panic(http.ErrAbortHandler)
			}
			InternalError(w)
		}()
		h.ServeHTTP(t, r)
	})
}

// InternalError writes the 500 answer: plain text, never cached, with the headers every answer
// carries. Any header set before is dropped, so nothing of a half-made answer (an ETag, say)
// leaks into it.
func InternalError(w http.ResponseWriter) {
	h := w.Header()
	clear(h)
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", TypeText)
	h.Set("Content-Length", strconv.Itoa(len(InternalErrorBody)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusInternalServerError)
	writeBody(w, []byte(InternalErrorBody))
}

// tracker notes whether the answer has begun.
type tracker struct {
	http.ResponseWriter
	wrote bool
}

func (t *tracker) WriteHeader(status int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(status)
}

func (t *tracker) Write(p []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(p)
}
