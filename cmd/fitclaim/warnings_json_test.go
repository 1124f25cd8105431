package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// `claim --json` in the KV-aware mode carries the warnings it prints on stderr as the JSON's
// "warnings" array (sixteenth session), the same bytes as GET /api/v1/claim.json; llmfit mode's
// JSON (llmfit's keys) does not, and still warns on stderr.
func TestClaimJSONCarriesWarnings(t *testing.T) {
	for _, c := range []struct {
		args []string
		key  bool
	}{
		{[]string{"claim", "Qwen/Qwen3-8B", "--min-tps", "30", "--sizing", "kv", "--context", "200000", "--engine", "vllm", "--json"}, true},
		{[]string{"claim", "Qwen/Qwen2.5-7B-Instruct", "--json"}, false},
	} {
		stdout, stderr, code := runCLI(c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		var printed []string
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if w, ok := strings.CutPrefix(line, "fitclaim: warning: "); ok {
				printed = append(printed, w)
			}
		}
		if len(printed) == 0 {
			t.Fatalf("%v: no warning on stderr: %q", c.args, stderr)
		}
		var body struct {
			Warnings *[]string `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(stdout), &body); err != nil {
			t.Fatal(err)
		}
		if (body.Warnings != nil) != c.key || c.key && !reflect.DeepEqual(*body.Warnings, printed) {
			t.Errorf("%v: JSON warnings %v, stderr's %q (want them in the JSON: %v)", c.args, body.Warnings, printed, c.key)
		}
	}
}
