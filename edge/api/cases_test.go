package api_test

import (
	"encoding/json"
	"fmt"
	"hash/crc64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/target"
)

// A case is one request and what the answer must be. The same cases run against the handler in
// net/http (api_test.go) and against the worker in workerd (edge_test.go), whose answers must
// also equal net/http's byte for byte.
type tcase struct {
	name     string
	method   string
	target   string // path and raw query, sent as they are
	header   map[string]string
	status   int
	ctype    string
	body     string // exact body, when set
	contains string // a substring of the body, when set (error messages)
	edgeSkip string // why workerd cannot be compared for this case ("" = it can)
	// The command line's warnings for the target, when checked (nil: not): one Warning header
	// each, in order, `299 - "…"`, its text the warning's where the warning is ASCII.
	warnings []string
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

// comparedHeaders are the headers whose values must be equal between net/http and workerd
// (headerText: all of a header's values). The last is the one the worker packs the handler's
// headers into between Go and JS (wasm/edge/packheader.go): it must never reach a client, so
// it must be absent from both.
var comparedHeaders = []string{
	"Content-Type", "Content-Length", "ETag", "Cache-Control", "Allow",
	"Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "X-Content-Type-Options",
	"Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Max-Age",
	"Warning", "X-Fitclaim-Packed-Headers",
}

// headerText is every value of a header joined as one line would hold them (", "): workerd may
// send a header given twice (Warning, one per warning) as one line of both, which is the same
// list (RFC 9110 5.3).
func headerText(h http.Header, name string) string { return strings.Join(h.Values(name), ", ") }

// etagOf is the ETag the API gives a body: its CRC-64/XZ (Go's ECMA table), 8 bytes
// big-endian in hex. TestETagVector pins it to a catalogued value.
func etagOf(body string) string {
	return fmt.Sprintf(`"%016x"`, crc64.Checksum([]byte(body), crc64.MakeTable(crc64.ECMA)))
}

// TestETagVector: the CRC-64/XZ of "123456789" is the check value the CRC RevEng catalogue
// gives for it, 995dc9bbdf1939fa (reveng.sourceforge.io/crc-catalogue/17plus.htm).
func TestETagVector(t *testing.T) {
	if got, want := etagOf("123456789"), `"995dc9bbdf1939fa"`; got != want {
		t.Errorf("etagOf(123456789) = %s, want %s", got, want)
	}
}

func mustRender(t *testing.T, tg target.Target) claim.Result {
	t.Helper()
	res, err := claim.Render(tg)
	if err != nil {
		t.Fatalf("claim.Render(%+v): %v", tg, err)
	}
	return res
}

func jsonLine(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// cases builds the table; expected bodies come from the engine itself (claim.Render,
// claim.SearchModels), so the API is held to the engine's bytes.
func cases(t *testing.T) []tcase {
	t.Helper()
	v := "/api/v1/"
	var cs []tcase

	// Good claims: targets spelled as permalinks (the API's query is the permalink's format).
	first := claim.SearchModels("qwen2.5 7b", 1)
	if len(first) == 0 {
		t.Fatal("catalog search for qwen2.5 7b found nothing")
	}
	model := first[0].Name
	targets := map[string]target.Target{}
	tg := target.Default()
	tg.Model = model
	targets["catalog model, defaults"] = tg
	tg2 := tg
	tg2.MinTps, tg2.EfficiencyPct, tg2.Driver, tg2.Count, tg2.Template = 45.5, 70, "nvidia", 2, true
	targets["nvidia, 2 devices, template"] = tg2
	tg3 := tg
	tg3.Sizing, tg3.Context, tg3.Sequences, tg3.KVCache, tg3.Name = "kv", 32768, 4, "fp8", "my-claim"
	targets["kv sizing, named"] = tg3
	tg4 := target.Default()
	tg4.ParamsB, tg4.Driver = 70, "any"
	targets["custom 70B, any driver"] = tg4
	// Warnings: vLLM refuses the context (one), and DeepSeek-R1 fits no single AMD board (a
	// split proposal with a "×", and the catalog's KV-size warning).
	tg5 := target.Default()
	tg5.Model, tg5.MinTps, tg5.Sizing, tg5.Context, tg5.Engine = "Qwen/Qwen3-8B", 30, "kv", 200000, "vllm"
	targets["vllm refuses the context"] = tg5
	tg6 := target.Default()
	tg6.Model, tg6.Sizing, tg6.Driver = "deepseek-ai/DeepSeek-R1", "kv", "amd"
	targets["nothing fits one amd board"] = tg6
	for name, tg := range targets {
		res := mustRender(t, tg)
		q := target.Permalink(tg)
		w := append([]string{}, res.Warnings...) // non-nil: checked
		cs = append(cs,
			tcase{name: "yaml " + name, target: v + "claim.yaml?" + q, status: 200, ctype: api.TypeYAML, body: res.YAML, warnings: w},
			tcase{name: "json " + name, target: v + "claim.json?" + q, status: 200, ctype: api.TypeJSON, body: res.JSON + "\n", warnings: w}, // the command line's bytes
			tcase{name: "head yaml " + name, method: "HEAD", target: v + "claim.yaml?" + q, status: 200, ctype: api.TypeYAML, warnings: w},
			tcase{name: "if-none-match " + name, target: v + "claim.yaml?" + q, header: map[string]string{"If-None-Match": etagOf(res.YAML)}, status: 304, warnings: w},
		)
	}
	def := mustRender(t, tg)
	mq := "m=" + url.QueryEscape(model)
	for _, o := range [][2]string{{"", ""}, {"llama.cpp", ""}, {"vllm", "reg.example/v:1"}} {
		tg := targets["kv sizing, named"]
		tg.Engine, tg.Image = o[0], o[1]
		res, err := deploy.Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		q := target.Permalink(tg)
		cs = append(cs, tcase{name: "deploy " + o[0] + " " + o[1], target: v + "deploy.yaml?" + q, status: 200, ctype: api.TypeYAML, body: res.YAML, warnings: append([]string{}, res.Warnings()...)})
	}
	cs = append(cs,
		tcase{name: "explicit format version", target: v + "claim.yaml?v=1&" + mq, status: 200, ctype: api.TypeYAML, body: def.YAML},
		tcase{name: "plus and %20 are spaces, leading space trimmed by lookup", target: v + "claim.yaml?m=+" + url.PathEscape(model), status: 200, ctype: api.TypeYAML, body: def.YAML},
		tcase{name: "if-none-match hit", target: v + "claim.yaml?" + mq, header: map[string]string{"If-None-Match": etagOf(def.YAML)}, status: 304},
		tcase{name: "if-none-match weak and listed", target: v + "claim.yaml?" + mq, header: map[string]string{"If-None-Match": `"x", W/` + etagOf(def.YAML)}, status: 304},
		tcase{name: "if-none-match star", target: v + "claim.json?" + mq, header: map[string]string{"If-None-Match": "*"}, status: 304},
		tcase{name: "if-none-match miss", target: v + "claim.yaml?" + mq, header: map[string]string{"If-None-Match": `"0123"`}, status: 200, ctype: api.TypeYAML, body: def.YAML},
		tcase{name: "head 304", method: "HEAD", target: v + "claim.yaml?" + mq, header: map[string]string{"If-None-Match": etagOf(def.YAML)}, status: 304},
	)

	// The issues' words, literally (issues_test.go): issue 3's example page link turned into an API
	// link by swapping "#" for "/api/v1/claim.yaml?" (issue 5), answered as
	// "application/yaml; charset=utf-8"; issue 12's name without its org, answered as the most
	// downloaded model of that repository name.
	example := target.Default()
	example.Model, example.MinTps, example.EfficiencyPct = "NousResearch/Llama-2-7b-chat-hf", 30, 60
	qwen3 := target.Default()
	qwen3.Model = "Qwen/Qwen3-8B"
	cs = append(cs,
		tcase{name: "issue 5: a page link swapped to an API link", target: v + "claim.yaml?m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60",
			status: 200, ctype: "application/yaml; charset=utf-8", body: mustRender(t, example).YAML},
		tcase{name: "issue 12: a name without its org", target: v + "claim.yaml?m=qwen3-8b", status: 200, ctype: api.TypeYAML, body: mustRender(t, qwen3).YAML},
	)

	// Models and version.
	for _, m := range []struct {
		name, query, q string
		limit          int
	}{
		{"default", "", "", target.DefaultListLimit},
		{"llama 3", "q=llama&limit=3", "llama", 3},
		{"limit 100", "limit=100", "", 100},
		{"utf-8 query", "q=%E2%9C%93qwen", "✓qwen", target.DefaultListLimit},
		{"no match", "q=zzzzzzzzzz-nothing", "zzzzzzzzzz-nothing", target.DefaultListLimit},
		{"control characters in q", "q=%00%1B%7F", "\x00\x1b\x7f", target.DefaultListLimit},
	} {
		body := jsonLine(t, claim.SearchModels(m.q, m.limit))
		cs = append(cs, tcase{name: "models " + m.name, target: v + "models?" + m.query, status: 200, ctype: api.TypeJSON, body: body})
	}
	cs = append(cs,
		tcase{name: "version", target: v + "version", status: 200, ctype: api.TypeJSON, contains: `"version":"` + claim.Version + `"`},
		tcase{name: "head version", method: "HEAD", target: v + "version", status: 200, ctype: api.TypeJSON},
	)

	// Bad input: 400 with the field named.
	long := strings.Repeat("a", 10000)
	bad := []struct{ name, target, contains string }{
		{"no model", "claim.yaml", "Model (model, m): choose a catalog model"},
		{"unknown model", "claim.yaml?m=no-such-model-zzzz", "Model (model, m): no model in the catalog"},
		{"ambiguous model", "claim.yaml?m=llama", "Model (model, m): \"llama\" matches"},
		{"bad number", "claim.yaml?" + mq + "&tps=fast", "Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s"},
		{"hex number", "claim.yaml?" + mq + "&tps=0x10", "Target decode speed (minTps, tps)"},
		{"NaN", "claim.json?" + mq + "&tps=NaN", "Target decode speed (minTps, tps)"},
		{"negative", "claim.yaml?" + mq + "&tps=-1", "Target decode speed (minTps, tps)"},
		{"efficiency 0", "claim.yaml?" + mq + "&eff=0", "Bandwidth efficiency (efficiencyPct, eff)"},
		{"too many devices", "claim.yaml?" + mq + "&n=99", "Devices (count, n)"},
		{"bad driver", "claim.yaml?" + mq + "&drv=cuda", "DRA driver (driver, drv)"},
		{"bad name", "claim.yaml?" + mq + "&name=Not_A_Name", "Claim name (name):"},
		{"control characters in name", "claim.yaml?" + mq + "&name=a%0Ab%00c%1B%7F", "Claim name (name):"},
		{"control characters in model", "claim.yaml?m=%00%0D%0A%1B%5B31m", "Model (model, m)"},
		{"10,000-character model", "claim.yaml?m=" + long, "Model (model, m): must be at most"},
		{"10,000-character name", "claim.json?" + mq + "&name=" + long, "Claim name (name): must be at most"},
		{"10,000-character unknown key", "claim.yaml?" + long + "=1&" + mq, "query: unknown key"},
		{"repeated key", "claim.yaml?" + mq + "&" + mq, "Model (model, m): given 2 times"},
		{"repeated number", "claim.yaml?" + mq + "&tps=10&tps=20", "Target decode speed (minTps, tps): given 2 times"},
		{"bad percent-encoding", "claim.yaml?m=%zz", "Model (model, m): invalid percent-encoding"},
		{"lone percent", "claim.yaml?" + mq + "&name=%", "Claim name (name): invalid percent-encoding"},
		{"bad percent-encoding in key", "claim.yaml?%g1=1&" + mq, "query: invalid percent-encoding"},
		{"invalid utf-8", "claim.yaml?m=%FF%FE", "Model (model, m)"},
		{"unknown key", "claim.yaml?" + mq + "&foo=bar", "query: unknown key"},
		{"newer format", "claim.yaml?v=99&" + mq, "v: this link was made by a newer fitclaim"},
		{"models: limit 0", "models?limit=0", "limit: must be a whole number from 1 to 100"},
		{"models: limit 101", "models?limit=101", "limit: must be a whole number from 1 to 100"},
		{"models: limit word", "models?limit=ten", "limit: must be a whole number"},
		{"models: repeated q", "models?q=a&q=b", "q: given 2 times"},
		{"models: unknown key", "models?m=llama", "query: unknown key \"m\""},
		{"models: 10,000-character q", "models?q=" + long, "q: must be at most 300"},
		{"models: bad percent-encoding", "models?q=%E2%9", "q: invalid percent-encoding"},
		{"version: unknown key", "version?x=1", "query: unknown key \"x\""},
		{"deploy: bad engine", "deploy.yaml?" + mq + "&engine=tgi", "Serving engine (engine): must be vllm or llama.cpp"},
		{"deploy: repeated engine", "deploy.yaml?" + mq + "&engine=vllm&engine=vllm", "Serving engine (engine): given 2 times"},
		{"deploy: bad image", "deploy.yaml?" + mq + "&image=a%20b", "Container image (image): must be a container image reference"},
		{"deploy: custom model", "deploy.yaml?p=7", "Model (model, m): a Deployment serves a catalog model"},
		{"deploy: bad target", "deploy.yaml?" + mq + "&tps=0", "Target decode speed (minTps, tps)"},
	}
	for _, b := range bad {
		cs = append(cs, tcase{name: b.name, target: v + b.target, status: 400, ctype: api.TypeText, contains: b.contains})
	}
	cs = append(cs,
		tcase{name: "head bad input", method: "HEAD", target: v + "claim.yaml?m=%zz", status: 400, ctype: api.TypeText},
		tcase{name: "query too long", target: v + "claim.yaml?m=" + strings.Repeat("b", api.MaxQuery), status: 414, ctype: api.TypeText, contains: "query: too long"},
	)

	// Paths and methods.
	for _, p := range []string{"/", "/api/v1/", "/api/v1/nope", "/api/v1/claim.yaml/", "/api/v1/CLAIM.yaml", "/api/v2/version", "/api/v1/claim.yml"} {
		cs = append(cs, tcase{name: "404 " + p, target: p, status: 404, ctype: api.TypeText, contains: "not found"})
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		cs = append(cs, tcase{name: "405 " + m, method: m, target: v + "claim.yaml?" + mq, status: 405, ctype: api.TypeText, contains: "not allowed"})
	}
	// A CORS preflight (a script's GET with If-None-Match) is 204 on every GET route; it was 405,
	// so the script's request never left the browser.
	for _, p := range []string{"claim.yaml?" + mq, "claim.json?" + mq, "deploy.yaml?" + mq, "models?q=llama", "estimate.json?" + mq + "&on=h100", "fitting.json?on=h100", "version"} {
		cs = append(cs, tcase{name: "preflight " + p, method: "OPTIONS", target: v + p, status: 204,
			header: map[string]string{"Origin": "https://example.com", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match"}})
	}
	cs = append(cs, estimateCases(t, v)...)
	return cs
}

// get sends one case to base (http://host:port) with client and reads the whole answer.
func get(t *testing.T, client *http.Client, base string, c tcase) answer {
	t.Helper()
	a, err := fetch(client, base, c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fetch is get for any goroutine.
func fetch(client *http.Client, base string, c tcase) (answer, error) {
	method := c.method
	if method == "" {
		method = "GET"
	}
	u, err := url.Parse(base)
	if err != nil {
		return answer{}, err
	}
	// Opaque carries the path and query to the request line byte for byte.
	u.Opaque = c.target
	var body io.Reader
	if method == "POST" || method == "PUT" || method == "PATCH" {
		body = strings.NewReader("m=x")
	}
	req, err := http.NewRequest(method, base, body)
	if err != nil {
		return answer{}, err
	}
	req.URL = u
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	var res *http.Response
	for try := 0; ; try++ {
		res, err = client.Do(req)
		if err == nil || try == 2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return answer{}, fmt.Errorf("%s %.200s: %v", method, c.target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, fmt.Errorf("%s %.200s: reading body: %v", method, c.target, err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: b}, nil
}

// check holds an answer to the case's expectations and to the API's header rules.
func check(t *testing.T, c tcase, a answer) {
	t.Helper()
	if a.status != c.status {
		t.Fatalf("status %d, want %d; body %.300q", a.status, c.status, a.body)
	}
	h := a.header
	if got := h.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin %q, want *", got)
	}
	if c.ctype != "" && h.Get("Content-Type") != c.ctype {
		t.Errorf("Content-Type %q, want %q", h.Get("Content-Type"), c.ctype)
	}
	head := c.method == "HEAD"
	switch {
	case c.status == 200:
		if h.Get("Cache-Control") != api.CacheControl {
			t.Errorf("Cache-Control %q", h.Get("Cache-Control"))
		}
		if !head && h.Get("ETag") != etagOf(string(a.body)) {
			t.Errorf("ETag %q is not the hash of the body (%s)", h.Get("ETag"), etagOf(string(a.body)))
		}
	case c.status == 204: // a CORS preflight
		if h.Get("Access-Control-Allow-Methods") != "GET, HEAD" || h.Get("Access-Control-Allow-Headers") != "If-None-Match" || h.Get("Access-Control-Max-Age") != "86400" {
			t.Errorf("preflight's answer lacks what a GET route takes: %v", h)
		}
		if len(a.body) != 0 || h.Get("ETag") != "" {
			t.Errorf("preflight with a body %q or an ETag %q", a.body, h.Get("ETag"))
		}
	case c.status == 304:
		if h.Get("ETag") == "" || h.Get("Cache-Control") != api.CacheControl {
			t.Errorf("304 without ETag or Cache-Control: %v", h)
		}
		if len(a.body) != 0 {
			t.Errorf("304 with a body %q", a.body)
		}
	default:
		if h.Get("ETag") != "" || h.Get("Cache-Control") != "no-store" {
			t.Errorf("error %d with ETag %q, Cache-Control %q", c.status, h.Get("ETag"), h.Get("Cache-Control"))
		}
	}
	if c.warnings != nil {
		got := h.Values("Warning")
		if len(got) == 1 && len(c.warnings) > 1 { // workerd may join them in one line: split at `", 299 - "`
			got = strings.SplitAfter(strings.ReplaceAll(got[0], `", 299 - "`, "\"\x00299 - \""), "\x00")
			for i := range got {
				got[i] = strings.TrimSuffix(got[i], "\x00")
			}
		}
		if len(got) != len(c.warnings) {
			t.Errorf("Warning %q: want one per warning of the command line's %q", got, c.warnings)
		}
		for i := range min(len(got), len(c.warnings)) {
			code, agent, text, ok := parseWarning(got[i])
			if !ok || code != "299" || agent != "-" || isASCII(c.warnings[i]) && text != c.warnings[i] {
				t.Errorf("Warning %q: want 299 - and the text %q", got[i], c.warnings[i])
			}
		}
	}
	if c.status == 405 && h.Get("Allow") != "GET, HEAD" {
		t.Errorf("405 with Allow %q", h.Get("Allow"))
	}
	if head {
		if len(a.body) != 0 {
			t.Errorf("HEAD with a body %q", a.body)
		}
		if c.status != 304 && h.Get("Content-Length") == "" {
			t.Errorf("HEAD without Content-Length")
		}
		return
	}
	if c.body != "" && string(a.body) != c.body {
		t.Errorf("body differs from the engine's:\n got %.500q\nwant %.500q", a.body, c.body)
	}
	if c.contains != "" && !strings.Contains(string(a.body), c.contains) {
		t.Errorf("body %.300q does not contain %q", a.body, c.contains)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// newClient keeps connections (see TestEdgeConcurrent), but none idle for as long as workerd
// keeps one: workerd closes a kept-alive connection 5 s after its last answer (kj's
// HttpServerSettings.pipelineTimeout), and a request sent on it as it closes fails with
// "connection reset by peer" or "broken pipe". Seen as a flake of TestEdgeCheckConcurrent
// under load, when a goroutine's connection sat idle that long between its requests; made
// at will by a POST of 256 KiB after 4.99-5.01 s idle (after 4.98 s it is answered, after
// 5.1 s the client has seen the close and dials anew). net/http retries a GET then, and a POST
// only with Idempotency-Key (send); a client that drops its idle connections first never meets
// the race.
func newClient() *http.Client {
	return &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 16,
			IdleConnTimeout: workerdIdleTimeout - time.Second},
	}
}

// workerdIdleTimeout is how long workerd keeps an idle kept-alive connection open.
const workerdIdleTimeout = 5 * time.Second

// The search text's limit counts characters, as the model's does: a search of 101 Chinese
// characters (303 bytes) was refused as "q: must be at most 300 characters (got 303)".
func TestModelsQueryLimitCountsCharacters(t *testing.T) {
	for _, c := range []struct {
		n    int
		code int
		want string
	}{{101, 200, "[]"}, {301, 400, "q: must be at most 300 characters (got 301)\n"}} {
		w := httptest.NewRecorder()
		api.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/models?q="+url.QueryEscape(strings.Repeat("模", c.n)), nil))
		if w.Code != c.code || !strings.HasPrefix(w.Body.String(), c.want) {
			t.Errorf("%d characters: %d %q", c.n, w.Code, w.Body.String())
		}
	}
}
