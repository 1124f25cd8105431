package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/target"
)

// parseWarning reads a Warning header value as client-go's net.ParseWarningHeader does: a
// three-digit code, an agent, a quoted-string (a '\' takes the next byte as it is). ok is false
// for anything else, or for a byte that is not printable ASCII.
func parseWarning(v string) (code, agent, text string, ok bool) {
	for i := 0; i < len(v); i++ {
		if v[i] < ' ' || v[i] > '~' {
			return "", "", "", false
		}
	}
	code, rest, ok1 := strings.Cut(v, " ")
	agent, quoted, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return "", "", "", false
	}
	var b strings.Builder
	body := quoted[1 : len(quoted)-1]
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			if i+1 == len(body) {
				return "", "", "", false
			}
			i++
			b.WriteByte(body[i])
		case '"':
			return "", "", "", false // an unescaped quote ends the string early
		default:
			b.WriteByte(body[i])
		}
	}
	return code, agent, b.String(), true
}

// warningTexts are an answer's Warning headers read back (parseWarning), each checked to be
// `299 - "…"`.
func warningTexts(t *testing.T, h http.Header) []string {
	t.Helper()
	var out []string
	for _, v := range h.Values("Warning") {
		code, agent, text, ok := parseWarning(v)
		if !ok || code != "299" || agent != "-" {
			t.Errorf("Warning %q is not 299 - \"text\" in printable ASCII", v)
		}
		out = append(out, text)
	}
	return out
}

// The brief's example: vLLM refuses a context above the model's. `fitclaim claim` prints the
// warning on stderr; the API's claim.yaml, claim.json and deploy.yaml answered 200 without a
// word of it. Each now carries the CLI's words in a Warning header, HEAD and a 304 as GET's 200.
func TestWarningVLLMRefusedContext(t *testing.T) {
	const q = "m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm"
	const want = "vLLM refuses --max-model-len 200000, above the model's 40960 tokens (max_position_embeddings in its config.json): " +
		"set context to at most 40960 (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 overrides it only where the model card extends the context, e.g. with YaRN RoPE scaling)"
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := claim.Render(tg) // what `fitclaim claim` prints after "fitclaim: warning: "
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cli.Warnings, []string{want}) {
		t.Fatalf("the claim's warnings %q, want %q", cli.Warnings, want)
	}
	d, err := deploy.Render(tg) // `fitclaim deploy`'s: the claim's, then the problems
	if err != nil {
		t.Fatal(err)
	}
	wantDeploy := d.Warnings()
	if len(wantDeploy) < 2 || wantDeploy[0] != want {
		t.Fatalf("deploy's warnings %q: want the claim's first and a problem", wantDeploy)
	}
	for route, words := range map[string][]string{"claim.yaml": cli.Warnings, "claim.json": cli.Warnings, "deploy.yaml": wantDeploy} {
		path := api.Prefix + route + "?" + q
		get := serveOne("GET", path, "", nil)
		if get.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", route, get.Code, get.Body)
		}
		if got := warningTexts(t, get.Header()); !reflect.DeepEqual(got, words) {
			t.Errorf("%s: Warning headers say\n%q\nwant the command line's\n%q", route, got, words)
		}
		if got := get.Header().Get("Access-Control-Expose-Headers"); !strings.Contains(got, "Warning") {
			t.Errorf("%s: Access-Control-Expose-Headers %q: a script cannot read the warnings", route, got)
		}
		head := serveOne("HEAD", path, "", nil)
		if !reflect.DeepEqual(head.Header()["Warning"], get.Header()["Warning"]) {
			t.Errorf("%s: HEAD's Warning %q, GET's %q", route, head.Header()["Warning"], get.Header()["Warning"])
		}
		again := serveOne("GET", path, "", map[string]string{"If-None-Match": get.Header().Get("ETag")})
		if again.Code != http.StatusNotModified || !reflect.DeepEqual(again.Header()["Warning"], get.Header()["Warning"]) {
			t.Errorf("%s: revalidated %d with Warning %q, want 304 with GET's %q", route, again.Code, again.Header()["Warning"], get.Header()["Warning"])
		}
	}
}

