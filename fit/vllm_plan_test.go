package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

var llama8B = VLLMInput{TotalGiB: 79.18, Device: "NVIDIA H100 80GB", WeightsGiB: 14.99, Vocab: 128256, Hidden: 4096,
	Cache: VLLMCache{FullLayers: 32, KVHeads: 8, HeadDim: 128, ElemBytes: 2}}

// Llama-3.1-8B on an H100, 8 requests of 32,768 tokens: vLLM's default utilization holds them.
func TestPlanVLLMDefaultIsEnough(t *testing.T) {
	p := PlanVLLM(llama8B, 32768, 8)
	// activation with 8 sequences: 9.52 × 8 × 128,256 × 4 / 2^30 + 1.43 × 0.0625 = 0.036388 + 0.089375
	// available = 71.262 − 14.99 − 0.125763 − 0.112 = 56.034237 GiB = 28,689 blocks of 2 MiB;
	// a request takes 32,768 / 16 = 2048 blocks: 14.008 at once, capped by --max-num-seqs 8
	if !p.OK || p.Utilization != 0.9 || p.MaxModelLen != 32768 || p.MaxNumSeqs != 8 || p.Requests != 8 {
		t.Fatalf("%+v", p)
	}
	nearly(t, "available", p.Result.KVCacheGiB, 56.034237, 1e-6)
	if p.Result.KVBlocks != 28689 {
		t.Errorf("blocks = %d, want 28689", p.Result.KVBlocks)
	}
	if p.Summary != "vLLM starts: 8 requests of 32768 tokens at once" || p.Fix != "" {
		t.Errorf("summary %q, fix %q", p.Summary, p.Fix)
	}
}

// 40 requests need more than 0.9: the plan raises the utilization to the least that holds them.
func TestPlanVLLMRaisesUtilization(t *testing.T) {
	p := PlanVLLM(llama8B, 32768, 30)
	// pool 30 × 4 GiB = 120 GiB: no utilization holds it; 16 requests = 64 GiB:
	// (14.99 + 9.52 × 16 × 128,256 × 4 / 2^30 + 0.089375 + 0.112 + 64) / 79.18
	// = (14.99 + 0.072775 + 0.089375 + 0.112 + 64) / 79.18 = 79.264150 / 79.18 > 0.98: not 16;
	// 15 requests: (14.99 + 0.068227 + 0.089375 + 0.112 + 60) / 79.18 = 75.259602 / 79.18 = 0.9505 → 0.96
	if p.OK {
		t.Fatalf("30 requests of 4 GiB fit on one H100: %+v", p)
	}
	// at the top utilization 0.98 (budget 77.5964) with 30 sequences the activation is
	// 9.52 × 30 × 128,256 × 4 / 2^30 + 0.089375 = 0.225829: 77.5964 − 14.99 − 0.225829 − 0.112
	// = 62.268571 GiB for 30 requests = 1062.7 blocks of 2 MiB each = 16,992 tokens.
	// 2 devices: 7.495 + 0.2258 + 0.55 + 30 × 2 GiB = 68.27 ≤ 77.6; fp8: 14.99 + 0.2258 + 0.112 + 60 = 75.33.
	want := "vLLM cannot hold 30 requests of 32768 tokens on 1 × 79.18 GiB; it would with 2 devices (--tensor-parallel-size 2), or an fp8 KV cache (--kv-cache-dtype fp8), or a context of 16992 tokens (--max-model-len 16992), or 15 requests at once (--max-num-seqs 15)"
	if p.Fix != want {
		t.Errorf("fix = %q\nwant  %q", p.Fix, want)
	}
	p = PlanVLLM(llama8B, 32768, 15)
	if !p.OK || p.Utilization != 0.96 || p.Requests != 15 {
		t.Errorf("15 requests: %+v", p)
	}
}

