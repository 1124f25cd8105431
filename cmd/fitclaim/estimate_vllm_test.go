package main

import (
	"strings"
	"testing"
)

// --engine vllm adds vLLM's start-up to the contract: Qwen2-7B-Instruct BF16 at 32,768 tokens on
// a device CUDA counts as 18 GiB (the arithmetic is in estimate's TestJSONVLLM).
func TestEstimateEngineVLLM(t *testing.T) {
	out, errOut, code := runCLI("estimate", "--json", "Qwen/Qwen2-7B-Instruct", "--quant", "BF16", "--context", "32768",
		"--memory", "18", "--bandwidth", "300", "--family", "nvidia", "--engine", "vllm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`"needGiB":19.39`, `"engine":"vLLM V1 engine v0.11–v0.20"`, `"kvCacheGiB":0.5`,
		`"kvCacheTokens":9408`, `"maxConcurrency":0.29`, `"starts":false`, `"maxModelLen":9408`, `"reason":"To serve at least one request`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in %s", want, out)
		}
	}
	// the utilization is vLLM's argument: 0.95 gives 0.95 × 18 − 15.697328 = 1.402672 GiB,
	// 1,641 blocks of 917,504 B; still short of 1.75 GiB for 32,768 tokens
	out, errOut, code = runCLI("estimate", "--json", "Qwen/Qwen2-7B-Instruct", "--quant", "BF16", "--context", "32768",
		"--memory", "18", "--bandwidth", "300", "--family", "nvidia", "--engine", "vllm", "--gpu-memory-utilization", "0.95")
	if code != 0 {
		t.Fatalf("at 0.95: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"kvCacheGiB":1.4,"kvCacheTokens":26256,`) {
		t.Errorf("at 0.95: %s", out)
	}
	// vLLM's arguments are refused for llama.cpp, naming the flag
	_, errOut, code = runCLI("estimate", "Qwen/Qwen2-7B-Instruct", "--on", "nvidia-l4", "--engine", "llama.cpp", "--max-num-seqs", "8")
	if code == 0 || !strings.Contains(errOut, "--max-num-seqs") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
