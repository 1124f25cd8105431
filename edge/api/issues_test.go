package api_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// serveOne answers one request with the handler.
func serveOne(method, path, body string, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	api.Handler().ServeHTTP(rec, req)
	return rec
}

// Issue 5's routes in its own words, literally (the other tests compare with the package's
// constants, which a change would carry along): `GET /api/v1/claim.yaml?<permalink keys>` → the
// YAML, `application/yaml; charset=utf-8`; `claim.json` → the JSON; `models?q=…&limit=…` → the
// catalog search as JSON; `version` → fitclaim's version and the catalog's date. "The query keys
// are exactly the permalink keys, so a page link turns into an API link by swapping `#` for
// `/api/v1/claim.yaml?`"; "Bad input → 400 with a plain-text message that names the field;
// unknown path → 404; any method but GET/HEAD → 405; responses carry CORS for GET, an ETag, and
// caching suited to deterministic output. The bytes equal what the page and the command line
// produce for the same target."
func TestIssue5Routes(t *testing.T) {
	page := "https://fitclaim.example/#m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" // issue 3's example link
	_, fragment, _ := strings.Cut(page, "#")
	tg, err := target.ParsePermalink(fragment)
	if err != nil {
		t.Fatal(err)
	}
	want, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	apiLink := strings.Replace(page, "https://fitclaim.example/#", "/api/v1/claim.yaml?", 1)
	for _, c := range []struct{ path, ctype, body string }{
		{apiLink, "application/yaml; charset=utf-8", want.YAML},
		{strings.Replace(apiLink, "claim.yaml", "claim.json", 1), "application/json", want.JSON + "\n"},
	} {
		rec := serveOne("GET", c.path, "", map[string]string{"Origin": "https://elsewhere.example"})
		h := rec.Header()
		if rec.Code != 200 || h.Get("Content-Type") != c.ctype || rec.Body.String() != c.body {
			t.Errorf("GET %s: %d %q, body the engine's: %v", c.path, rec.Code, h.Get("Content-Type"), rec.Body.String() == c.body)
		}
		if h.Get("Access-Control-Allow-Origin") == "" || h.Get("ETag") == "" || !strings.Contains(h.Get("Cache-Control"), "max-age=") {
			t.Errorf("GET %s: CORS %q, ETag %q, Cache-Control %q", c.path, h.Get("Access-Control-Allow-Origin"), h.Get("ETag"), h.Get("Cache-Control"))
		}
		if again := serveOne("GET", c.path, "", map[string]string{"If-None-Match": h.Get("ETag")}); again.Code != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", c.path, again.Code)
		}
		if head := serveOne("HEAD", c.path, "", nil); head.Code != 200 {
			t.Errorf("HEAD %s: %d", c.path, head.Code)
		}
	}
	rec := serveOne("GET", "/api/v1/models?q=llama&limit=3", "", nil)
	var models []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &models); rec.Code != 200 || err != nil || len(models) != 3 ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("models: %d %v %s", rec.Code, err, rec.Body)
	}
	for _, m := range models {
		keys := slices.Sorted(maps.Keys(m))
		if !slices.Equal(keys, []string{"contextLength", "moe", "name", "paramsB", "quant"}) {
			t.Errorf("models: keys %v", keys)
		}
	}
	rec = serveOne("GET", "/api/v1/version", "", nil)
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); rec.Code != 200 || err != nil || v["version"] != claim.Version || v["catalogDate"] != catalog.Date {
		t.Errorf("version: %d %v %s", rec.Code, err, rec.Body)
	}
	for _, c := range []struct {
		method, path string
		status       int
		says         string
	}{
		{"GET", "/api/v1/claim.yaml?m=NousResearch%2FLlama-2-7b-chat-hf&eff=500", 400, "efficiencyPct"},
		{"GET", "/api/v1/claim.json?m=NousResearch%2FLlama-2-7b-chat-hf&tps=0", 400, "minTps"},
		{"GET", "/api/v1/no-such-route", 404, "not found"},
		{"POST", apiLink, 405, "not allowed"},
		{"PUT", apiLink, 405, "not allowed"},
		{"DELETE", "/api/v1/version", 405, "not allowed"},
	} {
		rec := serveOne(c.method, c.path, "", nil)
		if rec.Code != c.status || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s %s: %d %q %q; want %d, plain text naming %s", c.method, c.path, rec.Code, rec.Header().Get("Content-Type"), rec.Body, c.status, c.says)
		}
	}
}

// Issue 12 § 1: `POST /api/v1/check?<claim query>` with the slices as the body (size-limited)
// answers `fitclaim check --json`; issue 11 § 5: the hardware question "is in … the API too",
// the bytes of `fitclaim estimate --json`; issue 12 § 4: a name without its org resolves to the
// most-downloaded exact match (the API's claim is that model's, byte for byte).
func TestIssue11And12Routes(t *testing.T) {
	data, err := os.ReadFile("../../cluster/testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	q := "m=Qwen%2FQwen3-8B&drv=nvidia"
	tg, _ := target.ParsePermalink(q)
	want, err := cluster.CheckTarget(tg, data)
	if err != nil {
		t.Fatal(err)
	}
	rec := serveOne("POST", "/api/v1/check?"+q, string(data), map[string]string{"Content-Type": "application/yaml"})
	if rec.Code != 200 || rec.Body.String() != want.JSON() || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("check: %d %q", rec.Code, rec.Body)
	}
	if rec := serveOne("POST", "/api/v1/check?"+q, strings.Repeat("#", 6<<20), nil); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 6 MiB body: %d, want 413", rec.Code)
	}
	eq := "m=Qwen%2FQwen3-8B&on=nvidia-rtx-4090"
	e, err := estimate.RunRaw(eq)
	if err != nil {
		t.Fatal(err)
	}
	if rec := serveOne("GET", "/api/v1/estimate.json?"+eq, "", nil); rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != estimate.JSON(e) {
		t.Errorf("estimate.json: %d %q, want %q", rec.Code, rec.Body, estimate.JSON(e))
	}
	short := serveOne("GET", "/api/v1/claim.yaml?m=qwen3-8b", "", nil)
	full := serveOne("GET", "/api/v1/claim.yaml?m=Qwen%2FQwen3-8B", "", nil)
	if short.Code != 200 || short.Body.String() != full.Body.String() {
		t.Errorf("m=qwen3-8b: %d %q", short.Code, short.Body)
	}
}
