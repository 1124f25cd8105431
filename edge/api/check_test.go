package api_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/internal/busytest"
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
		{"too big", "POST", "p=7", strings.Repeat("#", cluster.MaxInput+1), 413, "slices: the body is over 5242880 bytes (5 MiB); the command line's fitclaim check reads up to 32 MiB"},
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

// multipartBody writes parts (name, content pairs) as a multipart/form-data body, as
// curl -F name=@file sends it.
func multipartBody(t *testing.T, parts ...string) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := 0; i+1 < len(parts); i += 2 {
		fw, err := w.CreateFormFile(parts[i], parts[i]+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(parts[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), &b
}

// POST /api/v1/check with a multipart body: the claims part's allocated devices are not free,
// the answer is the engine's report for the same target, slices and claims.
func TestCheckRouteClaims(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	tg, slices, claims, want := busytest.Check(t, "p=70&drv=nvidia&n=3")
	ct, body := multipartBody(t, "slices", string(slices), "claims", string(claims))
	status, _, got := post(t, srv.URL+"/api/v1/check?p=70&drv=nvidia&n=3", ct, body)
	// node-g's four H100s, two held by ml/train-0: three do not fit.
	if status != 200 || got != want.JSON() || want.Allocatable || !strings.Contains(got, `"allocatedTo": "ml/train-0"`) {
		t.Fatalf("%d\n%s\nwant:\n%s", status, got, want.JSON())
	}
	// The slices part alone is the plain body's answer.
	free, err := cluster.CheckTarget(tg, slices)
	if err != nil {
		t.Fatal(err)
	}
	ct, body = multipartBody(t, "slices", string(slices))
	if status, _, got := post(t, srv.URL+"/api/v1/check?p=70&drv=nvidia&n=3", ct, body); status != 200 || got != free.JSON() || !free.Allocatable {
		t.Fatalf("slices part only: %d\n%s", status, got)
	}
	cases := []struct {
		name   string
		parts  []string
		status int
		msg    string
	}{
		{"claims not claims", []string{"slices", string(slices), "claims", string(slices)}, 400, `claims: items[0]: kind: "ResourceSlice"; want ResourceClaim`},
		{"empty claims", []string{"slices", string(slices), "claims", ""}, 400, "claims: empty"},
		{"no slices part", []string{"claims", string(claims)}, 400, "slices: missing: the multipart body needs a part named slices"},
		{"other part", []string{"slices", string(slices), "pods", "x"}, 400, `body: part "pods": want slices, claims, nodes or pod`},
		{"nodes not nodes", []string{"slices", string(slices), "nodes", string(slices)}, 400, `nodes: items[0]: kind: "ResourceSlice"; want Node (kubectl get nodes -o yaml)`},
		{"empty nodes", []string{"slices", string(slices), "nodes", ""}, 400, "nodes: empty"},
		{"nodes twice", []string{"slices", string(slices), "nodes", "", "nodes", "x"}, 400, "body: part nodes given twice; give each of slices, claims, nodes and pod once"},
		{"slices twice", []string{"slices", string(slices), "claims", string(claims), "slices", string(slices)}, 400, "body: part slices given twice; give each of slices, claims, nodes and pod once"},
		{"nodes too big", []string{"slices", string(slices), "nodes", strings.Repeat("#", cluster.MaxInput+1)}, 413, "nodes: the part is over 5242880 bytes (5 MiB); the command line's fitclaim check reads up to 32 MiB"},
		{"pod not a pod", []string{"slices", string(slices), "pod", string(slices)}, 400, "pod: no pod spec in the input (it has a ResourceSlice): paste the workload"},
		{"empty pod", []string{"slices", string(slices), "pod", ""}, 400, "pod: empty: paste the output of fitclaim deploy"},
		{"pod twice", []string{"slices", string(slices), "pod", "containers: []", "pod", "containers: []"}, 400, "body: part pod given twice; give each of slices, claims, nodes and pod once"},
		{"pod too big", []string{"slices", string(slices), "pod", strings.Repeat("#", cluster.MaxInput+1)}, 413, "pod: the part is over 5242880 bytes (5 MiB)"},
		{"bad toleration", []string{"slices", string(slices), "pod", "tolerations: [{key: k, operator: Near}]"}, 400, `pod: the pod spec: tolerations[0].operator: "Near"; want Equal or Exists`},
		{"claims too big", []string{"slices", string(slices), "claims", strings.Repeat("#", cluster.MaxInput+1)}, 413, "claims: the part is over 5242880 bytes (5 MiB)"},
	}
	for _, c := range cases {
		ct, body := multipartBody(t, c.parts...)
		status, _, got := post(t, srv.URL+"/api/v1/check?p=7", ct, body)
		if status != c.status || !strings.HasPrefix(got, c.msg) {
			t.Errorf("%s: %d %q; want %d %q", c.name, status, got, c.status, c.msg)
		}
	}
}

// POST /api/v1/check with a nodes part: zones.yaml's node selectors resolve to zones-nodes.yaml's
// nodes (four devices on node gpu-a; without the nodes the most is three), the answer is the
// engine's report for the same target, slices and nodes.
func TestCheckRouteNodes(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	slices, err := os.ReadFile("../../cluster/testdata/zones.yaml")
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := os.ReadFile("../../cluster/testdata/zones-nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := target.ParsePermalink("p=7&drv=llmfit&n=4")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	ct, body := multipartBody(t, "slices", string(slices), "nodes", string(nodes))
	status, _, got := post(t, srv.URL+"/api/v1/check?p=7&drv=llmfit&n=4", ct, body)
	if status != 200 || got != want.JSON() || !want.Allocatable || !strings.Contains(got, `"nodes": [`) {
		t.Fatalf("%d\n%s\nwant:\n%s", status, got, want.JSON())
	}
	ct, body = multipartBody(t, "slices", string(slices))
	if status, _, got := post(t, srv.URL+"/api/v1/check?p=7&drv=llmfit&n=4", ct, body); status != 200 || !strings.HasPrefix(got, `{
  "allocatable": false`) {
		t.Fatalf("without nodes: %d\n%s", status, got)
	}
	// With the pod part: zones-pod.yaml's pod can go only to gpu-a, where the four fit; gpu-b's
	// p1 is then on no node it can use. The answer is the engine's for the same four inputs.
	pod, err := os.ReadFile("../../cluster/testdata/zones-pod.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err = cluster.CheckTargetInputs(tg, cluster.Inputs{Slices: slices, Nodes: nodes, Pod: pod})
	if err != nil {
		t.Fatal(err)
	}
	ct, body = multipartBody(t, "slices", string(slices), "nodes", string(nodes), "pod", string(pod))
	status, _, got = post(t, srv.URL+"/api/v1/check?p=7&drv=llmfit&n=4", ct, body)
	if status != 200 || got != want.JSON() || !want.Allocatable || !strings.Contains(got, "on no node the pod can be scheduled to: its node selector selects only gpu-b") {
		t.Fatalf("with the pod: %d\n%s\nwant:\n%s", status, got, want.JSON())
	}
}

// POST /api/v1/check with the drivers' own layouts and kubectl's noise (real-fleet.yaml) and
// DeviceTaintRules after them: the engine's report, byte for byte, as fitclaim check --json
// prints it — the rule under maintenance keeps the seven-GPU claim off every node.
func TestCheckRouteRealFleetAndTaintRules(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	var in []byte
	for _, f := range []string{"real-fleet.yaml", "devicetaintrules.yaml"} {
		b, err := os.ReadFile("../../cluster/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		in = append(append(in, b...), "\n---\n"...)
	}
	q := "p=70&q=Q4_K_M&drv=nvidia&n=7"
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTarget(tg, in)
	if err != nil {
		t.Fatal(err)
	}
	status, _, got := post(t, srv.URL+"/api/v1/check?"+q, "application/yaml", bytes.NewReader(in))
	if status != 200 || got != want.JSON() || want.Allocatable || !strings.Contains(got, "DeviceTaintRule gpu-2-maintenance") {
		t.Fatalf("%d\n%s\nwant:\n%s", status, got, want.JSON())
	}
}

// POST /api/v1/check sends the report's notes, which `fitclaim check --json` prints on stderr as
// "fitclaim: note: …" and its JSON leaves out, as Warning headers (sixteenth session), in their
// order, `299 - "…"` as the other routes' warnings, readable by a script on another origin.
func TestCheckRouteNotesAsWarnings(t *testing.T) {
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	data, err := os.ReadFile("../../cluster/testdata/amd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const q = "m=Qwen%2FQwen3-8B&drv=amd"
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTarget(tg, data)
	if err != nil {
		t.Fatal(err)
	}
	status, h, body := post(t, srv.URL+"/api/v1/check?"+q, "application/yaml", bytes.NewReader(data))
	if status != 200 || body != want.JSON() {
		t.Fatalf("%d\n%s\nwant\n%s", status, body, want.JSON())
	}
	got := warningTexts(t, h)
	if len(want.Notes) != 2 || strings.Join(got, "\n") != strings.Join(want.Notes, "\n") {
		t.Errorf("Warning headers say\n%q\nwant the report's notes\n%q", got, want.Notes)
	}
	if !strings.Contains(h.Get("Access-Control-Expose-Headers"), "Warning") {
		t.Errorf("Access-Control-Expose-Headers %q: a script cannot read the notes", h.Get("Access-Control-Expose-Headers"))
	}
}
