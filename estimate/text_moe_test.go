package estimate

import (
	"strings"
	"testing"
)

// A mixture of experts' overhead says its layers' share: Qwen3-30B-A3B has 48 layers
// (architectures.csv), 48 × 82.7 µs = 3.9696 ms → "3.97 ms"; t0 1.896 + 3.9696 = 5.8656 → "5.87".
// Without an architecture a 30 B mixture of experts counts the depth typical of its size
// (fit.MoEDepth(30) = 40: 3.308 ms → "3.31", 5.204 → "5.20"); a dense model says nothing.
func TestTextMoEOverhead(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"m=Qwen/Qwen3-30B-A3B-Instruct-2507&q=Q4_K_M&on=nvidia-rtx-4090", "5.87 ms overhead per token, of which 3.97 ms for 48 MoE layers)"},
		{"p=30&ap=3&on=nvidia-rtx-4090", "5.20 ms overhead per token, of which 3.31 ms for 40 MoE layers, typical of its size)"},
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
