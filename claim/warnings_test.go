package claim

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

func TestWarnings(t *testing.T) {
	// llmfit mode leaves room for 7,233 fp16 tokens of Qwen2.5-7B (fit tests compute it) < 8,192.
	tg := target.Default()
	tg.Model = "Qwen/Qwen2.5-7B-Instruct"
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, "llmfit sizing computes no KV cache: the memory floor leaves room for about 7233 tokens of fp16 KV cache; use sizing kv to size for a context") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	// The fixture's 6 Gi leave room for 32,956 tokens > 4,096: no warning at all.
	rf, err := renderFixture(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rf.Warnings) != 0 {
		t.Errorf("fixture warnings: %q", rf.Warnings)
	}
	// Context longer than the model's.
	tg.Sizing, tg.Context = "kv", 65536
	r, err = Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, "context 65536 is longer than the model's 32768 tokens") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	// AMD: the bandwidth floor is not enforced; said in the warnings and the header.
	rf, err = renderFixture(t, func(t *target.Target) { t.Driver = "amd" })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rf.Warnings, "gpu.amd.com publishes no bandwidth: the 148 GB/s floor is not enforced by this claim, only memory") ||
		!strings.Contains(rf.YAML, "# driver: gpu.amd.com publishes no bandwidth and no product list is known: the ≥\n#         148 GB/s floor is NOT enforced, only memory\n") {
		t.Errorf("amd: %q\n%s", rf.Warnings, rf.YAML)
	}
	// Nothing fits one device: propose the smallest count.
	r, err = Render(target.Target{ParamsB: 405, MinTps: 20, EfficiencyPct: 55, Sizing: "llmfit", Sequences: 1, KVCache: "fp16", Driver: "llmfit", Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, "no accelerator in the catalog meets these floors with 1 device; 2 × NVIDIA B200 would (set count to 2)") {
		t.Errorf("405B warnings: %q", r.Warnings)
	}
	// Nothing fits even eight.
	rf, err = renderFixture(t, func(t *target.Target) { t.MinTps = 100000 })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rf.Warnings, "no accelerator in the catalog meets these floors, even 8 of them") {
		t.Errorf("100k tok/s warnings: %q", rf.Warnings)
	}
	// The matches travel with the result.
	if len(rf.Matches) != 157 { // every row of data/accelerators.csv
		t.Errorf("%d matches", len(rf.Matches))
	}
}

// Llama-2-7b's llmfit floor (4 Gi) is smaller than its weights (3.63 GiB) plus 0.5 GiB overhead:
// the warning says there is no room at all rather than "about 0 tokens".
func TestWarningNoKVRoom(t *testing.T) {
	tg := target.Default()
	tg.Model = "NousResearch/Llama-2-7b-chat-hf"
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bounds.KVTokensRoom != 0 || !slices.Contains(r.Warnings, "llmfit sizing computes no KV cache: the memory floor leaves no room for a KV cache beside the weights and 0.5 GiB of runtime overhead; use sizing kv to size for a context") {
		t.Errorf("room %d, warnings %q", r.Bounds.KVTokensRoom, r.Warnings)
	}
}

// A custom model sized without its shape was told "the catalog lacks this model's layers, KV
// heads or head size": it is not in the catalog, and the fix is the user's to make.
func TestEstimatedKVWarningOfCustomModel(t *testing.T) {
	tg := target.Default()
	tg.ParamsB, tg.Sizing = 70, target.SizingKV
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	want := "the KV cache is estimated (0.000008 GB per billion parameters per token): give the model's Layers, KV heads and Head dimension (layers, kvHeads, headDim) to size it"
	if !slices.Contains(r.Warnings, want) {
		t.Errorf("warnings: %q", r.Warnings)
	}
}

// A kv claim with engine vllm and a KV-cache type vLLM has not (q8_0, q4_0: llama.cpp's) was
// sized without a word; `fitclaim deploy` refused to start it.
func TestVLLMClaimWarnsOfLlamaCppKVCache(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.KVCache, tg.Engine = "Qwen/Qwen3-8B", target.SizingKV, "q4_0", target.EngineVLLM
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if want := "vLLM has no q4_0 KV cache (it is llama.cpp's): set kvCache fp8, or engine llama.cpp"; !slices.Contains(r.Warnings, want) {
		t.Errorf("warnings: %q", r.Warnings)
	}
	tg.Engine = "" // the llama.cpp-style reserve: q4_0 is its own
	if r, err = Render(tg); err != nil || slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "KV cache (it is llama.cpp's)") }) {
		t.Errorf("llama.cpp: %v %q", err, r.Warnings)
	}
}

