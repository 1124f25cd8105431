package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func customTarget(paramsB float64, layers, kvHeads, headDim int) target.Target {
	t := target.Default()
	t.ParamsB, t.Layers, t.KVHeads, t.HeadDim = paramsB, layers, kvHeads, headDim
	return t
}

// A custom 8 B model (32 layers, 8 KV heads of 128) at Q4_K_M on one 24 GiB, 1,000 GB/s NVIDIA
// device, at the default 8,192 tokens:
//
//	weights = 8e9 × 0.6124007 (Q4_K_M as llama.cpp's files hold it, formats.go) = 4.8992055e9 B = 4.56274 GiB
//	KV      = 2 × 32 × 8 × 128 × 2 B = 131,072 B/token × 8,192 = 2^30 B = 1 GiB
//	reserve = llama.cpp's per device: 451 MiB CUDA context = 0.44043 GiB + the compute buffer of a
//	          model whose vocabulary and width are unknown, 512 × (262,144 + 16,384) × 4 B =
//	          570,425,344 B = 0.53125 GiB: 0.97168 GiB
//	need    = 4.56274 + 1 + 0.97168 = 6.53442 GiB of 24: fits
//	speed   = 1 / ((4.8992055e9 + 2^30) / (1,000e9 × 0.7937) + 0.001903)
//	        = 1 / (5.9729797e9 / 793.7e9 + 0.001903) = 1 / (0.0075255 + 0.001903) = 106.06 tok/s
//	longest context = (24 − 4.56274 − 0.97168) GiB / 131,072 B = 18.46558 × 8,192 = 151,270.0: 151,270 tokens
//	most sequences at 8,192 tokens = ⌊18.46558 GiB / 1 GiB⌋ = 18
func TestEstimateFitsByHand(t *testing.T) {
	e, err := EstimateOn(customTarget(8, 32, 8, 128), Device{MemoryGiB: 24, BandwidthGBs: 1000, Family: "nvidia"})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Fits || !within(e.NeedGiB, 6.5344, 1e-4) || e.UsableGiB != 24 || e.Reason != "" {
		t.Errorf("fits %v need %.4f usable %v reason %q", e.Fits, e.NeedGiB, e.UsableGiB, e.Reason)
	}
	if !within(e.TokensPerSecond, 106.06, 0.01) {
		t.Errorf("speed %.3f tok/s, want 106.06", e.TokensPerSecond)
	}
	if e.MaxContextTokens != 151270 || e.MaxSequences != 18 {
		t.Errorf("longest context %d, most sequences %d; want 151270, 18", e.MaxContextTokens, e.MaxSequences)
	}
}

// The same model at Q8_0 on 16 GiB of unified memory (Apple): the GPU may use 75 %, 12 GiB.
//
//	weights = 8e9 × 1.0643471 (Q8_0's files) = 8.5147764e9 B = 7.93000 GiB; at 8,192 tokens: 7.93000 + 1 + 0.97168
//	= 9.90168 ≤ 12: fits
//	at 32,768 tokens: KV 4 GiB, need 12.90168 > 12: does not fit, no speed;
//	longest context = (12 − 7.93000 − 0.97168) × 8,192 = 3.09832 × 8,192 = 25,381.4: 25,381 tokens; sequences 0
//
// and on a discrete 16 GiB device (all usable) the 32,768-token case fits.
func TestEstimateUnifiedShareByHand(t *testing.T) {
	tg := customTarget(8, 32, 8, 128)
	tg.Quant = "Q8_0"
	apple := Device{MemoryGiB: 16, BandwidthGBs: 400, Family: "apple", Unified: true}
	e, err := EstimateOn(tg, apple)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Fits || e.UsableGiB != 12 || !within(e.NeedGiB, 9.9017, 1e-4) {
		t.Errorf("8,192 tokens: fits %v need %.4f usable %v", e.Fits, e.NeedGiB, e.UsableGiB)
	}
	tg.Context = 32768
	e, err = EstimateOn(tg, apple)
	if err != nil {
		t.Fatal(err)
	}
	if e.Fits || e.TokensPerSecond != 0 || !within(e.NeedGiB, 12.9017, 1e-4) || e.MaxContextTokens != 25381 || e.MaxSequences != 0 {
		t.Errorf("32,768 tokens: fits %v tps %v need %.4f longest %d sequences %d", e.Fits, e.TokensPerSecond, e.NeedGiB, e.MaxContextTokens, e.MaxSequences)
	}
	if !strings.Contains(e.Reason, "needs 12.90 GiB") || !strings.Contains(e.Reason, "12.00 GiB") || !strings.Contains(e.Reason, "at most 25381 tokens") {
		t.Errorf("reason %q", e.Reason)
	}
	apple.Unified = false
	if e, err = EstimateOn(tg, apple); err != nil || !e.Fits {
		t.Errorf("discrete 16 GiB: fits %v, err %v", e.Fits, err)
	}
}

