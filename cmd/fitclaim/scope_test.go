package main

import (
	"strings"
	"testing"
)

// A flag the command does not read is refused (exit 2, naming the command that reads it),
// never accepted and ignored: `claim --image` wrote the same claim as without it, and
// `claim --on nvidia-l4` looked like a claim for an L4.
func TestFlagsOfAnotherCommandAreRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"claim", "Qwen/Qwen3-8B", "--image", "vllm/vllm-openai:latest"}, "--image: only fitclaim deploy reads it"},
		{[]string{"claim", "Qwen/Qwen3-8B", "--on", "nvidia-l4"}, "--on: only fitclaim estimate reads it"},
		{[]string{"claim", "Qwen/Qwen3-8B", "--memory=24"}, "--memory: only fitclaim estimate reads it"},
		{[]string{"claim", "Qwen/Qwen3-8B", "--unified"}, "--unified: only fitclaim estimate reads it"},
		{[]string{"deploy", "Qwen/Qwen3-8B", "--family", "amd"}, "--family: only fitclaim estimate reads it"},
		{[]string{"check", "--slices", "-", "Qwen/Qwen3-8B", "--image", "x"}, "--image: only fitclaim deploy reads it"},
	} {
		_, errOut, code := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, code, firstLine(errOut), exitUsage, c.want)
		}
	}
	// deploy reads --image; a permalink may carry every key (the page's link holds the whole form).
	if _, errOut, code := runCLI("deploy", "Qwen/Qwen3-8B", "--image", "vllm/vllm-openai:v0.11.0"); code != 0 {
		t.Errorf("deploy --image: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runCLI("claim", "--permalink", "#m=Qwen%2FQwen3-8B&image=x&on=nvidia-l4"); code != 0 {
		t.Errorf("claim --permalink with image and on: exit %d: %s", code, errOut)
	}
}

func firstLine(s string) string { first, _, _ := strings.Cut(s, "\n"); return first }