// Qwen3-32B (61.03 GiB of weights) cannot start at 131,072 tokens on one H100; the plan says
// so in vLLM's words and proposes 4 devices or a 16,704-token context.
func TestPlanVLLMImpossible(t *testing.T) {
	in := VLLMInput{TotalGiB: 79.18, Device: "NVIDIA H100 80GB", WeightsGiB: 61.03, Vocab: 151936, Hidden: 5120,
		Cache: VLLMCache{FullLayers: 64, KVHeads: 8, HeadDim: 128, ElemBytes: 2}}
	p := PlanVLLM(in, 131072, 4)
	// top utilization: ⌊(79.18 − 1.12) / 79.18 × 100⌋ / 100 = ⌊98.59⌋ / 100 = 0.98
	// available: 0.98 × 79.18 − 61.03 − (9.52 × 0.002264 + 1.43 × 0.078125) − 0.112 = 16.321128 GiB
	// one request: 64 layers × 2 × 8 × 128 × 2 B × 131,072 = 32 GiB > 16.32; 16.321128 GiB / 4 MiB
	// = 4178 blocks = 66,848 tokens at most
	if p.OK || p.Utilization != 0.98 || p.Result.Starts || p.Result.MaxModelLen != 66848 {
		t.Fatalf("%+v", p.Result)
	}
	nearly(t, "available", p.Result.KVCacheGiB, 16.321128, 1e-6)
	if p.Summary != "vLLM does not start: "+p.Result.Reason {
		t.Errorf("summary %q", p.Summary)
	}
	// TP 2: 30.515 + 0.133 + 0.55 + 4 × 16 GiB > 77.6; TP 4: 15.2575 + 0.133 + 0.55 + 4 × 8 = 47.94 fits.
	// context: 4 requests in 16.3211 GiB = 1044 blocks of 4 MiB each = 16,704 tokens
	want := "vLLM cannot hold 4 requests of 131072 tokens on 1 × 79.18 GiB; it would with 4 devices (--tensor-parallel-size 4), or a context of 16704 tokens (--max-model-len 16704)"
	if p.Fix != want {
		t.Errorf("fix = %q\nwant  %q", p.Fix, want)
	}
}

// The claim's floor under vLLM: Llama-3.1-8B, 8 × 32,768 tokens, limits of an unknown device
// (the large ones), utilization 0.9; the CUDA graphs (1.12 GiB) fit in the 10 % outside the budget.
func TestVLLMFloor(t *testing.T) {
	in := llama8B
	in.TotalGiB, in.Device = 0, ""
	got := VLLMFloorGiB(in, 32768, 8)
	// max((14.99 + 4.747109 + 0.112 + 8 × 4) / 0.9, 1.12 / 0.1) = max(51.849109 / 0.9, 11.2) = 57.610122
	nearly(t, "floor", got, 57.610122, 1e-6)
	// a device at the floor (a millionth of a GiB above: at exactly it, the budget's 32 GiB of KV
	// rounds to a hair under 16,384 blocks), at the default utilization, starts and holds the 8
	// requests; 0.01 GiB less holds fewer
	at := func(total float64) VLLMResult {
		return VLLM(VLLMInput{TotalGiB: total, WeightsGiB: 14.99, Vocab: 128256, Hidden: 4096, MaxNumSeqs: 1024, MaxTokens: 8192,
			MaxModelLen: 32768, Cache: llama8B.Cache})
	}
	if r := at(got + 1e-6); !r.Starts || r.MaxConcurrency < 8 {
		t.Errorf("at its floor: %+v", r)
	}
	if r := at(got - 0.01); r.MaxConcurrency >= 8 {
		t.Errorf("below its floor: %+v", r)
	}
}