// A custom 70 B model (80 layers, 8 KV heads of 128) at Q4_K_M on 2 × 24 GiB, 1,000 GB/s:
//
//	weights = 70e9 × 0.6124007 = 42.8680485e9 B = 39.9240 GiB; KV = 2 × 80 × 8 × 128 × 2 = 327,680 B × 8,192 = 2.5 GiB
//	need = 39.9240 + 2.5 + 2 × 0.97168 = 44.3673 of 48: fits
//	llama.cpp's layer split runs the two devices in turn: a token reads all 42.8680485e9 + 2.68435456e9 =
//	45.5524031e9 B at one device's bandwidth
//	speed = 1 / (45.5524031e9 / 793.7e9 + 0.001903 + 0.0005 × 1) = 1 / (0.05739247 + 0.002403) = 16.724
//
// and the weights alone do not fit on one device.
func TestEstimateSplitByHand(t *testing.T) {
	tg := customTarget(70, 80, 8, 128)
	tg.Count = 2
	d := Device{MemoryGiB: 24, BandwidthGBs: 1000, Family: "nvidia"}
	e, err := EstimateOn(tg, d)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Fits || !within(e.NeedGiB, 44.3673, 1e-4) || e.UsableGiB != 48 || !within(e.TokensPerSecond, 16.724, 0.001) || e.CommSeconds != 0.0005 ||
		!within(e.ReadBytesPerDevice, 45.5524031e9, 100) {
		t.Errorf("fits %v need %.4f usable %v speed %.3f comm %v", e.Fits, e.NeedGiB, e.UsableGiB, e.TokensPerSecond, e.CommSeconds)
	}
	tg.Count = 1
	if e, err = EstimateOn(tg, d); err != nil || e.Fits || !strings.Contains(e.Reason, "the weights and the reserve alone do not fit") || e.MaxContextTokens != 0 {
		t.Errorf("one device: fits %v reason %q longest %d err %v", e.Fits, e.Reason, e.MaxContextTokens, err)
	}
}

