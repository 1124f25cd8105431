package netlify

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

const sample = `
# a comment
[build]
  publish = "dist"   # trailing comment
  command = "./build.sh"

[[headers]]
  for = "/*"
  [headers.values]
    X-Frame-Options = "DENY"
    Content-Security-Policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'"

[[headers]]
  for = "/*.wasm"
  [headers.values]
    Content-Type = "application/wasm"

[[headers]]
  for = "/assets/*"
  [headers.values]
    Cache-Control = '''
      public,
      max-age=31536000,
      immutable'''

[[headers]]
  for = "/index.html"
  [headers.values]
    Cache-Control = "no-cache"
    X-Frame-Options = "SAMEORIGIN"

[[headers]]
  for = "/blog/:slug/meta"
  [headers.values]
    X-Multi = ["a", "b"]

[[headers]]
  for = "/empty"

[[redirects]]
  from = "/api/*"
  to = "https://example.workers.dev/api/:splat"
  status = 200
  force = true

[[redirects]]
  from = "/old/:name/*"
  to = "/new/:name/:splat"
  status = 301

[[redirects]]
  from = "/spa/*"
  to = "/index.html"
  status = 200

[[redirects]]
  from = "/moved"
  to = "/index.html"

[context.production]
  command = "make"
`

func mustParse(t *testing.T, s string) *Config {
	t.Helper()
	c, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParse(t *testing.T) {
	c := mustParse(t, sample)
	if c.Build.Publish != "dist" || c.Build.Command != "./build.sh" {
		t.Errorf("build = %+v", c.Build)
	}
	if len(c.Headers) != 5 {
		t.Fatalf("got %d header rules, want 5 (the one without values dropped)", len(c.Headers))
	}
	if got := c.Headers[2].Values["Cache-Control"]; got != "public, max-age=31536000, immutable" {
		t.Errorf("multi-line value = %q", got)
	}
	if got := c.Headers[4].Values["X-Multi"]; got != "a, b" {
		t.Errorf("array value = %q", got)
	}
	if len(c.Redirects) != 4 {
		t.Fatalf("got %d redirects", len(c.Redirects))
	}
	r := c.Redirects[0]
	if r.From != "/api/*" || r.Status != 200 || !r.Force || r.To != "https://example.workers.dev/api/:splat" {
		t.Errorf("redirect 0 = %+v", r)
	}
	if c.Redirects[3].Status != 301 {
		t.Errorf("default status = %d, want 301", c.Redirects[3].Status)
	}
	if len(c.Ignored) == 0 || !strings.Contains(strings.Join(c.Ignored, " "), "context") {
		t.Errorf("ignored = %v, want the [context] keys", c.Ignored)
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{
		"[[headers]]\nfor = \"/x\"\n[headers.values]\nA = 1\n",
		"[[headers]]\n[headers.values]\nA = \"b\"\n",
		"[[headers]]\nfor = \"x\"\n[headers.values]\nA = \"b\"\n",
		"[[redirects]]\nfrom = \"/a\"\n",
		"[[redirects]]\nfrom = \"/a/*/b\"\nto = \"/c\"\n",
		"[[redirects]]\nfrom = \"/a\"\nto = \"/c\"\nstatus = 99\n",
		"[build\n",
		"x = \"unterminated\n",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func TestForMatching(t *testing.T) {
	cases := []struct {
		pattern string
		yes, no []string
	}{
		{"/*", []string{"/", "/index.html", "/assets/a.b.wasm", "/a/b/c/"}, nil},
		{"/*.wasm", []string{"/fitclaim.wasm", "/assets/fitclaim.0123456789.wasm", "/X.WASM"},
			[]string{"/", "/fitclaim.wasm.js", "/wasm", "/a.wasmx"}},
		{"/assets/*", []string{"/assets", "/assets/", "/assets/app.0123456789.js", "/assets/a/b"},
			[]string{"/", "/assetsx", "/x/assets/a", "/index.html"}},
		{"/index.html", []string{"/index.html", "/INDEX.html", "/index.html/"},
			[]string{"/", "/index.htm", "/index.html5", "/a/index.html", "/indexxhtml"}},
		{"/", []string{"/"}, []string{"/index.html", "/a"}},
		{"/sw.js", []string{"/sw.js"}, []string{"/swxjs", "/assets/sw.js"}},
		{"/blog/:slug/meta", []string{"/blog/x/meta"}, []string{"/blog/meta", "/blog/x/y/meta"}},
	}
	for _, c := range cases {
		rule := HeaderRule{For: c.pattern, re: forRegexp(c.pattern)}
		for _, p := range c.yes {
			if !rule.Matches(p) {
				t.Errorf("%q should match %q", c.pattern, p)
			}
		}
		for _, p := range c.no {
			if rule.Matches(p) {
				t.Errorf("%q should not match %q", c.pattern, p)
			}
		}
	}
}

func TestHeadersFor(t *testing.T) {
	c := mustParse(t, sample)
	h := c.HeadersFor("/index.html")
	if h.Get("Cache-Control") != "no-cache" || h.Get("X-Frame-Options") != "SAMEORIGIN" {
		t.Errorf("later rule should win: %v", h)
	}
	if !strings.Contains(h.Get("Content-Security-Policy"), "'wasm-unsafe-eval'") {
		t.Errorf("/* rule missing: %v", h)
	}
	h = c.HeadersFor("/assets/fitclaim.0123456789.wasm")
	if h.Get("Content-Type") != "application/wasm" || h.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("wasm asset headers: %v", h)
	}
	if h := c.HeadersFor("/"); h.Get("Cache-Control") != "" {
		t.Errorf("/ should not get /index.html's Cache-Control here: %v", h)
	}
}

func TestRedirectTarget(t *testing.T) {
	c := mustParse(t, sample)
	cases := []struct {
		rule int
		path string
		want string
		ok   bool
	}{
		{0, "/api/v1/claim", "https://example.workers.dev/api/v1/claim", true},
		{0, "/api", "https://example.workers.dev/api/", true},
		{0, "/apix", "", false},
		{1, "/old/abc/x/y", "/new/abc/x/y", true},
		{1, "/old", "", false},
		{3, "/moved/", "/index.html", true},
	}
	for _, tc := range cases {
		got, ok := c.Redirects[tc.rule].Target(tc.path)
		if ok != tc.ok || got != tc.want {
			t.Errorf("rule %d on %q = %q, %v; want %q, %v", tc.rule, tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

func testServer(t *testing.T, api *url.URL) *Server {
	t.Helper()
	root := fstest.MapFS{
		"index.html":                      {Data: []byte("<!doctype html><title>home</title>")},
		"sw.js":                           {Data: []byte("self.x=1")},
		"manifest.webmanifest":            {Data: []byte("{}")},
		"assets/fitclaim.0123456789.wasm": {Data: []byte("\x00asm\x01\x00\x00\x00")},
		"assets/app.0123456789.js":        {Data: []byte("console.log(1)")},
		"assets/style.0123456789.css":     {Data: []byte("body{}")},
		"assets/icon.0123456789.svg":      {Data: []byte("<svg/>")},
		"assets/icon-192.0123456789.png":  {Data: []byte("\x89PNG")},
		"sub/index.html":                  {Data: []byte("sub")},
	}
	return &Server{Root: root, Config: mustParse(t, sample), API: api}
}

func get(t *testing.T, h http.Handler, method, target string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestServerStatic(t *testing.T) {
	s := testServer(t, nil)
	cases := []struct {
		path, status, ctype, cache string
	}{
		{"/", "200", "text/html; charset=utf-8", ""},
		{"/index.html", "200", "text/html; charset=utf-8", "no-cache"},
		{"/assets/fitclaim.0123456789.wasm", "200", "application/wasm", "public, max-age=31536000, immutable"},
		{"/assets/app.0123456789.js", "200", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/assets/style.0123456789.css", "200", "text/css; charset=utf-8", ""},
		{"/assets/icon.0123456789.svg", "200", "image/svg+xml", ""},
		{"/assets/icon-192.0123456789.png", "200", "image/png", ""},
		{"/manifest.webmanifest", "200", "application/manifest+json", ""},
		{"/sub/", "200", "text/html; charset=utf-8", ""},
		{"/nope", "404", "text/plain; charset=utf-8", ""},
		{"/../etc/passwd", "404", "", ""},
	}
	for _, c := range cases {
		res := get(t, s, "GET", c.path)
		if got := res.Status[:3]; got != c.status {
			t.Errorf("%s: status %s, want %s", c.path, res.Status, c.status)
		}
		if c.ctype != "" && res.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s: Content-Type %q, want %q", c.path, res.Header.Get("Content-Type"), c.ctype)
		}
		if c.cache != "" && !strings.HasPrefix(res.Header.Get("Cache-Control"), strings.Split(c.cache, ",")[0]) {
			t.Errorf("%s: Cache-Control %q, want %q", c.path, res.Header.Get("Cache-Control"), c.cache)
		}
		if !strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: no CSP", c.path)
		}
	}
	if res := get(t, s, "POST", "/index.html"); res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %s", res.Status)
	}
	if res := get(t, s, "HEAD", "/index.html"); res.StatusCode != 200 {
		t.Errorf("HEAD: %s", res.Status)
	}
}

func TestServerRedirects(t *testing.T) {
	s := testServer(t, nil)
	res := get(t, s, "GET", "/api/v1/claim?m=x")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "-api") {
		t.Errorf("proxy without -api: %s %q", res.Status, body)
	}
	res = get(t, s, "GET", "/old/a/b?x=1")
	if res.StatusCode != 301 || res.Header.Get("Location") != "/new/a/b?x=1" {
		t.Errorf("301: %s %q", res.Status, res.Header.Get("Location"))
	}
	res = get(t, s, "GET", "/spa/deep/link")
	body, _ = io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), "home") {
		t.Errorf("rewrite: %s %q", res.Status, body)
	}
	// A file that exists shadows a rule that is not forced.
	s.Config.Redirects = append([]Redirect{{From: "/sw.js", To: "/index.html", Status: 301}}, s.Config.Redirects...)
	s.Config.Redirects[0].re, s.Config.Redirects[0].names, _ = fromRegexp("/sw.js")
	if res := get(t, s, "GET", "/sw.js"); res.StatusCode != 200 {
		t.Errorf("shadowing: %s", res.Status)
	}
}

func TestServerProxy(t *testing.T) {
	var seen string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.URL.RequestURI()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	defer upstream.Close()
	api, _ := url.Parse(upstream.URL)
	s := testServer(t, api)
	res := get(t, s, "GET", "/api/v1/claim?m=a%2Fb&tps=30")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(body) != `{"ok":true}` {
		t.Fatalf("proxy: %s %q", res.Status, body)
	}
	if seen != "/api/v1/claim?m=a%2Fb&tps=30" {
		t.Errorf("upstream saw %q", seen)
	}
}

func TestRepoNetlifyToml(t *testing.T) {
	c, err := Load("../../../netlify.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Ignored) != 0 {
		t.Errorf("keys the local server ignores: %v", c.Ignored)
	}
	if c.Build.Publish != "dist" || c.Build.Command != "./build.sh" {
		t.Errorf("build = %+v", c.Build)
	}
	// The one inline script, web/boot.js (tools/cmd/site writes it into index.html), by its hash.
	boot, err := os.ReadFile("../../../web/boot.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(boot)
	bootHash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	wantCSP := "default-src 'self'; script-src 'self' " + bootHash + " 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; " +
		"frame-ancestors 'none'; object-src 'none'"
	for _, p := range []string{"/", "/index.html", "/sw.js", "/assets/app.0123456789.js"} {
		h := c.HeadersFor(p)
		if h.Get("Content-Security-Policy") != wantCSP {
			t.Errorf("%s: CSP %q", p, h.Get("Content-Security-Policy"))
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: %v", p, h)
		}
	}
	for p, want := range map[string]string{
		"/":                                "no-cache",
		"/index.html":                      "no-cache",
		"/sw.js":                           "no-cache",
		"/manifest.webmanifest":            "no-cache",
		"/assets/app.0123456789.js":        "public, max-age=31536000, immutable",
		"/assets/fitclaim.0123456789.wasm": "public, max-age=31536000, immutable",
	} {
		if got := c.HeadersFor(p).Get("Cache-Control"); got != want {
			t.Errorf("%s: Cache-Control %q, want %q", p, got, want)
		}
	}
	if got := c.HeadersFor("/assets/fitclaim.0123456789.wasm").Get("Content-Type"); got != "application/wasm" {
		t.Errorf("wasm Content-Type %q", got)
	}
	to, ok := c.Redirects[0].Target("/api/v1/claim")
	if !ok || !strings.HasSuffix(to, "/api/v1/claim") || c.Redirects[0].Status != 200 {
		t.Errorf("api redirect: %q %v %+v", to, ok, c.Redirects[0])
	}
}

func TestServerPrecompressed(t *testing.T) {
	root := fstest.MapFS{
		"app.js":    {Data: []byte("plain")},
		"app.js.br": {Data: []byte("brotli")},
		"app.js.gz": {Data: []byte("gzip")},
		"only.css":  {Data: []byte("plain css")},
	}
	s := &Server{Root: root, Config: &Config{}}
	cases := []struct{ path, accept, enc, body string }{
		{"/app.js", "gzip, deflate, br", "br", "brotli"},
		{"/app.js", "gzip", "gzip", "gzip"},
		{"/app.js", "br;q=0, gzip", "gzip", "gzip"},
		{"/app.js", "", "", "plain"},
		{"/only.css", "br", "", "plain css"},
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		res := rec.Result()
		if got := res.Header.Get("Content-Encoding"); got != c.enc || rec.Body.String() != c.body {
			t.Errorf("%s with %q: Content-Encoding %q body %q, want %q %q", c.path, c.accept, got, rec.Body.String(), c.enc, c.body)
		}
		if ct := res.Header.Get("Content-Type"); c.path == "/app.js" && ct != "text/javascript; charset=utf-8" {
			t.Errorf("%s: Content-Type %q: the original's, not the copy's", c.path, ct)
		}
	}
}