// claim.json in the KV-aware mode carries the warnings in its body too, as `claim --json` does
// (the same bytes): a "warnings" array of the command line's words, UTF-8 as written; absent
// when there are none. llmfit mode's JSON, llmfit's keys, has no such key: its warnings are in
// the headers only.
func TestWarningJSONField(t *testing.T) {
	for _, c := range []struct {
		query string
		key   bool // the JSON has "warnings"
	}{
		{"m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm", true},
		{"m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=amd", true},                     // "3 × AMD Instinct MI350X would"
		{"m=mistralai%2FMistral-7B-Instruct-v0.3&s=kv&ctx=32768&seq=4", false}, // no warnings
		{"m=Qwen%2FQwen2.5-7B-Instruct", false},                                // llmfit mode: warned, but llmfit's keys
		{"m=Qwen%2FQwen2.5-7B-Instruct&drv=amd&n=2", false},
	} {
		tg, err := target.ParsePermalink(c.query)
		if err != nil {
			t.Fatal(err)
		}
		cli, err := claim.Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		rec := serveOne("GET", api.Prefix+"claim.json?"+c.query, "", nil)
		if rec.Code != http.StatusOK || rec.Body.String() != cli.JSON+"\n" {
			t.Fatalf("%s: %d, the body is not `claim --json`'s bytes", c.query, rec.Code)
		}
		var body struct {
			Warnings *[]string `json:"warnings"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		switch {
		case (body.Warnings != nil) != c.key:
			t.Errorf("%s: JSON warnings %v, want the key: %v", c.query, body.Warnings, c.key)
		case c.key && !reflect.DeepEqual(*body.Warnings, cli.Warnings):
			t.Errorf("%s: JSON warnings %q, the command line's %q", c.query, *body.Warnings, cli.Warnings)
		}
		if got := len(rec.Header().Values("Warning")); got != len(cli.Warnings) {
			t.Errorf("%s: %d Warning headers for %d warnings", c.query, got, len(cli.Warnings))
		}
	}
}

// A target without warnings, and the routes that have none, send no Warning header.
func TestWarningNoneWithoutWarnings(t *testing.T) {
	const q = "m=mistralai%2FMistral-7B-Instruct-v0.3&s=kv&ctx=32768&seq=4"
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := claim.Render(tg); err != nil || len(r.Warnings) != 0 {
		t.Fatalf("the target has warnings %q (%v): choose one without", r.Warnings, err)
	}
	for _, path := range []string{
		api.Prefix + "claim.yaml?" + q, api.Prefix + "claim.json?" + q,
		api.Prefix + "models?q=llama", api.Prefix + "version",
		api.Prefix + "estimate.json?m=meta-llama%2FLlama-3.1-8B-Instruct&on=nvidia-rtx-4090",
		api.Prefix + "fitting.json?on=nvidia-rtx-4090&limit=3",
		api.Prefix + "claim.yaml?tps=fast", // 400
	} {
		rec := serveOne("GET", path, "", nil)
		if v, ok := rec.Header()["Warning"]; ok {
			t.Errorf("%s: %d with Warning %q", path, rec.Code, v)
		}
	}
}

// The header is ASCII: a quote in a warning is escaped, and a symbol outside ASCII is written in
// ASCII. DeepSeek-R1 fits no single AMD board: the proposal reads "3 × AMD Instinct MI350X
// would" on the command line and "3 x …" in the header. "qwen3-8b" names two catalog models:
// the warning quotes the name. Both pass through a real HTTP server and client unchanged.
func TestWarningHeaderEscaped(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	for _, c := range []struct{ query, cli, header string }{
		{"m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=amd",
			"no accelerator in the catalog meets these floors with 1 device; 3 × AMD Instinct MI350X would (set count to 3)",
			`299 - "no accelerator in the catalog meets these floors with 1 device; 3 x AMD Instinct MI350X would (set count to 3)"`},
		{"m=qwen3-8b&s=kv&ctx=8192",
			`model "qwen3-8b" is the name of 2 catalog models; took Qwen/Qwen3-8B, the most downloaded (also unsloth/Qwen3-8B); give the full name for another`,
			`299 - "model \"qwen3-8b\" is the name of 2 catalog models; took Qwen/Qwen3-8B, the most downloaded (also unsloth/Qwen3-8B); give the full name for another"`},
	} {
		tg, err := target.ParsePermalink(c.query)
		if err != nil {
			t.Fatal(err)
		}
		r, err := claim.Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		i := -1
		for j, w := range r.Warnings {
			if w == c.cli {
				i = j
			}
		}
		if i < 0 {
			t.Fatalf("%s: the command line's warnings %q lack %q", c.query, r.Warnings, c.cli)
		}
		for _, route := range []string{"claim.yaml", "claim.json"} {
			res, err := http.Get(srv.URL + api.Prefix + route + "?" + c.query)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			got := res.Header.Values("Warning")
			if res.StatusCode != http.StatusOK || len(got) != len(r.Warnings) || got[i] != c.header {
				t.Errorf("%s %s: %d, Warning %q; want %d of them, the %dth %q", route, c.query, res.StatusCode, got, len(r.Warnings), i+1, c.header)
			}
			warningTexts(t, res.Header)
		}
	}
}

// `kubectl apply -f <claim.yaml URL>` reads no Warning header (sixteenth session): the KV-aware
// claim.yaml's body says each warning in its header, a "warning: " entry before apiVersion, the
// same bytes as `fitclaim claim` prints; deploy.yaml's claim document says it the same way.
// llmfit sizing's claim.yaml, llmfit's bytes, says none (its warning is in the header only).
func TestWarningInYAMLBody(t *testing.T) {
	const q = "m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm"
	const entry = "# warning: vLLM refuses --max-model-len 200000, above the model's 40960 tokens\n" +
		"#         (max_position_embeddings in its config.json): set context to at most\n" +
		"#         40960 (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 overrides it only where the\n" +
		"#         model card extends the context, e.g. with YaRN RoPE scaling)\n" +
		"apiVersion: resource.k8s.io/v1\n"
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{"claim.yaml", "deploy.yaml"} {
		get := serveOne("GET", api.Prefix+route+"?"+q, "", nil)
		body := get.Body.String()
		if get.Code != http.StatusOK || !strings.Contains(body, entry) {
			t.Errorf("%s: %d, the body does not say the warning:\n%s", route, get.Code, body)
		}
		if route == "claim.yaml" && body != cli.YAML {
			t.Errorf("claim.yaml differs from the command line's YAML")
		}
	}
	get := serveOne("GET", api.Prefix+"claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct", "", nil)
	if len(warningTexts(t, get.Header())) == 0 || strings.Contains(get.Body.String(), "# warning:") {
		t.Errorf("llmfit sizing's claim.yaml: Warning %q; body\n%s", get.Header()["Warning"], get.Body.String())
	}
}
