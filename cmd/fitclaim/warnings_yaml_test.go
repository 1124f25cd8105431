package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/edge/api"
)

// `kubectl apply -f <API URL>` reads no Warning header and a reviewer of the committed YAML
// reads no stderr (sixteenth session): every warning `claim` and `deploy` print on stderr is in
// the YAML they print, the same bytes as the API's claim.yaml and deploy.yaml. The KV-aware
// claim's header ends with each as a "warning: " entry; llmfit sizing's claim is llmfit's bytes
// and says none, and `deploy` then says the claim's in its own header, as "WARNING: " as it says
// its problems.
func TestYAMLCarriesWarnings(t *testing.T) {
	const vllmRefused = "m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm"
	kvArgs := []string{"Qwen/Qwen3-8B", "--min-tps", "30", "--sizing", "kv", "--context", "200000", "--engine", "vllm"}
	for _, c := range []struct {
		args    []string
		route   string
		inClaim bool // the claim's warnings are "warning: " entries of the claim's header
	}{
		{append([]string{"claim"}, kvArgs...), "claim.yaml?" + vllmRefused, true},
		{append([]string{"deploy"}, kvArgs...), "deploy.yaml?" + vllmRefused, true},
		{[]string{"claim", "Qwen/Qwen2.5-7B-Instruct"}, "claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct", false},
		{[]string{"deploy", "Qwen/Qwen2.5-7B-Instruct"}, "deploy.yaml?m=Qwen%2FQwen2.5-7B-Instruct", false},
	} {
		stdout, stderr, code := runCLI(c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		w := httptest.NewRecorder()
		api.Handler().ServeHTTP(w, httptest.NewRequest("GET", api.Prefix+c.route, nil))
		if w.Code != 200 || w.Body.String() != stdout {
			t.Errorf("%v: the API's %s (%d) differs from the command line's YAML", c.args, c.route, w.Code)
		}
		// The claim's warnings come first on stderr, then (deploy) its summary and its problems.
		var claimWarnings, problems []string
		summary := false
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			text, ok := strings.CutPrefix(line, "fitclaim: warning: ")
			switch {
			case !ok:
				summary = true
			case summary:
				problems = append(problems, text)
			default:
				claimWarnings = append(claimWarnings, text)
			}
		}
		if len(claimWarnings) == 0 {
			t.Fatalf("%v: no warning on stderr: %q", c.args, stderr)
		}
		claimPart, deployPart, _ := strings.Cut(stdout, "\n---\n")
		for _, text := range claimWarnings {
			entry := comment("warning: " + text)
			if got := strings.Contains(claimPart, entry); got != c.inClaim {
				t.Errorf("%v: the claim's header has %q: %v, want %v:\n%s", c.args, entry, got, c.inClaim, stdout)
			}
			if !c.inClaim && strings.HasPrefix(c.args[0], "deploy") && !strings.Contains(deployPart, comment("WARNING: "+text)) {
				t.Errorf("%v: the Deployment's header lacks the claim's warning %q:\n%s", c.args, text, deployPart)
			}
		}
		if !c.inClaim && strings.Contains(claimPart, "# warning:") {
			t.Errorf("%v: llmfit sizing's claim says a warning:\n%s", c.args, claimPart)
		}
		for _, text := range problems {
			if !strings.Contains(deployPart, comment("WARNING: "+text)) {
				t.Errorf("%v: the Deployment's header lacks the problem %q:\n%s", c.args, text, deployPart)
			}
		}
	}
}

// comment is line as the headers write it (claim.WriteComment).
func comment(line string) string {
	var b strings.Builder
	claim.WriteComment(&b, line)
	return b.String()
}
