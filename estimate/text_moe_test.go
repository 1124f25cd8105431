package estimate

import (
	"strings"
	"testing"
)

// A mixture of experts' overhead says its layers' share: Qwen3-30B-A3B has 48 layers
// (architectures.csv), 48 × 75.48 µs = 3.62304 ms → "3.62 ms"; t0 1.935 + 3.623 = 5.558 → "5.56".
// Without an architecture the typical 48 layers are said to be typical; a dense model says nothing.
func TestTextMoEOverhead(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{"m=Qwen/Qwen3-30B-A3B-Instruct-2507&q=Q4_K_M&on=nvidia-rtx-4090", "5.56 ms overhead per token, of which 3.62 ms for 48 MoE layers)"},
		{"p=30&ap=3&on=nvidia-rtx-4090", "5.56 ms overhead per token, of which 3.62 ms for 48 MoE layers, the typical depth)"},
		{"p=8&on=nvidia-rtx-4090", "1.94 ms overhead per token)"},
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
