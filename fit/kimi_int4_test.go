package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Kimi-K2-Thinking ships its routed experts in INT4 with one bf16 scale per 32 weights (4.5 bits,
// 0.5625 B) and the rest in BF16. Kimi-K2's shapes route 60 × 384 × 44,040,192 =
// 1,014,686,023,680 weights; the catalog's 1,058,118,284,416 less their 31,708,938,240 scales is
// 1,026,409,346,176, of which 11,723,322,496 are not routed experts:
//
//	1,014,686,023,680 × 0.5625 + 11,723,322,496 × 2 = 570,760,888,320 + 23,446,644,992
//	= 594,207,533,312 B (Moonshot's 594 GB checkpoint; the BF16 it was sized as said 2,116 GB)
func TestKimiINT4Experts(t *testing.T) {
	b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing = "moonshotai/Kimi-K2-Thinking", target.SizingKV })
	if b.Quant != "INT4 experts + BF16" || !near(b.ParamsB, 1026.409346176) || !within(b.WeightsGB, 594.207533312, 1e-6) {
		t.Errorf("%s, %v B, %v GB; want INT4 experts + BF16, 1026.409346176 B, 594.207533312 GB", b.Quant, b.ParamsB, b.WeightsGB)
	}
}
