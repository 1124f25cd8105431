package api_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
)

// quietLog silences the panic log (with its stack) for the length of a test.
func quietLog(t *testing.T) {
	w := log.Writer()
	log.SetOutput(io.Discard)
	t.Cleanup(func() { log.SetOutput(w) })
}

// TestRecoverBeforeWriting: a handler that panics before writing answers 500 with the plain
// internal-error text and none of the headers it had set (an ETag here), and the server
// answers the next request.
func TestRecoverBeforeWriting(t *testing.T) {
	quietLog(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/panic", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"half-made"`)
		panic("a bug")
	})
	mux.Handle("/", api.Handler())
	srv := httptest.NewServer(api.Recover(mux))
	defer srv.Close()
	client := newClient()

	a := get(t, client, srv.URL, tcase{target: "/panic"})
	if a.status != 500 || string(a.body) != api.InternalErrorBody {
		t.Fatalf("got %d %q, want 500 %q", a.status, a.body, api.InternalErrorBody)
	}
	for k, want := range map[string]string{
		"Content-Type": api.TypeText, "Content-Length": "15", "Cache-Control": "no-store", // len("internal error\n") = 15
		"Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff", "ETag": "",
	} {
		if got := a.header.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if b := get(t, client, srv.URL, tcase{target: "/api/v1/version"}); b.status != 200 {
		t.Errorf("after the panic: version answered %d", b.status)
	}
}

// TestRecoverAfterWriting: a panic after the answer has begun cannot become a 500; net/http
// drops the connection (http.ErrAbortHandler), and the server still answers the next request.
func TestRecoverAfterWriting(t *testing.T) {
	quietLog(t)
	srv := httptest.NewUnstartedServer(api.Recover(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/late" {
			w.WriteHeader(200)
			w.Write([]byte("half"))
			panic("a late bug")
		}
		io.WriteString(w, "fine")
	})))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()
	client := newClient()
	// The body is chunked (no Content-Length), so a dropped connection is a read error.
	if a, err := fetch(client, srv.URL, tcase{target: "/late"}); err == nil {
		t.Errorf("a late panic answered %d %q; want the connection dropped", a.status, a.body)
	}
	if a := get(t, client, srv.URL, tcase{target: "/next"}); a.status != 200 || string(a.body) != "fine" {
		t.Errorf("after the panic: %d %q", a.status, a.body)
	}
}