// A kv claim under vLLM sized for weights vLLM would not load (a GGUF type of a 16-bit
// repository) was written without a word; `fitclaim deploy` refused to start it.
func TestVLLMClaimWarnsOfWeightsItWouldNotLoad(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Quant, tg.Engine = "Qwen/Qwen3-8B", target.SizingKV, "Q4_K_M", target.EngineVLLM
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, "vLLM would load Qwen/Qwen3-8B's 16-bit weights") }) {
		t.Errorf("warnings: %q", r.Warnings)
	}
	tg.Quant = "BF16"
	if r, err = Render(tg); err != nil || slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, "vLLM would load") }) {
		t.Errorf("BF16: %v %q", err, r.Warnings)
	}
}

// llmfit's sizing reads no context, sequences, KV-cache type, engine or architecture: a value
// given for one of them changed nothing in the claim and was met only by the generic "use
// sizing kv" warning (when the model's context did not fit); the warning names those given.
func TestWarningIgnoredBySizing(t *testing.T) {
	const want = "sizing llmfit ignores context, sequences, kvCache, layers, engine, gpuMemoryUtilization: use sizing kv to size the claim for them"
	tg := target.Default()
	tg.Model = "Qwen/Qwen3-8B"
	tg.Context, tg.Sequences, tg.KVCache, tg.Engine, tg.Layers, tg.GPUMemoryUtilization = 4096, 4, "fp8", "vllm", 30, 0.8
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.Warnings, want) {
		t.Errorf("warnings: %q", r.Warnings)
	}
	// One field is "it" ("ignores engine: … for them" read wrong).
	one := target.Default()
	one.Model, one.Engine = "Qwen/Qwen3-8B", "vllm"
	if r, err := Render(one); err != nil || !slices.Contains(r.Warnings, "sizing llmfit ignores engine: use sizing kv to size the claim for it") {
		t.Errorf("engine alone: %v %q", err, r.Warnings)
	}
	// The defaults, spelled as given (sequences 1, an upper-case fp16), ask nothing it lacks;
	// nor does llmfit's own fixture (its goldens).
	tg = target.Default()
	tg.Model, tg.Sequences, tg.KVCache = "Qwen/Qwen3-8B", 1, "FP16"
	if r, err = Render(tg); err != nil {
		t.Fatal(err)
	}
	rf, err := renderFixture(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range append(r.Warnings, rf.Warnings...) {
		if strings.Contains(w, "ignores") {
			t.Errorf("defaults: %q", w)
		}
	}
	// sizing kv reads them all.
	tg.Sizing, tg.Context = target.SizingKV, 4096
	if IgnoredBySizing(&tg) != "" {
		t.Errorf("kv: %q", IgnoredBySizing(&tg))
	}
}

// llmfit's arithmetic sizes unsloth/gpt-oss-20b-GGUF on the catalog's 1.8B parameters (packed
// tensors): 1.0 GB at Q4_K_M, a 2 Gi floor. The release holds 20.91B, × 0.58 B = 12.13 GB = 11.3 GiB at
// llmfit's own bytes a parameter, which the floor cannot hold: the claim's bytes stay llmfit's,
// a warning says so. Llama-3.1-8B (the counts agree) and Qwen2-0.5B (0.4B counted, 0.5B real,
// both in its 1 Gi floor) get none.
func TestWarningLlmfitCountIsNotTheRelease(t *testing.T) {
	want := "llmfit sizes unsloth/gpt-oss-20b-GGUF on the catalog's 1.8B parameters, but its release holds 20.9B " +
		"(sizing kv's params line says why), whose 11.3 GiB at Q4_K_M this claim's 2 Gi floor cannot hold; use sizing kv to size on the release's"
	for model, warned := range map[string]bool{"unsloth/gpt-oss-20b-GGUF": true, "meta-llama/Llama-3.1-8B-Instruct": false, "Qwen/Qwen2-0.5B": false} {
		tg := target.Default()
		tg.Model = model
		r, err := Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range r.Warnings {
			if strings.HasPrefix(w, "llmfit sizes ") {
				got = true
				if warned && w != want {
					t.Errorf("%s:\n got %q\nwant %q", model, w, want)
				}
			}
		}
		if got != warned {
			t.Errorf("%s: warned %v, want %v (%q)", model, got, warned, r.Warnings)
		}
	}
}
