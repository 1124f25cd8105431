package claim

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// gpt-oss-120b in its release format, served by vLLM, reads its 4 active experts in MXFP4 and the
// rest in BF16: 3.5831808 B × 0.53125 + 1.549668672 B × 2 = 1.9035648 + 3.099337344 = 5.00 GB of
// weights, and the header says which part is which (fit's
// TestSplitFormatMoEReadsEachPartInItsFormat: 272 GB/s). For llama.cpp (the default engine) it
// reads the file's average: 5.132849472 B × 0.558497704 = 2.87 GB, 163 GB/s.
func TestKVHeaderSplitFormat(t *testing.T) {
	for _, c := range []struct{ engine, want, bandwidth string }{
		{target.EngineVLLM, "s/token = (5.00 GB weights (5.1B active: 3.58B of MXFP4 experts + 1.55B BF16) + 0.31 GB KV)", "bandwidth ≥ 272 GB/s"},
		{"", "s/token = (2.87 GB weights (5.1B active) + 0.31 GB KV)", "bandwidth ≥ 163 GB/s"},
	} {
		tg := target.Default()
		tg.Model, tg.Sizing, tg.Engine = "openai/gpt-oss-120b", "kv", c.engine
		r, err := RenderVersion(tg, "9.9.9-test")
		if err != nil {
			t.Fatal(err)
		}
		header := strings.Join(explainLines(&r.Bounds), "\n")
		if !strings.Contains(header, c.want) || !strings.Contains(header, c.bandwidth) {
			t.Errorf("engine %q: header lacks %q or %q:\n%s", c.engine, c.want, c.bandwidth, header)
		}
	}
}
