package claim

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// gpt-oss-120b in its release format reads its 4 active experts in MXFP4 and the rest in BF16:
// 3.5831808 B × 0.53125 + 1.549668672 B × 2 = 1.9035648 + 3.099337344 = 5.00 GB of weights, and
// the header says which part is which (fit's TestSplitFormatMoEReadsEachPartInItsFormat: 281 GB/s).
func TestKVHeaderSplitFormat(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing = "openai/gpt-oss-120b", "kv"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	header := strings.Join(explainLines(&r.Bounds), "\n")
	want := "s/token = (5.00 GB weights (5.1B active: 3.58B of MXFP4 experts + 1.55B BF16) + 0.31 GB KV)"
	if !strings.Contains(header, want) || !strings.Contains(header, "bandwidth ≥ 281 GB/s") {
		t.Errorf("header lacks %q or 281 GB/s:\n%s", want, header)
	}
}
