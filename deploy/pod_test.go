package deploy

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// flatHeader is the YAML's words with the comments' wrapping "#" left out, so a header line reads
// as one sentence.
func flatHeader(yaml string) string {
	return strings.Join(slices.DeleteFunc(strings.Fields(yaml), func(w string) bool { return w == "#" }), " ")
}

// trustRemoteCode (trc=1, --trust-remote-code) is off by default: vLLM then runs no Python a
// model repository ships. On, vLLM's arguments end their fit's part with --trust-remote-code and
// a header line says what it does; llama.cpp's server has no such flag (it reads the GGUF file)
// and the header says so instead.
func TestTrustRemoteCode(t *testing.T) {
	const link = "m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096&drv=nvidia"
	off := mustRender(t, link, with{})
	if slices.Contains(off.Args, "--trust-remote-code") || strings.Contains(off.YAML, "trust") {
		t.Errorf("off by default: args %q", off.Args)
	}
	on := mustRender(t, link+"&trc=1", with{})
	if n := slices.Index(on.Args, "--trust-remote-code"); n < 0 || slices.Contains(on.Args[n+1:], "--trust-remote-code") {
		t.Errorf("trc=1: args %q, want --trust-remote-code once", on.Args)
	}
	for _, want := range []string{"trust: --trust-remote-code, as asked: vLLM imports and runs the Python files the model's repository ships",
		"only for a repository you trust", `- "--trust-remote-code"`} {
		if !strings.Contains(flatHeader(on.YAML), want) {
			t.Errorf("trc=1: no %q in\n%s", want, on.YAML)
		}
	}
	if !on.Starts || on.Summary != off.Summary {
		t.Errorf("trc=1 changes the verdict: %q, was %q", on.Summary, off.Summary)
	}
	l := mustRender(t, link+"&trc=1", with{Engine: "llama.cpp"})
	if slices.ContainsFunc(l.Args, func(a string) bool { return strings.Contains(a, "trust") }) ||
		!strings.Contains(flatHeader(l.YAML), "trust: trustRemoteCode is vLLM's --trust-remote-code: llama.cpp reads the GGUF file and runs no code from the repository") {
		t.Errorf("llama.cpp with trc=1: args %q\n%s", l.Args, l.YAML)
	}
}

// cpuRequest and memoryRequest (cpu=, mem=; --cpu-request, --memory-request) are the container's
// resources.requests, written as given, with no limits; without them the pod is BestEffort and
// the header says what that means and that no figure is written for the user. A value that is no
// Kubernetes quantity above 0 is refused naming the field and what is allowed.
func TestRequests(t *testing.T) {
	const link = "m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=4096&drv=nvidia"
	for _, engine := range Engines() {
		none := mustRender(t, link, with{Engine: engine})
		if strings.Contains(none.YAML, "            requests:\n") ||
			!strings.Contains(flatHeader(none.YAML), "qos: BestEffort: no CPU or memory request, so the pod is the first its node evicts when short of memory") ||
			!strings.Contains(flatHeader(none.YAML), "set cpuRequest and memoryRequest (--cpu-request, --memory-request) for your nodes: no figure is written for you") {
			t.Errorf("%s, no requests:\n%s", engine, none.YAML)
		}
		both := mustRender(t, link+"&cpu=8&mem=64Gi", with{Engine: engine})
		if !strings.Contains(both.YAML, "          resources:\n            requests:\n              cpu: \"8\"\n              memory: \"64Gi\"\n            claims:\n              - name: gpus\n") ||
			!strings.Contains(flatHeader(both.YAML), "qos: Burstable: requests cpu 8 and memory 64Gi, as asked, and no limits") {
			t.Errorf("%s, cpu=8&mem=64Gi:\n%s", engine, both.YAML)
		}
		mem := mustRender(t, link+"&mem=1.5Ti", with{Engine: engine})
		if !strings.Contains(mem.YAML, "            requests:\n              memory: \"1.5Ti\"\n            claims:\n") ||
			!strings.Contains(flatHeader(mem.YAML), "qos: Burstable: requests memory 1.5Ti, as asked") {
			t.Errorf("%s, mem=1.5Ti:\n%s", engine, mem.YAML)
		}
	}
	for _, c := range []struct{ q, field, want string }{
		{"cpu=0", "cpuRequest", "CPU request (cpuRequest, cpu): must be more than 0 (leave it out for no request), a Kubernetes quantity such as 8, 500m or 64Gi"},
		{"mem=64GB", "memoryRequest", `Memory request (memoryRequest, mem): must be a Kubernetes quantity such as 8, 500m or 64Gi (digits, an optional fraction, then m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei or none; got "64GB")`},
		{"mem=" + strings.Repeat("9", 40), "memoryRequest", "Memory request (memoryRequest, mem): must be at most 32 characters (got 40)"},
	} {
		_, err := Render(mustTarget(t, link+"&"+c.q))
		fe, ok := errors.AsType[*target.FieldError](err)
		if !ok || fe.Field != c.field || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s's %q", c.q, err, c.field, c.want)
		}
	}
}