// The claim under vLLM, then the plan on the smallest device it admits: Qwen2-7B-Instruct BF16,
// 4 sequences of 16,384 tokens on one device.
func TestVLLMClaimFloorAndPlan(t *testing.T) {
	qwen2 := func(tg *target.Target) {
		tg.Model, tg.Quant, tg.Sizing, tg.Context, tg.Sequences = "Qwen/Qwen2-7B-Instruct", "BF16", target.SizingKV, 16384, 4
	}
	b := resolve(t, qwen2)
	// large limits: activation 9.52 × 1024 × 152,064 × 4 / 2^30 + 1.43 × 8192 × 3584 × 2 / 2^30
	// = 9.52 × 0.580078 + 1.43 × 0.054688 = 5.522344 + 0.078203 = 5.600547;
	// (14.185191 + 5.600547 + 0.112 + 4 × 0.875) / 0.9 = 23.397738 / 0.9 = 25.997487 (above 1.12 / 0.1);
	// + 0.44 = 26.437487 → 27 Gi
	if got := ceilFloor(vllmClaimFloor(&b).GiB()); got != 27 {
		t.Errorf("floor = %d Gi, want 27", got)
	}
	// the claim under engine vllm has that floor
	bv := resolve(t, func(tg *target.Target) { qwen2(tg); tg.Engine = target.EngineVLLM })
	if bv.MemoryGi != 27 || bv.Engine != target.EngineVLLM {
		t.Errorf("claim floor under vllm = %d Gi (%s), want 27", bv.MemoryGi, bv.Engine)
	}
	nearly(t, "floor GiB", bv.MemoryGB, 26.437487, 1e-5)
	// the header's reserve: 26.437487 − 14.185191 − 3.5 = 8.752296 GiB, of which 5.60 activation,
	// 0.11 non-torch, 0.44 the driver keeps, and the 10 % outside the budget, where the CUDA graphs
	// go, 23.397738 / 0.9 − 23.397738 = 2.599749 (16,384 tokens are exactly 1024 blocks: no rounding)
	want := "8.75 GiB for vLLM V1 engine v0.11–v0.20: 5.60 activation peak + 0.11 non-torch + 2.60 outside " +
		"--gpu-memory-utilization 0.9 (vLLM's CUDA graphs, ≤ 1.12) + 0.44 the driver keeps"
	if bv.Reserve != want {
		t.Errorf("reserve %q\nwant    %q", bv.Reserve, want)
	}
	// on a 27 Gi device (26.56 GiB to CUDA, small limits): the default 0.9 holds the 4 requests
	p := PlanVLLMForClaim(&b, 27)
	if !p.OK || p.Utilization != 0.9 || p.Requests != 4 || p.Summary != "vLLM starts: 4 requests of 16384 tokens at once" {
		t.Errorf("%+v", p)
	}
}

// A utilization the user gives is kept: at 0.5 on the H100 (budget 39.59 GiB) Llama-3.1-8B's
// 8 requests of 32,768 tokens do not fit: 39.59 − 14.99 − 0.125763 − 0.112 = 24.362237 GiB
// = 12,473 blocks of 2 MiB = 6.09 requests of 2048 blocks.
func TestPlanVLLMKeepsGivenUtilization(t *testing.T) {
	in := llama8B
	in.Utilization = 0.5
	p := PlanVLLM(in, 32768, 8)
	if p.Utilization != 0.5 || p.OK || p.Requests != 6 || p.Summary != "vLLM starts: 6 requests of 32768 tokens at once" {
		t.Errorf("%+v", p)
	}
	if p.Result.KVBlocks != 12473 {
		t.Errorf("blocks %d, want 12473", p.Result.KVBlocks)
	}
	// at the default 0.9 they fit (TestPlanVLLMDefaultIsEnough): the fix says so
	if want := "vLLM cannot hold 8 requests of 32768 tokens on 1 × 79.18 GiB; it would with --gpu-memory-utilization 0.9"; p.Fix != want {
		t.Errorf("fix %q", p.Fix)
	}
}

// vLLM's budget must hold the need, and the CUDA graphs (1.12 GiB) the share outside it.
func TestVLLMDeviceGiB(t *testing.T) {
	for _, c := range []struct{ need, u, want float64 }{
		{70.72, 0.9, 78.577778}, // 70.72 / 0.9 = 78.577778; 1.12 / 0.1 = 11.2
		{4, 0.9, 11.2},          // 4 / 0.9 = 4.444444 < 1.12 / 0.1 = 11.2: the graphs need the 10 % of 11.2 GiB
		{4, 0.5, 8},             // 4 / 0.5 = 8; 1.12 / 0.5 = 2.24
		{4, 1, 5.12},            // nothing outside the budget: 4 + 1.12
	} {
		nearly(t, "device", vllmDeviceGiB(c.need, c.u), c.want, 1e-6)
	}
}

