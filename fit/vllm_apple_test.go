package fit

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// vLLM v0.11–v0.20 has no Apple GPU (Metal) backend: the estimate answered "starts" on an M4 Max
// with 127.56 GiB of it (128 − 0.44 of a CUDA driver, and not macOS's 75 % GPU share). The engine
// field is refused, by its label, for an Apple device, by name or by numbers.
func TestVLLMRefusesApple(t *testing.T) {
	tg := target.Default()
	tg.Model = "Qwen/Qwen3-8B"
	for _, d := range []Device{{On: "apple-m4-max-128"}, {MemoryGiB: 64, BandwidthGBs: 400, Family: FamilyApple, Unified: true}} {
		_, err := EstimateVLLM(tg, d)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != "engine" || !strings.Contains(err.Error(), "Serving engine") || !strings.Contains(err.Error(), "llama.cpp") {
			t.Errorf("%+v: %v", d, err)
		}
	}
}
