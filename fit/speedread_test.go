package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// gpt-oss-120b in its own release format, MXFP4 experts + BF16, served by vLLM in the KV-aware
// mode (params.go's
// counts from config.json: 116,829,156,672 params, 5,132,849,472 active, 114,661,785,600 in the
// 128 routed experts, 4 per token; 36 layers):
//
//	active experts = 114,661,785,600 × 4 / 128 = 3,583,180,800 × 0.53125 B (MXFP4) = 1,903,564,800 B
//	the rest       = 5,132,849,472 − 3,583,180,800 = 1,549,668,672 × 2 B (BF16)   = 3,099,337,344 B
//	weights read   = 5,002,902,144 B; + KV 306,708,480 B = 5,309,610,624 B
//	overhead       = 0.001903 + 36 × 0.00008732 = 0.00504652 s
//	bandwidth      ≥ 5.309610624 / (0.4345 × (0.05 − 0.00504652) = 0.01953228706) = 271.84 → 272 GB/s
//
// For the llama.cpp-style engines (the default), whose conversions the measured gpt-oss runs
// say read about the file's average (speedread.go), the same model reads
//
//	average bytes  = 0.98144837 × 0.53125 + 0.01855163 × 2 = 0.558497704 B/param
//	   (experts' share 114,661,785,600 / 116,829,156,672 = 0.98144837)
//	weights read   = 5.132849472 × 0.558497704 = 2.866684644 GB; + KV 0.30670848 = 3.173393124 GB
//	bandwidth      ≥ 3.173393124 / 0.01953228706 = 162.47 → 163 GB/s
func TestSplitFormatMoEReadsEachPartInItsFormat(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine = "openai/gpt-oss-120b", target.SizingKV, target.EngineVLLM
	})
	experts, rest, ok := b.ActiveSplit()
	if !ok || !near(experts, 3.5831808) || !near(rest, 1.549668672) {
		t.Fatalf("split: %v experts + %v rest (%v); want 3.5831808 + 1.549668672", experts, rest, ok)
	}
	if !near(b.ReadGBPerToken, 5.309610624) || !near(b.SpeedOverheadSeconds, 0.00504652) || b.MinBandwidthGBs != 272 {
		t.Errorf("read %v GB, overhead %v s, %d GB/s; want 5.309610624, 0.00504652, 272", b.ReadGBPerToken, b.SpeedOverheadSeconds, b.MinBandwidthGBs)
	}
	// The default engine (llama.cpp) reads the file's average bytes.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "openai/gpt-oss-120b", target.SizingKV })
	if _, _, ok := b.ActiveSplit(); ok || !near(b.ReadGBPerToken, 3.173393124) || b.MinBandwidthGBs != 163 {
		t.Errorf("llama.cpp: split %v, read %v GB, %d GB/s; want none, 3.173393124, 163", ok, b.ReadGBPerToken, b.MinBandwidthGBs)
	}
	// Asked in one format (Q4_K_M), the model reads its active parameters at that format's bytes.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Quant = "openai/gpt-oss-120b", target.SizingKV, "Q4_K_M" })
	if _, _, ok := b.ActiveSplit(); ok {
		t.Errorf("Q4_K_M: split %+v", b.Format)
	}
}
