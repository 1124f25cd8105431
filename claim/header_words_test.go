package claim

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// renderLink renders the permalink q, failing the test if the link or the render is refused.
func renderLink(t *testing.T, q string) Result {
	t.Helper()
	tg, err := target.ParsePermalink(q)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// explainText renders the permalink q and returns its header lines, unwrapped, as one text.
func explainText(t *testing.T, q string) string {
	t.Helper()
	r := renderLink(t, q)
	return strings.Join(explainLines(&r.Bounds), "\n")
}

// A device's share of the KV cache under vLLM is what the fullest device keeps: 5 KV heads on 2
// devices, 3 on one, 3/5 (it read "1/3": 1/0.4 rounded, then 2/5, ⌊5/2⌋, which loses a head), and
// 32 heads on 3, 11 on one, 11/32 (5/16 before: 10 a device hold 30 of 32). Such heads are not
// copied: they do not divide (vLLM refuses the split, and the claim warns); 4 heads on 8 are.
func TestHeaderKVShareWords(t *testing.T) {
	for q, want := range map[string]string{
		"m=HuggingFaceTB%2FSmolLM2-360M-Instruct&s=kv&n=2&engine=vllm":          "0.36 GB weights + 0.20 GB KV each (3/5 of the KV cache: the 5 KV heads do not divide over the 2 devices: 3 on the fullest)",
		"m=NousResearch%2FLlama-2-7b-chat-hf&s=kv&n=3&engine=vllm":              "11/32 of the KV cache on each device (the 32 KV heads do not divide over the 3 devices: 11 on the fullest)",
		"m=meta-llama%2FLlama-3.3-70B-Instruct&s=kv&n=3&engine=vllm&drv=nvidia": "≥ 57,487 Mi (56.13 Gi) per device = ceil(131.42 GiB weights + 2.50 GiB KV cache, the weights split 3 ways, 3/8 of the KV cache on each device",
		"m=Qwen%2FQwen3-235B-A22B-Instruct-2507&s=kv&n=8&engine=vllm":           "1/4 of the KV cache: vLLM copies the 4 KV heads over the 8 devices",
	} {
		if h := explainText(t, q); !strings.Contains(h, want) {
			t.Errorf("%s: want %q in\n%s", q, want, h)
		}
	}
}

// llmfit's estimate of 0.000008 GB per billion parameters per token is fp16's; fit scales it to
// the KV type, and the kv line says so (an fp8 cache printed the fp16 rate beside half its GB).
func TestHeaderEstimatedKVRate(t *testing.T) {
	// moondream2 (1.927237104 B): 0.000008 × 1.927237104 × 4,096 × 1/2 = 0.0316 GB
	for q, want := range map[string]string{
		"m=vikhyatk%2Fmoondream2&s=kv&kv=fp8":  "fp8: estimated 0.03 GB (0.000008 GB per billion params per token at fp16 × 1 B / 2 B;",
		"m=vikhyatk%2Fmoondream2&s=kv":         "fp16: estimated 0.06 GB (0.000008 GB per billion params per token;",
		"m=vikhyatk%2Fmoondream2&s=kv&kv=q4_0": "at fp16 × 0.5625 B / 2 B;",
	} {
		if h := explainText(t, q); !strings.Contains(h, want) {
			t.Errorf("%s: want %q in\n%s", q, want, h)
		}
	}
	// and the warning says the same rate
	r := renderLink(t, "m=vikhyatk%2Fmoondream2&s=kv&kv=fp8")
	if want := "the KV cache is estimated (0.000008 GB per billion parameters per token at fp16 × 1 B / 2 B): the catalog lacks this model's layers, KV heads or head size"; !slices.Contains(r.Warnings, want) {
		t.Errorf("warnings %q, want %q", r.Warnings, want)
	}
}

// A Gemma "E" model's token reads its effective size, not all its weights (fit.WeightsReadB): the
// fit line says so, or its weights read (1.50 GB) contradict the model line's (3.9 GB).
func TestHeaderEffectiveRead(t *testing.T) {
	h := explainText(t, "m=Chunity%2Fgemma-4-E2B-it-AWQ-4bit&s=kv")
	if want := "s/token = (1.50 GB weights (the effective 2B of 5.1B: the per-layer embeddings stay in memory, not read) + 0.06 GB KV)"; !strings.Contains(h, want) {
		t.Errorf("want %q in\n%s", want, h)
	}
}

// README.md's worked example is what the engine computes: "Qwen3-30B-A3B in BF16 needs X GB/s for
// 20 tok/s from any vendor (Y from NVIDIA); llmfit's Q4_K_M arithmetic asks Z."
func TestReadmeWorkedExample(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	m := regexp.MustCompile(`Qwen3-30B-A3B in BF16 needs ([0-9]+) GB/s for 20 tok/s from any vendor \(([0-9]+) from NVIDIA\); llmfit's Q4_K_M arithmetic asks ([0-9]+)\.`).FindStringSubmatch(flat)
	if m == nil {
		t.Fatal("README.md no longer gives the worked example")
	}
	floor := func(q string) int64 {
		r := renderLink(t, q)
		return r.Bounds.MinBandwidthGBs
	}
	for i, q := range []string{"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv", "m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&drv=nvidia", "m=Qwen%2FQwen3-30B-A3B-Instruct-2507"} {
		if got := strconv.FormatInt(floor(q), 10); got != m[i+1] {
			t.Errorf("%s: %s GB/s; README.md says %s", q, got, m[i+1])
		}
	}
}

// The summary in words names the floors the claim asks: an AMD or Intel claim asks memory only,
// as its header says, so the summary does not give it a bandwidth floor as if it were one.
func TestExplainSummaryUnenforcedFloor(t *testing.T) {
	for q, want := range map[string]string{
		"m=Qwen%2FQwen3-8B&n=2&drv=amd": "ResourceClaim qwen-qwen3-8b-fit: 2 devices, each with ≥ 3 Gi of memory (the ≥ 96 GB/s bandwidth floor is not enforced: gpu.amd.com publishes no bandwidth), from device class gpu.amd.com.",
		"m=Qwen%2FQwen3-8B&drv=nvidia":  "ResourceClaim qwen-qwen3-8b-fit: a device with ≥ 5 Gi of memory and ≥ 173 GB/s of bandwidth, from device class gpu.nvidia.com.",
		// driver any: its firstAvailable alternatives, in order (it named llmfit.ai alone)
		"m=Qwen%2FQwen3-8B&drv=any": "ResourceClaim qwen-qwen3-8b-fit: a device with ≥ 5 Gi of memory and ≥ 173 GB/s of bandwidth, from device class llmfit.ai, else gpu.nvidia.com.",
	} {
		r := renderLink(t, q)
		if got := Explain(&r).Summary; got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
}