// The reserve's words never hold a negative term: a pool vLLM's model leaves below the kv line's
// cache is raised to it, and the blocks' rounding is said only when there is some.
func TestVLLMReserveWords(t *testing.T) {
	const head = "GiB for vLLM V1 engine v0.11–v0.20: 2.00 activation peak + 0.50 non-torch + "
	f := VLLMFloor{WeightsGiB: 10, ActivationGiB: 2, NonTorchGiB: 0.5, Utilization: 0.9, CUDAGraphGiB: 1.12, ShortfallGiB: 0.44}
	for _, c := range []struct {
		pool, kv, u float64
		mem         float64
		words       string
	}{
		// the pool (3) below the kv line (4): raised to 4; need 10 + 2 + 0.5 + 4 = 16.5, / 0.9 =
		// 18.333333 (> 1.12 / 0.1), + 0.44 = 18.773333; reserve 18.773333 − 10 − 4 = 4.773333,
		// outside 18.333333 − 16.5 = 1.833333; 2 + 0.5 + 1.833333 + 0.44 = 4.773333
		{3, 4, 0.9, 18.773333, "4.77 " + head + "1.83 outside --gpu-memory-utilization 0.9 (vLLM's CUDA graphs, ≤ 1.12) + 0.44 the driver keeps"},
		// the pool's blocks 0.3 beyond the cache: need 16.8, / 0.9 = 18.666667, + 0.44 = 19.106667;
		// reserve 5.106667 = 2 + 0.5 + 1.866667 outside + 0.3 blocks + 0.44
		{4.3, 4, 0.9, 19.106667, "5.11 " + head + "1.87 outside --gpu-memory-utilization 0.9 (vLLM's CUDA graphs, ≤ 1.12) + 0.30 KV blocks beyond the cache + 0.44 the driver keeps"},
		// at u = 1 the CUDA graphs go on top: need 15.5 + 1.12 = 16.62, + 0.44 = 17.06; reserve 4.06
		{3, 3, 1, 17.06, "4.06 " + head + "1.12 outside --gpu-memory-utilization 1 (vLLM's CUDA graphs, ≤ 1.12) + 0.44 the driver keeps"},
	} {
		f := f
		f.KVGiB, f.Utilization = c.pool, c.u
		mem, words := vllmReserve(f, 10, c.kv)
		nearly(t, "floor", mem, c.mem, 1e-5)
		if words != c.words {
			t.Errorf("pool %v kv %v u %v:\n got %q\nwant %q", c.pool, c.kv, c.u, words, c.words)
		}
	}
}

// Where the CUDA graphs' room sets the device, only its share beyond the utilization is outside
// the budget: the rest is budget the needs leave, which vLLM gives to KV blocks. Qwen3-1.7B's
// kv claim under vLLM printed "1.45 outside --gpu-memory-utilization 0.9" on an 11.20 GiB device,
// whose 10 % is 1.12.
func TestVLLMReserveWordsGraphsSetTheDevice(t *testing.T) {
	// need 1 + 2 + 0.5 + 1 = 4.5, / 0.9 = 5 < 1.12 / 0.1 = 11.2, + 0.44 = 11.64; reserve
	// 11.64 − 1 − 1 = 9.64 = 2 + 0.5 + 1.12 outside (11.2 × 0.1) + 5.58 budget (11.2 × 0.9 − 4.5) + 0.44
	f := VLLMFloor{WeightsGiB: 1, ActivationGiB: 2, NonTorchGiB: 0.5, KVGiB: 1, Utilization: 0.9, CUDAGraphGiB: 1.12, ShortfallGiB: 0.44}
	mem, words := vllmReserve(f, 1, 1)
	nearly(t, "floor", mem, 11.64, 1e-9)
	want := "9.64 GiB for vLLM V1 engine v0.11–v0.20: 2.00 activation peak + 0.50 non-torch + 1.12 outside --gpu-memory-utilization 0.9 " +
		"(vLLM's CUDA graphs, ≤ 1.12) + 5.58 budget left to KV blocks (11.20 GiB is the least device that leaves the CUDA graphs their room) + 0.44 the driver keeps"
	if words != want {
		t.Errorf("\n got %q\nwant %q", words, want)
	}
	// The same on a catalog model: Qwen3-1.7B at its 8,192 tokens.
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Engine = "Qwen/Qwen3-1.7B", target.SizingKV, target.EngineVLLM
	b, err := Resolve(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Reserve, "1.12 outside --gpu-memory-utilization 0.9") || !strings.Contains(b.Reserve, "budget left to KV blocks") {
		t.Errorf("Qwen3-1.7B: %s", b.Reserve)
	}
}
