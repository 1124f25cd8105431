package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// TestReserveWordsByVendor: the per-device runtime context of llama.cpp's reserve, and vLLM's
// graphs, are named for the vendor whose devices the claim selects; the figures stay CUDA's.
// Llama-3.1-8B: 451 MiB = 0.4404 GiB of context + 512 × (128,256 + 4,096) × 4 B = 258.5 MiB
// = 0.2524 GiB of compute buffer = 0.6929 GiB (fit_test.go's TestKVDense comment).
func TestReserveWordsByVendor(t *testing.T) {
	for _, c := range []struct{ driver, context, graphs string }{
		{DriverLlmfit, "CUDA context", "CUDA graphs"},
		{DriverAny, "CUDA context", "CUDA graphs"},
		{DriverNVIDIA, "CUDA context", "CUDA graphs"},
		{DriverAMD, "ROCm/HIP context", "HIP graphs"},
		{DriverIntel, "Level Zero context", "XPU graphs"},
	} {
		b := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Quant, t.Driver = "meta-llama/Llama-3.1-8B-Instruct", "kv", "Q4_K_M", c.driver
		})
		want := "0.69 GiB llama.cpp reserve (0.44 " + c.context + " + 0.25 compute buffer)"
		if b.Reserve != want {
			t.Errorf("%s: reserve %q, want %q", c.driver, b.Reserve, want)
		}
		v := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Quant, t.Driver, t.Engine = "meta-llama/Llama-3.1-8B-Instruct", "kv", "BF16", c.driver, target.EngineVLLM
		})
		if !strings.Contains(v.Reserve, "(vLLM's "+c.graphs+", ≤ 1.12)") {
			t.Errorf("%s: vLLM reserve %q lacks %q", c.driver, v.Reserve, c.graphs)
		}
		if other := "CUDA"; c.driver == DriverAMD || c.driver == DriverIntel {
			if strings.Contains(b.Reserve, other) || strings.Contains(v.Reserve, other) {
				t.Errorf("%s names CUDA: %q / %q", c.driver, b.Reserve, v.Reserve)
			}
		}
	}
	for fam, name := range map[string]string{"amd": "HIP", "intel": "Level Zero", "nvidia-pascal": "CUDA", "apple": "Metal", "nvidia-unified": "CUDA"} {
		if got := RuntimeFor(fam).Name; got != name {
			t.Errorf("RuntimeFor(%q) = %q, want %q", fam, got, name)
		}
	}
}

// The reserve's provenance follows the runtime: CUDA's own devices say nothing more; AMD's and
// Intel's (and Apple's Metal, for an estimate) say that the figures are CUDA's, for the engine whose
// reserve it is.
func TestReserveBorrowedWordsOn(t *testing.T) {
	for _, c := range []struct{ family, engine, want string }{
		{"nvidia", target.EngineVLLM, ""},
		{"nvidia-pascal", target.EngineLlamaCpp, ""},
		{"apple", target.EngineLlamaCpp, "reserve: its 451 MiB Metal context is llama.cpp's CUDA context on RTX 4090s, used as an estimate for Metal: no public Metal start-up log measures it"},
		{"nvidia-unified", target.EngineLlamaCpp, ""}, // GB10 runs CUDA
		{"amd", target.EngineLlamaCpp, "reserve: its 451 MiB ROCm/HIP context is llama.cpp's CUDA context on RTX 4090s, used as an estimate for HIP: no public HIP start-up log measures it"},
		{"intel", target.EngineVLLM, "reserve: vLLM's activation peak, non-torch memory, XPU graphs and the share the driver keeps are CUDA measurements on NVIDIA boards (data/vllm-train.tsv), used as an estimate for Level Zero: no public Level Zero start-up log measures it"},
	} {
		if got := ReserveBorrowedWordsOn(c.family, c.engine); got != c.want {
			t.Errorf("%s/%s: %q, want %q", c.family, c.engine, got, c.want)
		}
	}
}
