package estimate

import (
	"strings"
	"testing"
)

// A mixture of experts' overhead says its layers' share: Qwen3-30B-A3B has 48 layers
// (architectures.csv), 48 × 88.28 µs = 4.23744 ms → "4.24 ms"; t0 1.912 + 4.237 = 6.149 → "6.15".
// Without an architecture a 30 B mixture of experts counts the depth typical of its size
// (fit.MoEDepth(30) = 40: 3.5312 ms → "3.53", 5.4432 → "5.44"); a dense model says nothing.
func TestTextMoEOverhead(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"m=Qwen/Qwen3-30B-A3B-Instruct-2507&q=Q4_K_M&on=nvidia-rtx-4090", "6.15 ms overhead per token, of which 4.24 ms for 48 MoE layers)"},
		{"p=30&ap=3&on=nvidia-rtx-4090", "5.44 ms overhead per token, of which 3.53 ms for 40 MoE layers, typical of its size)"},
		{"p=8&on=nvidia-rtx-4090", "1.91 ms overhead per token)"},
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
