package deploy

import (
	"slices"
	"strconv"

	"github.com/fitclaim/fitclaim/fit"
)

// DeepSeek-V4 under vLLM. vLLM's DeepSeek-V4 recipe (recipes.vllm.ai/deepseek-ai/DeepSeek-V4-Flash,
// "vLLM 0.20.1+"; the launch command of vllm.ai/blog/deepseek-v4 and vllm-project/vllm#40778) runs
// it with --kv-cache-dtype fp8 (its compressed entries and windows are stored as 448 fp8 + 64 bf16
// dimensions; there is no bf16 path), --block-size 256 (the sparse kernels' page), and
// --tokenizer-mode deepseek_v4 (V4's chat encoding; the V3 one does not fit). Every image that
// serves V4 needs these, so they are written whatever the image.
//
// The pinned image, v0.20.0, predates that minimum: vLLM v0.20.1 is the patch that stabilised V4
// (V4-Base support; the persistent top-k deadlock at TopK=1024, V4-Pro's index_topk; multi-stream
// pre-attention GEMM), so the Deployment says so and names the image to give. The claim's vLLM
// budget pages V4's cache in the same 256-token blocks (fit.VLLMDeepSeekV4BlockSize).
var deepSeekV4Args = []string{"--block-size", strconv.Itoa(fit.VLLMDeepSeekV4BlockSize), "--tokenizer-mode", "deepseek_v4"}

// vllmDeepSeekV4MinVersion is the first vLLM release the recipe names for DeepSeek-V4.
const vllmDeepSeekV4MinVersion = "v0.20.1"

// isDeepSeekV4 reports whether the catalog entry is a DeepSeek-V4 model (its architecture row is
// DeepSeek-V4's compressed attention), whatever the target overrides.
func isDeepSeekV4(b *fit.Bounds) bool { return b.Model.Arch.Attention == fit.AttentionCSA }

// deepSeekV4Plan adds V4's flags to args and says why in the header; fp8 is the KV cache vLLM
// runs V4 with, whatever the claim was sized for. note is the Deployment's warning about the
// pinned image, "" for a given one (taken at its word).
func deepSeekV4Plan(b *fit.Bounds, args []string, image string) (out []string, line, note string) {
	out = append(args, deepSeekV4Args...)
	line = "recipe: DeepSeek-V4 as vLLM's recipe runs it: --block-size " + strconv.Itoa(fit.VLLMDeepSeekV4BlockSize) + ", --tokenizer-mode deepseek_v4, --kv-cache-dtype fp8"
	if !slices.Contains(out, "--kv-cache-dtype") {
		out = append(out, "--kv-cache-dtype", "fp8")
		line += " (the claim was sized for an " + b.KVCache + " KV cache, more than vLLM keeps: kvCache fp8 sizes it as vLLM runs)"
	}
	if image == VLLMImage {
		note = "DeepSeek-V4 needs vLLM " + vllmDeepSeekV4MinVersion + " or later (its recipe's minimum: V4-Base support and the top-k 1024 fix V4-Pro needs), newer than the pinned " +
			VLLMVersion + ": give image vllm/vllm-openai:" + vllmDeepSeekV4MinVersion + " or later"
	}
	return out, line, note
}
