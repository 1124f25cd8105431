package mix

import (
	"bytes"
	"net/http"
)

// Recorder is the least ResponseWriter: the handler writes its whole answer into it. The benches
// that time the handler in Go wasm (wasmapi, stackcopies) keep one and Reset it before each
// request, so what a request costs the writer stays out of their figures.
type Recorder struct {
	Status int
	Body   bytes.Buffer
	h      http.Header
}

// NewRecorder is an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{Status: http.StatusOK, h: http.Header{}} }

// Reset empties the recorder for the next request, keeping its buffers.
func (r *Recorder) Reset() {
	clear(r.h)
	r.Status = http.StatusOK
	r.Body.Reset()
}

func (r *Recorder) Header() http.Header         { return r.h }
func (r *Recorder) WriteHeader(status int)      { r.Status = status }
func (r *Recorder) Write(b []byte) (int, error) { return r.Body.Write(b) }
