package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// gpt-oss-120b in its own release format, MXFP4 experts + BF16, in the KV-aware mode (params.go's
// counts from config.json: 116,829,156,672 params, 5,132,849,472 active, 114,661,785,600 in the
// 128 routed experts, 4 per token; 36 layers):
//
//	active experts = 114,661,785,600 × 4 / 128 = 3,583,180,800 × 0.53125 B (MXFP4) = 1,903,564,800 B
//	the rest       = 5,132,849,472 − 3,583,180,800 = 1,549,668,672 × 2 B (BF16)   = 3,099,337,344 B
//	weights read   = 5,002,902,144 B; + KV 306,708,480 B = 5,309,610,624 B
//	overhead       = 0.001912 + 36 × 0.00008828 = 0.00509008 s
//	bandwidth      ≥ 5.309610624 / (0.4217 × (0.05 − 0.00509008) = 0.0189385133) = 280.36 → 281 GB/s
//
// (the file's average, 0.5585 B/param, on all 5.13 B active would say 2.87 GB of weights, as if
// the BF16 attention were MXFP4 too).
func TestSplitFormatMoEReadsEachPartInItsFormat(t *testing.T) {
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "openai/gpt-oss-120b", target.SizingKV })
	experts, rest, ok := b.ActiveSplit()
	if !ok || !near(experts, 3.5831808) || !near(rest, 1.549668672) {
		t.Fatalf("split: %v experts + %v rest (%v); want 3.5831808 + 1.549668672", experts, rest, ok)
	}
	if !near(b.ReadGBPerToken, 5.309610624) || !near(b.SpeedOverheadSeconds, 0.00509008) || b.MinBandwidthGBs != 281 {
		t.Errorf("read %v GB, overhead %v s, %d GB/s; want 5.309610624, 0.00509008, 281", b.ReadGBPerToken, b.SpeedOverheadSeconds, b.MinBandwidthGBs)
	}
	// Asked in one format (Q4_K_M), the model reads its active parameters at that format's bytes.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Quant = "openai/gpt-oss-120b", target.SizingKV, "Q4_K_M" })
	if _, _, ok := b.ActiveSplit(); ok {
		t.Errorf("Q4_K_M: split %+v", b.Format)
	}
}
