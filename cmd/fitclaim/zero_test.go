package main

import (
	"strings"
	"testing"
)

// `--context 0` is the model's own context, as leaving the flag out is (the field table's
// ZeroOK): the same bytes, and the help says so beside the range 1–16777216 it shows. A given
// 0 for a field whose 0 only means "not given" (--efficiency) is refused instead.
func TestZeroMeansTheDerivedValue(t *testing.T) {
	base := []string{"claim", "Qwen/Qwen3-8B", "--sizing", "kv", "--driver", "nvidia"}
	absent, errOut, code := runCLI(base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	zero, errOut, code := runCLI(append(base, "--context", "0")...)
	if code != 0 || zero != absent {
		t.Fatalf("--context 0: exit %d (%s), same bytes as no --context: %v", code, errOut, zero == absent)
	}
	short, _, code := runCLI(append(base, "--context", "4096")...)
	if code != 0 || short == absent {
		t.Fatalf("--context 4096: exit %d; it must differ from the model's own context", code)
	}
	const line = "--context N          kv: context tokens per sequence: 1–16777216 tokens (absent or 0: the model's, capped as llmfit caps it)"
	if !strings.Contains(usage(), line) {
		t.Errorf("the help does not say what --context 0 means; want the line %q", line)
	}
	if _, errOut, code := runCLI("claim", "Qwen/Qwen3-8B", "--efficiency", "0"); code == 0 || !strings.Contains(errOut, "Bandwidth efficiency (--efficiency)") {
		t.Errorf("--efficiency 0: exit %d, %q; want it refused naming the field", code, errOut)
	}
}
