package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Under vLLM the floor of a split into n devices is vLLM's budget at tensor-parallel size n.
// floorsFor(n) sized a copy for n devices but vLLM's floor read the target's own count, so every
// n gave the one-device floor: no product ever "fits as N devices" and no split was proposed.
//
// DeepSeek-R1, 4 × 32,768 tokens, on B200s (183,359 MiB = 179.06 GiB): per device at n = 5,
// weights 626.71 / 5 = 125.34 GiB (672,921,314,192 B: vLLM loads no multi-token-prediction layer,
// vllm_mtp.go), the MLA latent cache unsplit (vLLM replicates it) 8.58 GiB, activation 4.85 and
// non-torch 0.55: (125.34 + 8.58 + 4.85 + 0.55) / 0.9 (the CUDA graphs fit in the 10 % outside)
// + 0.44 the driver keeps = 154.80 + 0.44 = 155.24 → 156 Gi, which a B200 holds; at n = 4,
// (156.68 + 8.58 + 5.40) / 0.9 + 0.44 = 190.06 → 191 Gi, which it does not. vLLM refuses a
// tensor-parallel size of 5, 6 or 7 for R1's 128 attention heads (vllm_refuse.go), so the split
// proposed is the next it accepts, 8; the floor at 5 is still what it is.
func TestVLLMSplitFloors(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Engine, tg.Context, tg.Sequences, tg.Driver =
		"deepseek-ai/DeepSeek-R1", target.SizingKV, target.EngineVLLM, 32768, 4, DriverNVIDIA
	_, err := Resolve(tg)
	if err == nil || !strings.Contains(err.Error(), "NVIDIA B200 (") || !strings.Contains(err.Error(), "fits as 8 devices") {
		t.Fatalf("one device: %v; want the B200 proposed as 8 devices", err)
	}
	tg.Count = 5
	b, err := Resolve(tg)
	if err != nil {
		t.Fatal(err)
	}
	if b.MemoryGi != 156 {
		t.Errorf("5 devices: %d Gi per device, want 156", b.MemoryGi)
	}
}
