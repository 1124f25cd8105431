package main

import (
	"os"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/target"
)

const fixture = "../../cluster/testdata/two-nodes.yaml"

// check --json prints exactly the engine's report for the same target and slices.
func TestCheckMatchesEngine(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	target, err := target.ParsePermalink("p=7&drv=nvidia&n=2")
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.CheckTarget(target, data)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI("check", "--slices", fixture, "--params", "7", "--driver", "nvidia", "--count=2", "--json")
	// Two nodes with one L40S each: two devices on one node are not there, exit 3.
	if code != exitNotAllocatable || out != want.JSON() || want.Allocatable {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", code, out, want.JSON())
	}
	stdin = strings.NewReader(string(data))
	defer func() { stdin = os.Stdin }()
	out, _, code = runCLI("check", "--permalink", "#p=7&drv=nvidia", "--slices=-")
	if code != 0 || !strings.Contains(out, "node-e     gpu.nvidia.com   node-e  gpu-0   yes    model\n") ||
		!strings.Contains(out, "allocatable on node node-e: model gets gpu-0\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestCheckErrors(t *testing.T) {
	cases := []struct {
		args []string
		in   string
		code int
		msg  string
	}{
		{[]string{"check", "--params", "7"}, "", exitUsage, "fitclaim check: --slices FILE is required"},
		{[]string{"check", "--params", "7", "--slices"}, "", exitUsage, "fitclaim check: --slices needs a file"},
		{[]string{"check", "--params", "7", "--slices", "-"}, "kind: Pod\n", exitError, `fitclaim check: slices: the input: kind: "Pod"`},
		{[]string{"check", "--params", "-1", "--slices", "-"}, "kind: List\n", exitError, "fitclaim check: Parameters (paramsB, p): must be"},
		{[]string{"check", "--params", "7", "--slices", "/nonexistent/slices.yaml"}, "", exitError, "fitclaim check: open /nonexistent/slices.yaml"},
	}
	defer func() { stdin = os.Stdin }()
	for _, c := range cases {
		stdin = strings.NewReader(c.in)
		_, errOut, code := runCLI(c.args...)
		if code != c.code || !strings.HasPrefix(errOut, c.msg) {
			t.Errorf("%q: exit %d, %q; want %d, %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}
