package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// The gated repositories of llmfit's catalog carry no vocabulary or width (meta-llama's,
// google's), so vLLM's activation peak was sized on the fallbacks (152,064 tokens, 8,192 wide).
// Their width is architectures.csv's hidden_size, and their vocabulary is that of the catalog's
// re-uploads of the same architecture (Llama-3.1-8B: 128,256; Gemma-3-27B: 262,208, larger than
// the fallback, so the floor erred low).
//
// Llama-3.1-8B-Instruct on an H100 SXM (a large device: 1024 sequences, 8192 batched tokens):
//
//	logits = 1024 × 128,256 × 4 B = 0.489258 GiB; states = 8192 × 4096 × 2 B = 0.0625 GiB
//	act    = 9.52 × 0.489258 + 1.43 × 0.0625 = 4.657737 + 0.089375 = 4.747112 GiB
//
// vLLM logged 4.76 GiB for this model on this GPU (data/vllm-train.tsv, llmd-05); the fallbacks
// gave 9.52 × 0.580078 + 1.43 × 0.125 = 5.701 GiB.
//
// Gemma-3-27B-it: logits = 1024 × 262,208 × 4 B = 1.000244 GiB; states = 8192 × 5376 × 2 B =
// 0.082031 GiB; act = 9.52 × 1.000244 + 1.43 × 0.082031 = 9.522323 + 0.117305 = 9.639628 GiB.
func TestVLLMActivationUsesTheArchitecture(t *testing.T) {
	for _, c := range []struct {
		model         string
		vocab, hidden int
		act           float64
	}{
		{"meta-llama/Llama-3.1-8B-Instruct", 128256, 4096, 4.747112},
		{"google/gemma-3-27b-it", 262208, 5376, 9.639628},
		{"meta-llama/Llama-3.3-70B-Instruct", 128256, 8192, 9.52*1024*128256*4/gib + 1.43*8192*8192*2/gib},
	} {
		b := resolve(t, func(tg *target.Target) { tg.Model, tg.Sizing, tg.Engine = c.model, target.SizingKV, target.EngineVLLM })
		in := VLLMInputFor(&b, 79.18, "NVIDIA H100 SXM 80GB")
		if in.Vocab != c.vocab || in.Hidden != c.hidden {
			t.Errorf("%s: vocab %d hidden %d, want %d and %d", c.model, in.Vocab, in.Hidden, c.vocab, c.hidden)
		}
		if r := VLLM(in); !within(r.ActivationGiB, c.act, 1e-5) {
			t.Errorf("%s: activation %.6f GiB, want %.6f", c.model, r.ActivationGiB, c.act)
		}
	}
}
