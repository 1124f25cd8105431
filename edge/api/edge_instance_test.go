package api_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/internal/busytest"
)

// The tests in this file use the test-only routes of the edge worker (/__edgetest/...,
// wasm/edge/hooks_edgetest.go), which exist only in the build edge/test.sh makes; it sets
// FITCLAIM_EDGE_HOOKS=1.
func edgeHooks(t *testing.T) string {
	t.Helper()
	base := edgeURL(t)
	if os.Getenv("FITCLAIM_EDGE_HOOKS") != "1" {
		t.Skip("FITCLAIM_EDGE_HOOKS is not set: the worker under test has no test-only routes")
	}
	return base
}

// instanceOf asks the worker which Go instance answers and how many requests it had answered.
func instanceOf(t *testing.T, client *http.Client, base string) (id string, served int) {
	t.Helper()
	a := get(t, client, base, tcase{target: "/__edgetest/instance"})
	id, n, ok := strings.Cut(strings.TrimSpace(string(a.body)), " ")
	served, err := strconv.Atoi(n)
	if a.status != 200 || !ok || err != nil {
		t.Fatalf("/__edgetest/instance: %d %q", a.status, a.body)
	}
	return id, served
}

// claimCase is the catalog-model claim, the API's usual request.
func claimCase(t *testing.T) tcase {
	t.Helper()
	for _, c := range cases(t) {
		if c.name == "yaml catalog model, defaults" {
			return c
		}
	}
	t.Fatal("no case \"yaml catalog model, defaults\"")
	return tcase{}
}

// TestEdgeOneInstance: one Go instance answers request after request, also 8 at a time: its
// id stays and its count grows by every request sent (8 × 6 claims, 8 at a time, + this one).
func TestEdgeOneInstance(t *testing.T) {
	base := edgeHooks(t)
	client := newClient()
	c := claimCase(t)
	id, before := instanceOf(t, client, base)
	atOnce(t, 8, 6, func(report func(error)) { report(sameClaim(client, base, c)) })
	id2, after := instanceOf(t, client, base)
	if id2 != id || after != before+49 {
		t.Errorf("instance %s had answered %d; after 48 claims and this: instance %s, %d (want %s, %d)",
			id, before, id2, after, id, before+49)
	}
}

// internalError is the native handler's answer to a panic, which the edge must equal.
func internalError(t *testing.T) answer {
	t.Helper()
	quietLog(t)
	rec := httptest.NewRecorder()
	api.Recover(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("x") })).ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	return answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

func sameAnswer(t *testing.T, what string, got, want answer) {
	t.Helper()
	if got.status != want.status || !bytes.Equal(got.body, want.body) {
		t.Errorf("%s: %d %q, want %d %q", what, got.status, got.body, want.status, want.body)
	}
	for _, h := range comparedHeaders {
		if g, w := headerText(got.header, h), headerText(want.header, h); g != w {
			t.Errorf("%s: header %s %q, want %q", what, h, g, w)
		}
	}
}

// failThenClaim asks route, a test-only route whose request fails, checks that it answers as
// net/http answers a panic and that the next claim is answered correctly, and returns the
// instance (id, requests answered) before the failure and after the claim.
func failThenClaim(t *testing.T, route string) (id string, before int, idAfter string, after int) {
	t.Helper()
	base := edgeHooks(t)
	client := newClient()
	want := internalError(t)
	id, before = instanceOf(t, client, base)
	sameAnswer(t, route, get(t, client, base, tcase{target: route}), want)
	c := claimCase(t)
	check(t, c, get(t, client, base, c))
	idAfter, after = instanceOf(t, client, base)
	return id, before, idAfter, after
}

// TestEdgePanic: a panic in a handler answers 500 (the bytes and headers net/http's handler
// gives for a panic), and the same instance answers the next request correctly.
func TestEdgePanic(t *testing.T) {
	if id, before, id2, after := failThenClaim(t, "/__edgetest/panic"); id2 != id || after != before+3 {
		t.Errorf("after a panic: instance %s with %d answered, want %s with %d", id2, after, id, before+3)
	}
}

// TestEdgeInstanceEnds: when the Go program ends (a panic on a goroutine of its own, which no
// recover catches), the request in flight answers 500 and the next request is answered by a
// fresh instance.
func TestEdgeInstanceEnds(t *testing.T) {
	if id, _, id2, after := failThenClaim(t, "/__edgetest/exit"); id2 == id || after != 1 {
		t.Errorf("after the instance ended: instance %s with %d answered, want a new one with 1 (the claim)", id2, after)
	}
}

// TestEdgeHeaders: a header the handler sends twice reaches the client twice, and one whose
// name a JS object already has (__proto__) as sent (entry.mjs passes such answers' headers as
// a Headers, the others as a plain object).
func TestEdgeHeaders(t *testing.T) {
	base := edgeHooks(t)
	res, err := http.Get(base + "/__edgetest/headers")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	// workerd joins a repeated header's values with ", " (Headers' get), as the Fetch
	// standard does: either form is the same header to HTTP.
	twice := strings.Join(res.Header.Values("X-Twice"), ", ")
	if res.StatusCode != 200 || string(body) != "ok\n" || twice != "a, b" || res.Header.Get("__proto__") != "p" {
		t.Errorf("/__edgetest/headers: %d %q, X-Twice %q, __proto__ %q; want 200 \"ok\\n\", \"a, b\", \"p\"", res.StatusCode, body, twice, res.Header.Get("__proto__"))
	}
}

