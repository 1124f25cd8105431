package estimate

import (
	"strings"
	"testing"
)

// A mixture of experts' overhead says its layers' share: Qwen3-30B-A3B has 48 layers
// (architectures.csv), 48 × 86.44 µs = 4.14912 ms → "4.15 ms"; t0 1.896 + 4.14912 = 6.04512 → "6.05".
// Llama-4-Maverick routes in 24 of its 48 (fit/moelayers.go): 24 × 86.44 µs = 2.07456 → "2.07";
// 1.896 + 2.07456 = 3.97056 → "3.97".
// Without an architecture a 30 B mixture of experts counts the depth typical of its size
// (fit.MoEDepth(30) = 40: 3.4576 ms → "3.46", 5.3536 → "5.35"); a dense model says nothing.
func TestTextMoEOverhead(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"m=Qwen/Qwen3-30B-A3B-Instruct-2507&q=Q4_K_M&on=nvidia-rtx-4090", "6.05 ms overhead per token, of which 4.15 ms for 48 MoE layers)"},
		{"m=meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8&memory=1000&bandwidth=8000&family=nvidia", "3.97 ms overhead per token, of which 2.07 ms for 24 MoE layers)"},
		{"p=30&ap=3&on=nvidia-rtx-4090", "5.35 ms overhead per token, of which 3.46 ms for 40 MoE layers, typical of its size)"},
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
