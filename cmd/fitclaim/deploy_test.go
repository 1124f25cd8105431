package main

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/target"
)

// The command line prints exactly the bytes deploy.Render writes for the same target and options.
func TestDeployMatchesEngine(t *testing.T) {
	tg, err := target.ParsePermalink("m=Qwen%2FQwen3-8B&s=kv&ctx=4096&seq=2&kv=q8_0&drv=nvidia&n=2&engine=llama.cpp&image=reg.example%2Fl%3A1")
	if err != nil {
		t.Fatal(err)
	}
	want, err := deploy.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI("deploy", "Qwen/Qwen3-8B", "--sizing", "kv", "--context=4096", "--sequences", "2",
		"--kv-cache", "q8_0", "--engine", "llama.cpp", "--driver", "nvidia", "--count", "2", "--image=reg.example/l:1")
	if code != 0 || out != want.YAML {
		t.Fatalf("exit %d (%s), YAML:\n%s\nwant:\n%s", code, stderr, out, want.YAML)
	}
	if !strings.Contains(stderr, "fitclaim: llama.cpp starts: 2 slots of 4096 tokens") {
		t.Errorf("stderr lacks the summary:\n%s", stderr)
	}
	// A link carries the engine and the image too.
	out, _, code = runCLI("deploy", "--permalink", "https://x.example/api/v1/deploy.yaml?"+want.Query)
	if code != 0 || out != want.YAML {
		t.Fatalf("permalink: exit %d:\n%s", code, out)
	}
}

func TestDeployErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"deploy", "Qwen/Qwen3-8B", "--engine", "tgi"}, exitError, "fitclaim deploy: Serving engine (--engine): must be vllm or llama.cpp"},
		{[]string{"deploy", "Qwen/Qwen3-8B", "--image"}, exitUsage, "--image needs a value"},
		{[]string{"deploy", "Qwen/Qwen3-8B", "--json"}, exitUsage, "deploy writes YAML only"},
		{[]string{"deploy", "--params", "7"}, exitError, "a Deployment serves a catalog model"},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
