package estimate

import (
	"strings"
	"testing"
)

// A mixture of experts' overhead says its layers' share: Qwen3-30B-A3B has 48 layers
// (architectures.csv), 48 × 87.32 µs = 4.19136 ms → "4.19 ms"; t0 1.903 + 4.19136 = 6.09436 → "6.09".
// Llama-4-Maverick routes in 24 of its 48 (fit/moelayers.go): 24 × 87.32 µs = 2.09568 → "2.10";
// 1.903 + 2.09568 = 3.99868 → "4.00".
// Without an architecture a 30 B mixture of experts counts the depth typical of its size
// (fit.MoEDepth(30) = 40: 3.4928 ms → "3.49", 5.3958 → "5.40"); a dense model says t0 alone ("1.90").
func TestTextMoEOverhead(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"m=Qwen/Qwen3-30B-A3B-Instruct-2507&q=Q4_K_M&on=nvidia-rtx-4090", "6.09 ms overhead per token, of which 4.19 ms for 48 MoE layers)"},
		{"m=meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8&memory=1000&bandwidth=8000&family=nvidia", "4.00 ms overhead per token, of which 2.10 ms for 24 MoE layers)"},
		{"p=30&ap=3&on=nvidia-rtx-4090", "5.40 ms overhead per token, of which 3.49 ms for 40 MoE layers, typical of its size)"},
		{"p=8&on=nvidia-rtx-4090", "1.90 ms overhead per token)"},
	} {
		e, err := RunRaw(c.query)
		if err != nil {
			t.Fatal(err)
		}
		if got := Text(e); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q lacks %q", c.query, got, c.want)
		}
	}
}
