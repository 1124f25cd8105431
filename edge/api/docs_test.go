package api_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// The API the documents describe is the API that answers. Every API link README.md and
// edge/README.md give as a command (curl, kubectl apply -f) is sent to the handler as written:
// it answers 200 (or the status its comment says, with the message the comment quotes), with
// the route's content type. The route tables name exactly the routes that answer, and the
// version route's keys are those edge/README.md lists.

var docFiles = []string{"../../README.md", "../README.md"}

// docCommand is an API link in a document's command, and what its comment says it answers.
type docCommand struct {
	file, line, target string
	status             int
	message            string
}

var (
	reDocLink    = regexp.MustCompile(`(?:curl -si?|kubectl apply -f) ['"](?:https?://[^/'"]+|\$API)(/api/v1/[^'"]*)['"](?:\s+#\s*([0-9]{3}): (.*))?`)
	reRouteRow   = regexp.MustCompile("^\\| `(?:(GET|POST) )?(/api/v1/[a-z.]+)[?`]")
	reNotFoundRt = regexp.MustCompile(`/api/v1/[a-z.]+`)
)

func docCommands(t *testing.T) []docCommand {
	t.Helper()
	var out []docCommand
	for _, f := range docFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			m := reDocLink.FindStringSubmatch(l)
			if m == nil || strings.Contains(m[1], "…") { // a placeholder ('https://…/api/v1/claim.yaml?m=…')
				continue
			}
			c := docCommand{file: f, line: strconv.Itoa(i + 1), target: m[1], status: 200}
			if m[2] != "" {
				c.status, _ = strconv.Atoi(m[2])
				c.message = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[3]), "…"))
			}
			out = append(out, c)
		}
	}
	return out
}

func TestDocumentedAPICommands(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	cmds := docCommands(t)
	if len(cmds) < 10 {
		t.Fatalf("only %d API commands found in %q", len(cmds), docFiles)
	}
	ctypes := map[string]string{"claim.yaml": api.TypeYAML, "deploy.yaml": api.TypeYAML, "claim.json": api.TypeJSON,
		"models": api.TypeJSON, "version": api.TypeJSON, "estimate.json": api.TypeJSON, "fitting.json": api.TypeJSON}
	for _, c := range cmds {
		route := strings.TrimPrefix(strings.SplitN(c.target, "?", 2)[0], api.Prefix)
		tc := tcase{name: c.file + ":" + c.line, target: c.target, status: c.status}
		if c.status == 200 {
			tc.ctype = ctypes[route]
		} else {
			tc.ctype, tc.contains = api.TypeText, c.message
		}
		t.Run(c.file+":"+c.line, func(t *testing.T) {
			a := get(t, client, srv.URL, tc)
			check(t, tc, a)
			if c.message != "" && !strings.HasPrefix(string(a.body), c.message) {
				t.Errorf("%s:%s says %d: %q; the API answers %q", c.file, c.line, c.status, c.message, a.body)
			}
		})
	}
}

// The route tables of README.md and edge/README.md name every route the API answers, and no other.
func TestDocumentedRoutes(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	// the routes the handler answers, as its 404 names them; each answers something other than 404
	nf := get(t, client, srv.URL, tcase{target: api.Prefix + "NOPE"})
	if nf.status != 404 {
		t.Fatalf("an unknown route answers %d", nf.status)
	}
	served := reNotFoundRt.FindAllString(string(nf.body), -1)
	sort.Strings(served)
	for _, r := range served {
		method := "GET"
		if r == api.CheckPath {
			method = "POST"
		}
		if a := get(t, client, srv.URL, tcase{method: method, target: r}); a.status == 404 {
			t.Errorf("%s: the 404 names it as a route but it answers 404", r)
		}
	}
	for _, f := range docFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var documented []string
		for _, l := range strings.Split(string(b), "\n") {
			if m := reRouteRow.FindStringSubmatch(l); m != nil && !slices.Contains(documented, m[2]) {
				documented = append(documented, m[2])
			}
		}
		sort.Strings(documented)
		if !slices.Equal(documented, served) {
			t.Errorf("%s's route table names %q; the API serves %q", f, documented, served)
		}
	}
}

// edge/README.md: `/api/v1/version` is `{"version", "release", "catalogDate", "formatVersion", "api"}`,
// and `limit` of the models route is 1–100, default 20.
func TestDocumentedVersionAndLimit(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("\\| `/api/v1/version` \\| `\\{(.*)\\}` \\|").FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("edge/README.md's route table has no version row listing its keys")
	}
	var want []string
	for _, k := range strings.Split(m[1], ",") {
		want = append(want, strings.Trim(strings.TrimSpace(k), `"`))
	}
	var got map[string]any
	if err := json.Unmarshal(get(t, client, srv.URL, tcase{target: api.Prefix + "version"}).body, &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sort.Strings(want)
	if !slices.Equal(keys, want) {
		t.Errorf("version keys %q; edge/README.md says %q", keys, want)
	}
	var found []any
	if err := json.Unmarshal(get(t, client, srv.URL, tcase{target: api.Prefix + "models?q=a"}).body, &found); err != nil || len(found) != 20 {
		t.Errorf("models?q=a without a limit: %d models (%v), the default is 20", len(found), err)
	}
	for _, q := range []string{"0", "101", "1.5"} {
		if a := get(t, client, srv.URL, tcase{target: api.Prefix + "models?q=a&limit=" + q}); a.status != 400 || !strings.Contains(string(a.body), "limit") {
			t.Errorf("limit=%s: %d %q, want 400 naming limit", q, a.status, a.body)
		}
	}
	for _, q := range []string{"1", "100"} {
		if a := get(t, client, srv.URL, tcase{target: api.Prefix + "models?q=a&limit=" + q}); a.status != 200 {
			t.Errorf("limit=%s: %d %q", q, a.status, a.body)
		}
	}
}

