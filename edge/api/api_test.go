package api_test

import (
	"net/http/httptest"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
)

// TestHandler runs every case against the handler served by net/http.
func TestHandler(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	for _, c := range cases(t) {
		t.Run(c.name, func(t *testing.T) {
			check(t, c, get(t, client, srv.URL, c))
		})
	}
}

// TestDeterministic: the same request twice gives the same bytes and ETag.
func TestDeterministic(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	for _, c := range cases(t) {
		if c.status != 200 || c.method != "" {
			continue
		}
		a, b := get(t, client, srv.URL, c), get(t, client, srv.URL, c)
		if string(a.body) != string(b.body) || a.header.Get("ETag") != b.header.Get("ETag") {
			t.Errorf("%s: two answers differ", c.name)
		}
	}
}
