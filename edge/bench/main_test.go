package main

import (
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
)

// transportHeaders are set by the server around the handler's answer (net/http adds Date,
// workerd does not), not by the handler: left out of the comparison.
var transportHeaders = []string{"Date", "Connection", "Keep-Alive"}

// TestWorkloadSameAsNative sends every request of the bench's mix to the worker in workerd
// (FITCLAIM_EDGE_URL, set by edge/test.sh) and to the same handler in net/http, as GET, as
// HEAD and as a GET with the answer's ETag in If-None-Match (304), and requires the same
// status, the same headers and the same bytes: what the bench measures is the answer net/http
// gives.
func TestWorkloadSameAsNative(t *testing.T) {
	base := os.Getenv("FITCLAIM_EDGE_URL")
	if base == "" {
		t.Skip("FITCLAIM_EDGE_URL is not set; edge/test.sh runs this against workerd")
	}
	native := httptest.NewServer(api.Handler())
	defer native.Close()
	paths, _, err := workload(native.URL)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	type answer struct {
		status int
		header http.Header
		body   string
	}
	do := func(method, url, etag string) answer {
		t.Helper()
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range transportHeaders {
			res.Header.Del(h)
		}
		return answer{res.StatusCode, res.Header, string(b)}
	}
	for _, p := range paths {
		etag := do("GET", native.URL+p, "").header.Get("ETag")
		for _, c := range []struct{ method, etag string }{{"GET", ""}, {"HEAD", ""}, {"GET", etag}} {
			got, want := do(c.method, base+p, c.etag), do(c.method, native.URL+p, c.etag)
			if got.status != want.status || got.body != want.body || !maps.EqualFunc(got.header, want.header, slices.Equal) {
				t.Errorf("%s %s (If-None-Match %q):\nworkerd  %d %v %.200q\nnet/http %d %v %.200q", c.method, p, c.etag, got.status, got.header, got.body, want.status, want.header, want.body)
			}
		}
	}
}
