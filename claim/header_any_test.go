package claim

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Driver any in the KV-aware mode: the llmfit.ai alternative's floor assumes the least
// efficient family (intel, 0.4345), the NVIDIA allow-list NVIDIA's (0.7937). Qwen/Qwen3-8B
// reads 17,589,430,272 B per token (16,381,470,720 B of BF16 weights + 1,207,959,552 B of KV);
// 1/20 − 0.001903 s = 0.048097 s; 17.589430272e9 / (0.4345 × 0.048097) = 841.67 → 842 GB/s and
// 17.589430272e9 / (0.7937 × 0.048097) = 460.76 → 461 GB/s (fit's TestKVAnyFloorPerAlternative).
// The A10G (600 GB/s) is on the allow-list; the header and the JSON say both floors.
func TestKVAnyHeaderNamesBothFloors(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Driver = "Qwen/Qwen3-8B", "kv", "any"
	r, err := RenderVersion(tg, "9.9.9-test")
	if err != nil {
		t.Fatal(err)
	}
	header := strings.Join(explainLines(&r.Bounds), "\n")
	for _, want := range []string{
		"(bandwidth × 43.45%, calibrated for intel, the least efficient family any vendor's device may be) + 1.903 ms overhead  ⇒  bandwidth ≥ 842 GB/s",
		"driver: llmfit.ai first (the floors above), else gpu.nvidia.com, which publishes no bandwidth, so its floor is an allow-list of the products that meet " +
			"≥ 17,531 Mi (17.12 Gi) and ≥ 461 GB/s (the same s/token with bandwidth × 79.37%, calibrated for nvidia, the family it selects): ",
		", NVIDIA A10G,",
	} {
		if !strings.Contains(header, want) {
			t.Errorf("header lacks %q:\n%s", want, header)
		}
	}
	for _, want := range []string{
		`"minBandwidthGBs": 842,`, `"speedEfficiency": 0.4345,`, `"speedFamily": "intel",`,
		`"nvidiaMinBandwidthGBs": 461,`, `"nvidiaSpeedEfficiency": 0.7937,`, `"nvidiaSpeedFamily": "nvidia",`,
		`"NVIDIA A10G",`, `'NVIDIA A10G'`,
	} {
		if !strings.Contains(r.JSON+r.YAML, want) {
			t.Errorf("JSON or YAML lacks %s:\n%s", want, r.JSON)
		}
	}
	// The nvidia driver alone: one floor, no extra keys.
	tg.Driver = "nvidia"
	if r, err = RenderVersion(tg, "9.9.9-test"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.JSON, `"minBandwidthGBs": 461,`) || strings.Contains(r.JSON, "nvidiaMinBandwidthGBs") {
		t.Errorf("driver nvidia JSON:\n%s", r.JSON)
	}
}