// The answers' shapes the route tables give (`[{name, paramsB, …}]`) are the answers' keys.
func TestDocumentedShapes(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	examples := map[string]string{
		"/api/v1/models":       "/api/v1/models?q=llama&limit=3",
		"/api/v1/fitting.json": "/api/v1/fitting.json?on=nvidia-rtx-4090&limit=3",
	}
	reShape := regexp.MustCompile("`\\[\\{([a-zA-Z, ]+)\\}\\]`")
	checked := 0
	for _, f := range docFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			row, shape := reRouteRow.FindStringSubmatch(l), reShape.FindStringSubmatch(l)
			if row == nil || shape == nil {
				continue
			}
			ex, ok := examples[row[2]]
			if !ok {
				t.Errorf("%s: no example request for %s", f, row[2])
				continue
			}
			var items []map[string]any
			if err := json.Unmarshal(get(t, client, srv.URL, tcase{target: ex}).body, &items); err != nil || len(items) == 0 {
				t.Fatalf("%s: %v (%d items)", ex, err, len(items))
			}
			var want []string
			for _, k := range strings.Split(shape[1], ",") {
				want = append(want, strings.TrimSpace(k))
			}
			sort.Strings(want)
			for _, it := range items {
				var keys []string
				for k := range it {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				if !slices.Equal(keys, want) {
					t.Errorf("%s says %s answers %q; it answers %q", f, row[2], want, keys)
					break
				}
			}
			checked++
		}
	}
	if checked < 3 {
		t.Errorf("only %d shapes checked", checked)
	}
}

// edge/README.md: POST /api/v1/check answers any OPTIONS with 204, `POST` and `Content-Type`
// (a script's POST of YAML is preflighted), and another method with 405.
func TestDocumentedCheckPreflight(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	client := newClient()
	a := get(t, client, srv.URL, tcase{method: "OPTIONS", target: api.CheckPath})
	h := a.header
	if a.status != 204 || h.Get("Access-Control-Allow-Methods") != "POST" || h.Get("Access-Control-Allow-Headers") != "Content-Type" ||
		h.Get("Access-Control-Max-Age") != "86400" || h.Get("Access-Control-Allow-Origin") != "*" || len(a.body) != 0 {
		t.Errorf("OPTIONS %s: %d %v %q", api.CheckPath, a.status, h, a.body)
	}
	if a := get(t, client, srv.URL, tcase{target: api.CheckPath}); a.status != 405 || a.header.Get("Allow") != "POST, OPTIONS" {
		t.Errorf("GET %s: %d, Allow %q", api.CheckPath, a.status, a.header.Get("Allow"))
	}
}

// The route tables name the keys each route takes beside a target's: the deploy route the
// engine and every key only the Deployment reads (the field table's Deploy column), the hardware
// routes every device key, the fitting route its count and limit. edge/README.md's deploy row
// named `engine`, `image` (README.md's also trc, cpu, mem), and neither fitting row the device's
// memory, bandwidth, family or unified, which it takes.
func TestDocumentedRouteKeys(t *testing.T) {
	deployKeys := []string{"engine"}
	for i := range target.Fields {
		if f := &target.Fields[i]; f.Deploy {
			deployKeys = append(deployKeys, f.Key)
		}
	}
	want := map[string][]string{
		"deploy.yaml":   deployKeys,
		"estimate.json": estimate.DeviceKeys,
		"fitting.json":  append(slices.Clone(estimate.DeviceKeys), "n", "limit"),
		"models":        {"q", "limit"},
	}
	for _, f := range docFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rows := map[string]string{}
		for _, l := range strings.Split(string(b), "\n") {
			if m := reRouteRow.FindStringSubmatch(l); m != nil {
				rows[strings.TrimPrefix(m[2], api.Prefix)] = l
			}
		}
		for route, keys := range want {
			row, ok := rows[route]
			if !ok {
				t.Errorf("%s has no row for %s", f, route)
				continue
			}
			for _, k := range keys {
				if !strings.Contains(row, "`"+k+"`") && !regexp.MustCompile(`[?&]`+regexp.QuoteMeta(k)+`=`).MatchString(row) {
					t.Errorf("%s: the %s row does not name the key %s:\n%s", f, route, k, row)
				}
			}
		}
	}
	// fitting.json's limit as the rows say: 1–100, default 20.
	var found []any
	if rec := serveOne("GET", api.Prefix+"fitting.json?on=nvidia-h100-sxm", "", nil); json.Unmarshal(rec.Body.Bytes(), &found) != nil || len(found) != 20 {
		t.Errorf("fitting.json without a limit: %d models, the rows say 20", len(found))
	}
	if rec := serveOne("GET", api.Prefix+"fitting.json?on=nvidia-h100-sxm&limit=101", "", nil); rec.Code != 400 {
		t.Errorf("fitting.json?limit=101: %d, the rows say 1–100", rec.Code)
	}
}