// A mixture of experts reads its active parameters and pays 87.32 µs per layer beside t0:
// 30 B with 3 B active at Q4_K_M, no architecture (llmfit's KV estimate: 8e-6 GB per B per token
// = 30 × 8,000 B/token × 8,192 tokens = 1.96608e9 B; the depth typical of 30 B, MoEDepth = 40) on
// one 48 GiB, 1,000 GB/s AMD device:
//
//	read = 3e9 × 0.6124007 + 1.96608e9 = 1.8372021e9 + 1.96608e9 = 3.8032821e9 B
//	overhead = 0.001903 + 40 × 0.00008732 = 0.0053958 s
//	speed = 1 / (3.8032821e9 / (1,000e9 × 0.8205) + 0.0053958) = 1 / (0.0046353 + 0.0053958) = 99.690
//
// With its architecture given, 24 layers × 4 KV heads of 128: KV = 2 × 24 × 4 × 128 × 2 B × 8,192
// = 402,653,184 B, read 2,239,855,263 B / 820.5e9 = 0.0027299 s; overhead 0.001903 + 24 × 0.00008732
// = 0.00399868 s; speed = 1 / 0.0067285 = 148.621.
func TestEstimateMoEByHand(t *testing.T) {
	tg := target.Default()
	tg.ParamsB, tg.ActiveParamsB = 30, 3
	amd := Device{MemoryGiB: 48, BandwidthGBs: 1000, Family: "amd"}
	e, err := EstimateOn(tg, amd)
	if err != nil {
		t.Fatal(err)
	}
	if !e.Fits || !within(e.TokensPerSecond, 99.690, 0.01) || !within(e.OverheadSeconds, 0.0053958, 1e-12) {
		t.Errorf("fits %v speed %.3f overhead %v", e.Fits, e.TokensPerSecond, e.OverheadSeconds)
	}
	tg.Layers, tg.KVHeads, tg.HeadDim = 24, 4, 128
	if e, err = EstimateOn(tg, amd); err != nil || !e.Fits || !within(e.TokensPerSecond, 148.621, 0.01) {
		t.Errorf("24 layers: fits %v speed %.3f err %v", e.Fits, e.TokensPerSecond, err)
	}
}

func TestEstimateCatalogDevice(t *testing.T) {
	e, err := EstimateOn(customTarget(8, 32, 8, 128), Device{On: "NVIDIA GeForce RTX 4090"})
	if err != nil {
		t.Fatal(err)
	}
	// 24,564 MiB / 1,024 = 23.98828 GiB
	if e.Device.Family != FamilyNVIDIA || !within(e.UsableGiB, 23.98828, 1e-5) || e.DeviceName != "NVIDIA GeForce RTX 4090" {
		t.Errorf("device %+v usable %v", e.Device, e.UsableGiB)
	}
}

func TestEstimateBadDevice(t *testing.T) {
	tg := customTarget(8, 32, 8, 128)
	for _, c := range []struct {
		d     Device
		field string
	}{
		{Device{}, "on"},
		{Device{On: "no such board"}, "on"},
		{Device{On: "nvidia-t4", MemoryGiB: 16}, "on"},
		{Device{MemoryGiB: -1, BandwidthGBs: 100, Family: "amd"}, "memoryGiB"},
		{Device{MemoryGiB: math.NaN(), BandwidthGBs: 100, Family: "amd"}, "memoryGiB"},
		{Device{MemoryGiB: 16, BandwidthGBs: 0, Family: "amd"}, "bandwidthGBs"},
		{Device{MemoryGiB: 16, BandwidthGBs: 2e6, Family: "amd"}, "bandwidthGBs"},
		{Device{MemoryGiB: 16, BandwidthGBs: 100, Family: "tpu"}, "family"},
	} {
		_, err := EstimateOn(tg, c.d)
		var fe *target.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%+v: error %v, want one naming %s", c.d, err, c.field)
		}
	}
}

func TestEffectiveParamsB(t *testing.T) {
	for name, want := range map[string]float64{
		"google/gemma-3n-E4B-it": 4, "gemma4:e2b-mlx": 2, "unsloth/gemma-4-E2B-it": 2,
		"google/gemma-2-9b-it": 0, "meta-llama/Llama-3.1-8B": 0, "google/gemma-3-1b-it": 0,
	} {
		if got := EffectiveParamsB(name); got != want {
			t.Errorf("EffectiveParamsB(%q) = %v, want %v", name, got, want)
		}
	}
}

