package estimate

import (
	"strings"
	"testing"
)

// A mixture of experts' overhead says its layers' share: Qwen3-30B-A3B has 48 layers
// (architectures.csv), 48 × 87.06 µs = 4.17888 ms → "4.18 ms"; t0 1.904 + 4.17888 = 6.08288 → "6.08".
// Llama-4-Maverick routes in 24 of its 48 (fit/moelayers.go): 24 × 87.06 µs = 2.08944 → "2.09";
// 1.904 + 2.08944 = 3.99344 → "3.99".
// Without an architecture a 30 B mixture of experts counts the depth typical of its size
// (fit.MoEDepth(30) = 40: 3.4824 ms → "3.48", 5.3864 → "5.39"); a dense model says t0 alone ("1.90").
func TestTextMoEOverhead(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"m=Qwen/Qwen3-30B-A3B-Instruct-2507&q=Q4_K_M&on=nvidia-rtx-4090", "6.08 ms overhead per token, of which 4.18 ms for 48 MoE layers)"},
		{"m=meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8&memory=1000&bandwidth=8000&family=nvidia", "3.99 ms overhead per token, of which 2.09 ms for 24 MoE layers)"},
		{"p=30&ap=3&on=nvidia-rtx-4090", "5.39 ms overhead per token, of which 3.48 ms for 40 MoE layers, typical of its size)"},
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
