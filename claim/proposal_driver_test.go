package claim

import (
	"slices"
	"testing"
)

// When nothing fits one device, the proposed split names a product the claim's driver can
// select: an AMD claim for DeepSeek-R1 proposed "2 × Apple M3 Ultra 512GB". Its floor at 3
// devices is ⌈(639.25 GiB weights + 0.54 GiB KV) / 3 + 0.70 reserve⌉ = ⌈213.96⌉ = 214 Gi per device
// (reserve: 451 MiB + 512 × (129,280 vocabulary + 7,168 width) × 4 B = 0.4404 + 0.2602 GiB), which the
// 288 GiB MI350X (the first of the fastest AMD boards, 8,000 GB/s) holds; at 2 it is
// ⌈320.60⌉ = 321 Gi, more than any AMD board.
func TestSplitProposalNamesASelectableProduct(t *testing.T) {
	r := renderLink(t, "m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=amd")
	want := "no accelerator in the catalog meets these floors with 1 device; 3 × AMD Instinct MI350X would (set count to 3)"
	if !slices.Contains(r.Warnings, want) {
		t.Errorf("warnings %q lack %q", r.Warnings, want)
	}
	if p, ok := SplitProposal(r.Matches); !ok || p.Accelerator.Vendor != "amd" {
		t.Errorf("split proposal %q (%v), want an AMD board", p.Accelerator.Name, ok)
	}
}