// On one RTX 4090 (23.99 GiB), the most downloaded models that fit, most downloaded first; every
// one is judged as EstimateOn judges it alone. Embedding models are left out (BAAI/bge-small-en-v1.5,
// the catalog's second most downloaded entry that fits, was listed with a decode speed).
func TestFittingModels(t *testing.T) {
	d := Device{On: "nvidia-rtx-4090"}
	list, err := FittingModels(d, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 10 {
		t.Fatalf("%d models", len(list))
	}
	for i, m := range list {
		if e, err := catalog.Lookup(m.Name); err != nil || e.Embedding {
			t.Errorf("%s: an embedding model in the list (%v)", m.Name, err)
		}
		if i > 0 && m.Downloads > list[i-1].Downloads {
			t.Errorf("%s (%d downloads) after %s (%d)", m.Name, m.Downloads, list[i-1].Name, list[i-1].Downloads)
		}
		tg := target.Default()
		tg.Model = m.Name
		e, err := EstimateOn(tg, d)
		if err != nil || !e.Fits || e.TokensPerSecond != m.TokensPerSecond || m.NeedGiB > 23.99 {
			t.Errorf("%s: alone fits %v at %.1f tok/s (list: %.1f), err %v", m.Name, e.Fits, e.TokensPerSecond, m.TokensPerSecond, err)
		}
	}
	for _, c := range []struct{ count, limit int }{{0, 10}, {9, 10}, {1, 0}, {1, 101}} {
		if _, err := FittingModels(d, c.count, c.limit); err == nil {
			t.Errorf("count %d limit %d: no error", c.count, c.limit)
		}
	}
	// A bad count reads as the claim's own error for n=9, field, label and range.
	_, err = FittingModels(d, 9, 10)
	if want := "Devices (count, n): must be a whole number from 1 to 8 devices (got 9)"; err == nil || err.Error() != want {
		t.Errorf("count 9: %v, want %q", err, want)
	}
	// A device too small for anything gives an empty list, not an error: 0.25 GiB.
	if list, err := FittingModels(Device{MemoryGiB: 0.25, BandwidthGBs: 100, Family: "other"}, 1, 5); err != nil || len(list) != 0 {
		t.Errorf("0.25 GiB: %d models, %v", len(list), err)
	}
}

// The longest context follows the KV cache per layer kind: the custom 8 B model with 24 of its
// 32 layers on a 4,096-token sliding window (2 × 8 × 128 × 2 B = 4,096 B per layer and token):
//
//	past 4,096 tokens, KV = 24 × 4,096 × 4,096 + 8 × 4,096 × T = 402,653,184 + 32,768 T bytes
//	room = (24 − 0.9716796875 reserve) × 2^30 − 4,899,205,545 = 24,726,470,656 − 4,899,205,545 = 19,827,265,111 B
//	T ≤ (19,827,265,111 − 402,653,184) / 32,768 = 592,792.1: 592,792 tokens
//
// (all 32 layers growing would allow 151,270).
func TestEstimateSlidingWindowContext(t *testing.T) {
	tg := customTarget(8, 32, 8, 128)
	tg.SlidingWindow, tg.SlidingLayers = 4096, 24
	e, err := EstimateOn(tg, Device{MemoryGiB: 24, BandwidthGBs: 1000, Family: "nvidia"})
	if err != nil {
		t.Fatal(err)
	}
	if e.MaxContextTokens != 592792 {
		t.Errorf("longest context %d, want 592792", e.MaxContextTokens)
	}
}

func TestActiveFromName(t *testing.T) {
	for _, c := range []struct {
		name    string
		paramsB float64
		want    float64
	}{
		{"moonshotai/Kimi-Linear-48B-A3B-Instruct", 49.1, 3},
		{"Qwen/Qwen3-235B-A22B", 235, 22},
		{"nvidia/Nemotron-3-Nano-30B-A3.5B", 30, 3.5},
		{"meta-llama/Llama-3.1-8B-Instruct", 8, 0},
		{"x/Model-A9B", 8, 0}, // not less than all of them
		{"x/AWQ-4bit-ABB", 8, 0},
	} {
		if got := ActiveFromName(c.name, c.paramsB); got != c.want {
			t.Errorf("ActiveFromName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

// ActiveFromName reads the parts strings.FieldsFunc gives (the rule before its byte loop): the
// same answer for every catalog name and 50,000 random names of separators, 'A', 'B', digits,
// '.', and a byte of any value now and then.
func TestActiveFromNameIsFields(t *testing.T) {
	fields := func(name string, paramsB float64) float64 {
		for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '/' || r == ':' }) {
			if len(part) < 3 || part[0] != 'A' && part[0] != 'a' || part[len(part)-1] != 'B' && part[len(part)-1] != 'b' {
				continue
			}
			if x, err := strconv.ParseFloat(part[1:len(part)-1], 64); err == nil && x > 0 && x < paramsB {
				return x
			}
		}
		return 0
	}
	check := func(name string, paramsB float64) {
		if got, want := ActiveFromName(name, paramsB), fields(name, paramsB); got != want {
			t.Fatalf("ActiveFromName(%q, %v) = %v, by strings.FieldsFunc %v", name, paramsB, got, want)
		}
	}
	for _, m := range catalog.Models() {
		check(m.Name, 1000)
		check(m.Name, 10)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	const alphabet = "-_/:AaBb0123456789.xé"
	for range 50000 {
		b := make([]byte, rng.IntN(16))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(20) == 0 {
				b[i] = byte(rng.IntN(256))
			}
		}
		check(string(b), float64(rng.IntN(100)))
	}
}

// A 4 GiB Pascal board (a GTX 1050 Ti: 4 GiB, 112 GB/s) holds google/gemma-4-E2B-it at Q4_K_M, as
// llmfit's community measured it doing (data/truth-train.tsv, 24.95 tok/s); the former flat
// 1.25 GiB reserve said it did not fit:
//
//	weights = 5,123,178,051 × 0.6124007 = 3,137,437,789 B = 2.92197 GiB
//	KV      = only the first 15 of 35 layers keep a cache (the last 20 reuse it), 3 full and 12
//	        sliding; a full (global) layer has 1 KV head of 512, a sliding one 1 of 256:
//	        3 × 2 × 512 × 2 B × 8,192 + 12 × 2 × 256 × 2 B × 512 = 50,331,648 + 6,291,456
//	        = 56,623,104 B = 0.05273 GiB
//	reserve = 451 MiB CUDA context + 512 × (262,144 vocabulary + 1,536 width) × 4 B
//	        = 0.44043 + 540,016,640 B (515 MiB) = 0.44043 + 0.50293 = 0.94336 GiB
//	need    = 2.92197 + 0.05273 + 0.94336 = 3.91806 GiB ≤ 4: fits (with 1.25: 4.2247 > 4)
//	longest context: room = 4 × 2^30 − 3,137,437,789 − 0.94336 × 2^30 = 144,605,091 B; past the
//	        512-token window the 12 sliding layers hold 6,291,456 B and each token adds
//	        3 × 2 × 512 × 2 = 6,144 B: (144,605,091 − 6,291,456) / 6,144 = 22,511.98: 22,511 tokens
func TestEstimateFourGiBPascal(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Quant = "google/gemma-4-E2B-it", "Q4_K_M"
	e, err := EstimateOn(tg, Device{MemoryGiB: 4, BandwidthGBs: 112, Family: "nvidia-pascal"})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Fits || !within(e.WeightsGiB, 2.92197, 1e-5) || !within(e.KVGiB, 0.052734375, 1e-9) ||
		!within(e.ReserveGiB, 0.943359375, 1e-9) || !within(e.NeedGiB, 3.91806, 1e-5) {
		t.Errorf("fits %v: weights %.5f + KV %.5f + reserve %.5f = %.5f GiB", e.Fits, e.WeightsGiB, e.KVGiB, e.ReserveGiB, e.NeedGiB)
	}
	if e.MaxContextTokens != 22511 {
		t.Errorf("longest context %d, want 22511", e.MaxContextTokens)
	}
}
