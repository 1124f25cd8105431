package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// One rule for a 0 (target's TestZeroIsTheTableRule): `--FLAG 0` prints the bytes of the command
// without it where the table's 0 means absent, and exits 1 naming the flag and its range
// elsewhere, in claim, deploy and estimate. Flags a command does not take are skipped.
func TestZeroIsTheTableRuleCLI(t *testing.T) {
	for _, base := range [][]string{
		{"claim", "Qwen/Qwen3-8B", "--sizing", "kv", "--driver", "nvidia"},
		{"claim", "--params", "70", "--layers", "80", "--kv-heads", "8", "--head-dim", "128", "--sizing", "kv", "--json"},
		{"deploy", "Qwen/Qwen3-8B", "--sizing", "kv", "--engine", "vllm"},
		{"estimate", "Qwen/Qwen3-8B", "--memory", "24", "--bandwidth", "900", "--family", "nvidia", "--json"},
	} {
		out0, err0, code0 := runCLI(base...)
		if code0 != 0 {
			t.Fatalf("%v: exit %d: %s", base, code0, err0)
		}
		for i := range target.Fields {
			f := &target.Fields[i]
			if k := f.Kind(); (k != target.KindNumber && k != target.KindInteger) || f.Flag == "" || slices.Contains(base, "--"+f.Flag) {
				continue
			}
			out, errOut, code := runCLI(append(slices.Clone(base), "--"+f.Flag, "0")...)
			if strings.Contains(errOut, "unknown flag") || strings.Contains(errOut, ": only fitclaim ") { // a flag this command does not read
				continue
			}
			if f.ZeroMeansDerived() {
				if code != 0 || out != out0 || errOut != err0 {
					t.Errorf("%v --%s 0: exit %d (%s), not the bytes without it", base, f.Flag, code, errOut)
				}
			} else if code != 1 || !strings.Contains(errOut, f.Label+" (--"+f.Flag+")") || !strings.Contains(errOut, f.Allowed()) {
				t.Errorf("%v --%s 0: exit %d, %q; want 1 naming the flag and its range", base, f.Flag, code, errOut)
			}
		}
	}
}
