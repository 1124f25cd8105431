package claim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A GGUF file whose width is not a multiple of 256 says which rule sized it (fit/gguf_widths.go):
// gemma-3-1b-it at Q4_K_M counted tensor by tensor, 799,525,120 B = 0.80 GB (fit's
// TestGGUFWidthsAgainstPublished); llmfit mode prints no such line.
func TestKVHeaderGGUFWidthLine(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Quant = "google/gemma-3-1b-it", "kv", "Q4_K_M"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	h := parseYAML(t, r.YAML).header
	want := []string{
		"# model:  google/gemma-3-1b-it (1.0B params, Q4_K_M ≈ 0.8 GB weights)",
		"# weights: GGUF Q4_K_M counted tensor by tensor by llama.cpp's rules: width 1152",
		"#         not a multiple of 256, so rows that wide in Q4_K → Q5_0, Q6_K → Q8_0;",
		"#         the LM head tied to the embedding in Q8_0; MLP 6912",
	}
	if len(h) < 5 || !reflect.DeepEqual(h[1:5], want) {
		t.Errorf("kv header:\n%s\nwant lines 2–5\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"))
	}
	tg.Sizing = "llmfit"
	if r, err = RenderVersion(tg, "9.9.9-test"); err != nil || strings.Contains(r.YAML, "# weights:") {
		t.Errorf("llmfit mode: %v\n%s", err, r.YAML)
	}
}
