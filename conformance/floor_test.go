package conformance

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// The KV-aware floor is the need rounded up to the MiB (fit/memfloor.go), so the scheduler's own
// allocator, running the claim's CEL on devices as their drivers publish them, gives a device
// whose memory is a little under the next whole Gi: an RTX 4090 (24,564 MiB, 23.99 GiB) for a
// need of 23,867 MiB, an H100 SXM (81,559 MiB, 79.65 GiB) for a need of exactly 81,559 MiB. With
// the floor rounded up to whole Gi (24 Gi = 24,576 MiB, 80 Gi = 81,920 MiB) both were refused.
// One MiB more than the device has is refused.
func TestFloorToTheMiBAllocates(t *testing.T) {
	ctx := context.Background()
	byID := map[string]Accel{}
	for _, a := range CatalogAccelerators() {
		byID[a.ID] = a
	}
	for _, c := range []struct {
		link  string
		acc   string
		floor int64 // MiB, hand-computed below
	}{
		// Qwen3-8B BF16, 26,624 tokens × 2: 15.26 GiB weights + 7.31 GiB KV + 0.74 GiB reserve
		// = 23,866.x MiB → 23,867 Mi (23.30 Gi): under the RTX 4090's 24,564 MiB, over 23 Gi
		{"m=Qwen%2FQwen3-8B&q=BF16&s=kv&ctx=26624&seq=2&tps=5", "nvidia-rtx-4090", 23867},
		// Qwen3-30B-A3B BF16, 60,192 tokens × 4: the longest context that fits an H100's 81,559 MiB
		{"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=60192&seq=4&tps=5", "nvidia-h100-sxm", 81559},
	} {
		a, ok := byID[c.acc]
		if !ok {
			t.Fatalf("no accelerator %s", c.acc)
		}
		for _, drv := range []string{fit.DriverNVIDIA, fit.DriverLlmfit} {
			tg, err := target.ParsePermalink(c.link + "&drv=" + drv)
			if err != nil {
				t.Fatal(err)
			}
			r, m := renderManifest(t, tg)
			b := &r.Bounds
			if b.MemoryMi != c.floor || b.MemoryGi<<10 <= a.MemoryMiB || a.MemoryMiB < c.floor {
				t.Fatalf("%s %s: floor %d Mi (%d Gi), want %d Mi under the %d MiB of %s and its whole Gi over it", c.link, drv, b.MemoryMi, b.MemoryGi, c.floor, a.MemoryMiB, a.Name)
			}
			if want := "quantity('" + strconv.FormatInt(c.floor, 10) + "Mi')"; !strings.Contains(r.YAML, want) {
				t.Errorf("%s %s: the CEL does not ask %s", c.link, drv, want)
			}
			dev := NVIDIADevice(a, VariantComplete, 1)
			if drv == fit.DriverLlmfit {
				dev = LLMfitDevice(a, VariantComplete)
			}
			got, err := Allocate(ctx, m, Fleet{dev})
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Errorf("%s %s: the allocator refuses %s (%d MiB) for a %d Mi floor", c.link, drv, a.Name, a.MemoryMiB, c.floor)
			}
			// the same device with a MiB less than the floor is refused
			small := a
			small.MemoryMiB = c.floor - 1
			dev = NVIDIADevice(small, VariantComplete, 1)
			if drv == fit.DriverLlmfit {
				dev = LLMfitDevice(small, VariantComplete)
			}
			if got, err := Allocate(ctx, m, Fleet{dev}); err != nil || got != nil {
				t.Errorf("%s %s: %d MiB allocated for a %d Mi floor (%v)", c.link, drv, small.MemoryMiB, c.floor, err)
			}
		}
	}
}
