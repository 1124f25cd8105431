package api

import "testing"

// A choice in another case is the choice on every route (target's TestChoicesFoldCase): the same
// bytes as its own spelling. Before, s=KV, drv=NVIDIA, att=GQA, engine=VLLM and capn=QUALIFIED
// were 400 while kv=FP8 and family=NVIDIA were taken.
func TestChoicesFoldCaseAPI(t *testing.T) {
	h := Handler()
	for _, c := range [][2]string{
		{"/api/v1/claim.yaml?m=Qwen%2FQwen3-8B&s=KV&drv=NVIDIA&kv=FP8&q=bf16&cap=1&capn=QUALIFIED",
			"/api/v1/claim.yaml?m=Qwen%2FQwen3-8B&s=kv&drv=nvidia&kv=fp8&q=BF16&cap=1&capn=qualified"},
		{"/api/v1/claim.json?m=Qwen%2FQwen3-8B&s=Kv&att=GQA&drv=Amd", "/api/v1/claim.json?m=Qwen%2FQwen3-8B&s=kv&att=gqa&drv=amd"},
		{"/api/v1/deploy.yaml?m=Qwen%2FQwen3-8B&s=kv&engine=VLLM&drv=Intel", "/api/v1/deploy.yaml?m=Qwen%2FQwen3-8B&s=kv&engine=vllm&drv=intel"},
		{"/api/v1/deploy.yaml?m=Qwen%2FQwen3-8B&engine=LLAMA.CPP&drv=ANY", "/api/v1/deploy.yaml?m=Qwen%2FQwen3-8B&engine=llama.cpp&drv=any"},
		{"/api/v1/estimate.json?m=Qwen%2FQwen3-8B&memory=24&bandwidth=900&family=NVIDIA&engine=Vllm", "/api/v1/estimate.json?m=Qwen%2FQwen3-8B&memory=24&bandwidth=900&family=nvidia&engine=vllm"},
	} {
		code, body := getAPI(h, c[0])
		wcode, want := getAPI(h, c[1])
		if wcode != 200 || code != wcode || body != want {
			t.Errorf("%s: %d, not the bytes of %s (%d): %.200s", c[0], code, c[1], wcode, body)
		}
	}
}
