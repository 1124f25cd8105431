package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/target"
)

func post(t *testing.T, url, contentType string, body io.Reader) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Post(url, contentType, body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// POST /api/v1/check answers the engine's report for the query's target and the body's slices.
func TestCheckRoute(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	data, err := os.ReadFile("../../cluster/testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	target, err := target.ParsePermalink("p=70&drv=nvidia&n=2")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTarget(target, data)
	if err != nil {
		t.Fatal(err)
	}
	status, h, body := post(t, srv.URL+"/api/v1/check?p=70&drv=nvidia&n=2", "application/yaml", strings.NewReader(string(data)))
	if status != 200 || body != want.JSON() || h.Get("Content-Type") != api.TypeJSON || h.Get("Cache-Control") != "no-store" ||
		h.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%d %v\n%s\nwant:\n%s", status, h, body, want.JSON())
	}

	cases := []struct {
		name, method, query, body string
		status                    int
		msg                       string
	}{
		{"bad slices", "POST", "p=7", "kind: Pod\n", 400, `slices: the input: kind: "Pod"`},
		{"bad target", "POST", "p=7&eff=500", string(data), 400, "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got 500)"},
		{"too big", "POST", "p=7", strings.Repeat("#", cluster.MaxInput+1), 413, "slices: the body is over 5242880 bytes (5 MiB)"},
		{"get", "GET", "p=7", "", 405, "method GET not allowed; POST the slices"},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, srv.URL+"/api/v1/check?"+c.query, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != c.status || !strings.HasPrefix(string(b), c.msg) {
			t.Errorf("%s: %d %q; want %d %q", c.name, resp.StatusCode, b, c.status, c.msg)
		}
	}
	// A body sent without a length (chunked) over the limit is cut and refused too.
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(strings.Repeat("#", cluster.MaxInput+10)))
		pw.Close()
	}()
	if status, _, body := post(t, srv.URL+"/api/v1/check?p=7", "application/yaml", pr); status != 413 {
		t.Errorf("chunked: %d %s", status, body)
	}
}