// TestEdgeBodies: any method and body reach the Go handler as sent (the dispatch is generic:
// routes that take a POST body will come).
func TestEdgeBodies(t *testing.T) {
	base := edgeHooks(t)
	client := newClient()
	big := make([]byte, 300<<10) // 300 KiB, every byte value, more than one stream chunk
	for i := range big {
		big[i] = byte(i * 7)
	}
	for _, c := range []struct {
		method string
		body   []byte
	}{{"POST", []byte(`{"m":"Qwen/Qwen2.5-7B-Instruct"}`)}, {"POST", big}, {"PUT", nil}, {"DELETE", []byte("x")}, {"GET", nil}} {
		a, err := send(client, c.method, base+"/__edgetest/echo", bytes.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		want := c.method + " " + strconv.Itoa(len(c.body)) + "\n" + string(c.body)
		if a.status != 200 || string(a.body) != want {
			t.Errorf("%s with %d bytes: %d, %d bytes back (want %d: %.60q)", c.method, len(c.body), a.status, len(a.body), len(want), want)
		}
	}
}

// checkSetup is what the check route's tests start from: the worker's URL, the same handler in
// net/http (closed when the test ends) and a cluster's ResourceSlices.
func checkSetup(t *testing.T) (base string, native *httptest.Server, slices []byte) {
	t.Helper()
	base = edgeURL(t)
	native = httptest.NewServer(api.Handler())
	t.Cleanup(native.Close)
	slices, err := os.ReadFile("../../cluster/testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return base, native, slices
}

// TestEdgeCheck: POST /api/v1/check (a route that reads the request body) answers in workerd
// what it answers in net/http, byte for byte, for a real body, an oversize one, a preflight
// and a GET.
func TestEdgeCheck(t *testing.T) {
	base, native, slices := checkSetup(t)
	client := newClient()
	for _, c := range []struct {
		method, target string
		body           []byte
	}{
		{"POST", api.CheckPath + "?p=70&drv=nvidia&n=2", slices},
		{"POST", api.CheckPath + "?p=7", []byte("kind: Pod\n")},
		// 5 MiB + 1, sent chunked (see below): read to the end, then 413
		{"POST", api.CheckPath + "?p=7", bytes.Repeat([]byte("#"), 5<<20+1)},
		{"OPTIONS", api.CheckPath, nil},
		{"GET", api.CheckPath + "?p=7", nil},
	} {
		to := func(base string) answer {
			// No Content-Length (a body of unknown length is sent chunked): with one, an
			// oversize body is refused before it is read, and the server may close the
			// connection while the client is still writing it.
			a, err := send(client, c.method, base+c.target, io.MultiReader(bytes.NewReader(c.body)))
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		want := to(native.URL)
		if want.status == 0 {
			t.Fatalf("%s %s: no native answer", c.method, c.target)
		}
		sameAnswer(t, c.method+" "+c.target, to(base), want)
	}
}

// TestEdgeCheckConcurrent: 32 POST /api/v1/check requests, 8 at a time, interleaved with
// claims, all answered by one instance: each body (the slices after a 256 KiB YAML comment, so
// it arrives in several chunks) is read while other requests are in flight, and every answer
// must equal net/http's.
func TestEdgeCheckConcurrent(t *testing.T) {
	base, native, slices := checkSetup(t)
	slices = append([]byte("# "+strings.Repeat("x", 256<<10)+"\n"), slices...)
	client := newClient()
	target := api.CheckPath + "?p=70&drv=nvidia&n=2"
	post := func(base string) (answer, error) {
		return send(client, "POST", base+target, bytes.NewReader(slices))
	}
	want, err := post(native.URL)
	if err != nil || want.status != 200 {
		t.Fatalf("native: %d %v", want.status, err)
	}
	c := claimCase(t)
	atOnce(t, 8, 4, func(report func(error)) {
		a, err := post(base)
		if err == nil && (a.status != 200 || !bytes.Equal(a.body, want.body)) {
			err = fmt.Errorf("check: %d %.200q", a.status, a.body)
		}
		report(err)
		report(sameClaim(client, base, c))
	})
}

// TestEdgeCheckClaims: POST /api/v1/check with a multipart body (the parts slices and claims,
// as curl -F sends them) answers in workerd what it answers in net/http, byte for byte: the
// report with the claims' devices held, and the claims part's error.
func TestEdgeCheckClaims(t *testing.T) {
	base, native, _ := checkSetup(t)
	slices, claims := busytest.Files(t)
	client := newClient()
	for i, parts := range [][]string{
		{"slices", string(slices), "claims", string(claims)},
		{"slices", string(slices), "claims", string(slices)}, // not claims: 400
	} {
		to := func(base string) answer {
			ct, body := multipartBody(t, parts...)
			req, err := http.NewRequest("POST", base+api.CheckPath+"?p=70&drv=nvidia&n=3", body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", ct)
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return answer{status: res.StatusCode, header: res.Header, body: b}
		}
		want := to(native.URL)
		if want.status == 0 {
			t.Fatal("no native answer")
		}
		sameAnswer(t, "multipart body "+strconv.Itoa(i), to(base), want)
	}
}
