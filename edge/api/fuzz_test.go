package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/target"
)

// fuzzRoutes are the paths FuzzHandler sends its queries to, picked by a byte.
var fuzzRoutes = []string{
	api.Prefix + "claim.yaml", api.Prefix + "claim.json", api.Prefix + "deploy.yaml",
	api.Prefix + "estimate.json", api.Prefix + "fitting.json", api.Prefix + "models",
	api.Prefix + "version", api.CheckPath,
}

// hostileValues are the values every key is tried with (the audit's table, docs/AUDIT.md).
var hostileValues = []string{
	"", " ", "%20", "-1", "0", "-0", "NaN", "Inf", "-Inf", "1e308", "1e-400", "2147483648", "9223372036854775808",
	"99999999999999999999", "0x10", "010", "1_000", "%2B5", "+5", "5abc", "1e3", "1.0", "1.5", "%D9%A3", "%00", "%01",
	"%FF%FE", "%zz", "%", "a%2", "true", "yes", "nvidia", "Qwen%2FQwen3-8B", strings.Repeat("x", 600), strings.Repeat("h100-", 400),
	strings.Repeat("%E6%A8%A1", 300),
}

// fuzzKeys are the keys tried: every key of the field table and every route's own, and a few
// that are not keys (wrong case, unknown).
func fuzzKeys() []string {
	keys := []string{"v", "q", "limit", "TPS", "M", "l", "zz", ""}
	for i := range target.Fields {
		keys = append(keys, target.Fields[i].Key)
	}
	return keys
}

func FuzzHandler(f *testing.F) {
	keys := fuzzKeys()
	for i, k := range keys {
		for j, v := range hostileValues {
			route := byte((i + j) % len(fuzzRoutes))
			if f, ok := target.ByKey(k); ok && f.Device {
				route = byte(3 + j%2) // estimate.json and fitting.json read the device's keys
			}
			base := []string{"m=Qwen%2FQwen3-8B", "p=7", "on=h100&p=7", "q=qwen", "", "m=Qwen%2FQwen3-8B&" + k + "=1", "p=7&memory=80&bandwidth=1000&family=nvidia"}[(i*7+j)%7]
			f.Add(route, base+"&"+k+"="+v, "")
		}
	}
	for _, long := range []string{strings.Repeat("h100-", 400), strings.Repeat("%E6%A8%A1", 300), strings.Repeat("a", 129)} {
		for _, k := range []string{"on", "family"} {
			f.Add(byte(3), "p=7&"+k+"="+long, "")
			f.Add(byte(4), k+"="+long, "")
		}
		f.Add(byte(0), "m="+long, "")
		f.Add(byte(2), "m=Qwen%2FQwen3-8B&image="+long, "")
	}
	f.Add(byte(7), "p=7", "kind: List\nitems: []\n")
	f.Add(byte(7), "p=7", "\xff\xfe")
	f.Add(byte(0), "p=7&p=7", "")
	f.Add(byte(3), "p=7&memory=1e308&bandwidth=1e308&family=nvidia", "")
	f.Add(byte(4), "on=h100&n=8&limit=100", "")
	h := api.Handler()
	f.Fuzz(func(t *testing.T, route byte, query, body string) {
		path := fuzzRoutes[int(route)%len(fuzzRoutes)]
		method := http.MethodGet
		var rd io.Reader
		if path == api.CheckPath {
			method, rd = http.MethodPost, strings.NewReader(body)
		}
		req := httptest.NewRequest(method, "http://x"+path, rd)
		req.URL.RawQuery = query // as sent: the handler reads the raw query
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		checkAnswer(t, path, query, w.Code, w.Body.String())
	})
}

// checkAnswer: never a 5xx; a refusal is one line of UTF-8 text that names what it refuses.
func checkAnswer(t *testing.T, path, query string, status int, body string) {
	t.Helper()
	switch {
	case status >= 500:
		t.Fatalf("%s?%.200q: %d %s", path, query, status, body)
	case status == http.StatusOK:
		return
	case status != http.StatusBadRequest && status != http.StatusRequestURITooLong && status != http.StatusRequestEntityTooLarge:
		t.Fatalf("%s?%.200q: status %d %s", path, query, status, body)
	}
	if !utf8.ValidString(body) || !strings.HasSuffix(body, "\n") || strings.Count(body, "\n") != 1 {
		t.Fatalf("%s?%.200q: %d: the message is not one line of UTF-8: %q", path, query, status, body)
	}
	if len(body) > maxRefusal {
		t.Fatalf("%s?%.200q: %d: a message of %d bytes (it quotes the input whole?): %.300q", path, query, status, len(body), body)
	}
	if !namesField(body) {
		t.Fatalf("%s?%.200q: %d: the message names no field: %q", path, query, status, body)
	}
}

// maxRefusal bounds a refusal's length: it quotes the input cut short (target.QuoteShort), and
// its longest lists (ten catalog names, every key) are under a kilobyte.
const maxRefusal = 1200

// namesField reports whether a refusal starts with what it is about: a field as the engine
// names it ("Label (name, key): "), or a route's own parameter or input ("limit: ", "query: ",
// "slices: ").
func namesField(msg string) bool {
	for i := range target.Fields {
		f := &target.Fields[i]
		if strings.HasPrefix(msg, f.Label+" ("+f.Name+", "+f.Key+"): ") || strings.HasPrefix(msg, f.Label+" ("+f.Name+"): ") {
			return true
		}
	}
	head, _, ok := strings.Cut(msg, ": ")
	if !ok {
		return false
	}
	switch head {
	case "query", "v", "q", "limit", "on", "target", "slices", "claims", "nodes", "pod", "body":
		return true
	}
	return false
}
