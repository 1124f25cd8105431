package fit

import (
	"math"
	"testing"
)

// The GGUF table (ggufFormats, from llama.cpp's Llama-3-8B files) against files published for
// other models, as formats.go lists them: weights = RealBytesPerParam × the catalog's parameters.
//
//	Llama-3.1-70B Q4_K_M: 4.58 × 2^30 / 8,030,261,248 = 0.612400693 B × 70,553,706,496 = 43,207,138,758 B
//	  against 43.1 GB (quantize README): +0.25 %
//	Llama-3.1-405B Q4_K_M: 0.612400693 × 405,853,388,800 = 248,544,896,592 B against 249.1 GB: −0.22 %
//	Llama-3.2-3B Q4_K_M: 0.612400693 × 3,212,749,824 = 1,967,490,219 B against 1.87 GiB =
//	  2,007,897,211 B (llama-bench): −2.01 % (a tied embedding, stored once in Q6_K)
//	TinyLlama-1.1B Q4_K_M: 0.612400693 × 1,100,048,384 = 673,670,393 B against 636.18 MiB =
//	  667,083,080 B: +0.99 %
//	Qwen2-7B Q8_0: 7.96 × 2^30 / 8,030,261,248 = 1.064347056 B × 7,615,616,512 = 8,105,659,015 B
//	  against 7.54 GiB = 8,096,013,353 B: +0.12 %
//	gemma-3-1b-it Q4_K_M (width 1,152, not a multiple of 256: not this table's, which the KV-aware
//	  mode replaces for it, gguf_widths_test.go): 0.612400693 ×
//	  999,885,952 = 612,330,850 B against 762.49 MiB = 799,528,714 B: −23.41 %
func TestGGUFSizesAgainstPublished(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	for _, c := range []struct {
		model, quant string
		params       float64
		published    float64 // bytes
		wantPct      float64 // (ours / published − 1) × 100, two decimals
	}{
		{"Llama-3.1-70B", "Q4_K_M", 70553706496, 43.1e9, 0.25},
		{"Llama-3.1-405B", "Q4_K_M", 405853388800, 249.1e9, -0.22},
		{"Llama-3.2-3B", "Q4_K_M", 3212749824, 1.87 * gib, -2.01},
		{"TinyLlama-1.1B", "Q4_K_M", 1100048384, 636.18 * mib, 0.99},
		{"Qwen2-7B", "Q8_0", 7615616512, 7.54 * gib, 0.12},
		{"gemma-3-1b-it", "Q4_K_M", 999885952, 762.49 * mib, -23.41},
	} {
		pct := (RealBytesPerParam(c.quant)*c.params/c.published - 1) * 100
		if math.Abs(pct-c.wantPct) > 0.005 {
			t.Errorf("%s %s: %.2f %% off the published file, want %.2f %%", c.model, c.quant, pct, c.wantPct)
		}
		// Within 2.1 % for the widths the table models (multiples of 256); gemma-3-1b-it is the
		// known exception formats.go describes.
		if c.model != "gemma-3-1b-it" && math.Abs(pct) > 2.1 {
			t.Errorf("%s %s: %.2f %% off the published file", c.model, c.quant, pct)
		}
	}
}
