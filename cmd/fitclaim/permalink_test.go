package main

import (
	"strings"
	"testing"
)

// --permalink takes any link the page or the API gives: the page keeps the target in the
// fragment, the API in the query; an API link with a fragment after its query (a pasted anchor)
// read "s=kv#frag" as the sizing mode.
func TestPermalinkTargetOfAnyLink(t *testing.T) {
	want, _, code := runCLI("claim", "Qwen/Qwen3-8B", "--sizing", "kv")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, link := range []string{
		"https://fitclaim.example/#m=Qwen%2FQwen3-8B&s=kv",
		"https://fitclaim.example/?utm_source=x#m=Qwen%2FQwen3-8B&s=kv",
		"#m=Qwen%2FQwen3-8B&s=kv",
		"https://fitclaim.example/api/v1/claim.yaml?m=Qwen%2FQwen3-8B&s=kv",
		"https://fitclaim.example/api/v1/claim.yaml?m=Qwen%2FQwen3-8B&s=kv#section",
		"?m=Qwen%2FQwen3-8B&s=kv",
		"m=Qwen%2FQwen3-8B&s=kv",
	} {
		out, errOut, code := runCLI("claim", "--permalink", link)
		if code != 0 || out != want {
			t.Errorf("%s: exit %d %s", link, code, errOut)
		}
	}
}

// A page address without a fragment holds no target: it was read as one key=value pair,
// "query: unknown key \"https://fitclaim.example/\"".
func TestPermalinkWithoutTarget(t *testing.T) {
	for _, link := range []string{"https://fitclaim.example/", "https://fitclaim.example/#", "https://fitclaim.example/api/v1/claim.yaml"} {
		out, errOut, code := runCLI("claim", "--permalink", link)
		if code != exitError || out != "" || !strings.Contains(errOut, "Model (model, m): choose a catalog model") {
			t.Errorf("%s: exit %d, stderr %q", link, code, errOut)
		}
	}
}
