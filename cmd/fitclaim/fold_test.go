package main

import "testing"

// A choice flag in another case is the choice (target's TestChoicesFoldCase): the same bytes.
// Before, --sizing KV, --driver NVIDIA, --attention GQA, --engine VLLM and --capacity-name
// QUALIFIED exited 1 while --kv-cache FP8 and --family NVIDIA were taken.
func TestChoicesFoldCaseCLI(t *testing.T) {
	for _, c := range [][2][]string{
		{{"claim", "Qwen/Qwen3-8B", "--sizing", "KV", "--driver", "NVIDIA", "--attention", "GQA", "--capacity-request", "--capacity-name", "Qualified", "--engine", "VLLM"},
			{"claim", "Qwen/Qwen3-8B", "--sizing", "kv", "--driver", "nvidia", "--attention", "gqa", "--capacity-request", "--capacity-name", "qualified", "--engine", "vllm"}},
		{{"deploy", "Qwen/Qwen3-8B", "--sizing", "Kv", "--engine", "Llama.CPP", "--driver", "AMD"},
			{"deploy", "Qwen/Qwen3-8B", "--sizing", "kv", "--engine", "llama.cpp", "--driver", "amd"}},
		{{"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-l4", "--engine", "VLLM", "--json"},
			{"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-l4", "--engine", "vllm", "--json"}},
	} {
		out, errOut, code := runCLI(c[0]...)
		want, wantErr, wantCode := runCLI(c[1]...)
		if wantCode != 0 || code != 0 || out != want || errOut != wantErr {
			t.Errorf("%v: exit %d (%s), not the bytes of %v (exit %d, %s)", c[0], code, errOut, c[1], wantCode, wantErr)
		}
	}
}
