package fit

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// The KV-aware mode sizes the weights a repository releases, so it needs that release's real
// parameter count. llmfit's catalog takes the count from the Hugging Face metadata, which counts
// the elements of the stored tensors: a packed quantized release counts its containers, not its
// weights (an AWQ or GPTQ int32 holds 8 four-bit weights, an NVFP4 uint8 holds 2, and the scales
// count as parameters too), so nvidia/Qwen3-32B-NVFP4 has 17.2 billion "parameters" against
// Qwen/Qwen3-32B's 32.8, and the format's bits would then be applied to a count already shrunk by
// them. llmfit mode keeps the catalog's count, as llmfit does.

// ReleaseParams is the parameter count the KV-aware mode sizes a catalog entry on.
type ReleaseParams struct {
	TotalB, ActiveB float64 // billions; ActiveB = TotalB for a dense model
	// RoutedB is the routed experts' matrices, where known exactly (0: derived from TotalB,
	// ActiveB and the expert counts, WeightFormat.BytesPerParam).
	RoutedB float64
	// From says where the count came from when it is not the catalog entry's own ("" = its own).
	From string
}

// releaseFacts are counts worked out from a model family's config.json, for the releases whose
// catalog count is wrong in a way no other entry corrects.
//
// gpt-oss (OpenAI's model card, "gpt-oss-120b & gpt-oss-20b Model Card", table 1: 116.83 B total,
// 5.13 B active, a 60.8 GiB checkpoint; 20.91 B, 3.61 B, 12.8 GiB) from config.json's shapes,
// hidden 2,880, expert width 2,880, 64 query and 8 KV heads of 64, vocabulary 201,088:
//   - one expert: gate_up 2,880 × 5,760 + down 2,880 × 2,880 = 24,883,200 weights (MXFP4), and
//     5,760 + 2,880 = 8,640 biases (BF16);
//   - one layer's attention: q 2,880 × 4,096 + 4,096, k and v 2,880 × 512 + 512 each, o 4,096 ×
//     2,880 + 2,880, 64 sinks = 26,550,144; the router 2,880 × E + E; two norms 2 × 2,880;
//   - embedding and unembedding 2 × 201,088 × 2,880 = 1,158,266,880, and the final norm 2,880.
//
// 120b, 36 layers × 128 experts: routed 36 × 128 × 24,883,200 = 114,661,785,600; total
// 114,661,785,600 + 36 × 128 × 8,640 (39,813,120) + 36 × 368,768 (13,275,648) + 36 × 26,550,144
// (955,805,184) + 36 × 5,760 + 2,880 (210,240) + 1,158,266,880 = 116,829,156,672 (the count of
// the BF16 re-upload unsloth/gpt-oss-120b-BF16 exactly); active (4 experts, the unembedding, as
// the card counts) 36 × 4 × 24,891,840 + 13,275,648 + 955,805,184 + 210,240 + 579,133,440 =
// 5,132,849,472. The catalog's 120.4 B counts the MXFP4 scales (one per 32 weights: 3.58 B) as
// parameters, and its 9.6 B active is no count of the model.
// 20b, 24 layers × 32 experts: routed 24 × 32 × 24,883,200 = 19,110,297,600; total
// 20,914,757,184; active 24 × 4 × 24,891,840 + 24 × 92,192 + 24 × 26,550,144 + 24 × 5,760 + 2,880
// + 579,133,440 = 3,608,307,264.
//
// phi-4 (Lightning-AI/litgpt's copy of its config.json: 40 layers of width 5,120, 40 query heads in
// 10 groups of 128, MLP 17,920, vocabulary 100,352, LM head untied): a layer is q and o 2 × 5,120² +
// k and v 2 × 5,120 × 1,280 + MLP 3 × 5,120 × 17,920 + two norms 2 × 5,120 = 340,797,440; 40 of them
// 13,631,897,600, + embedding and LM head 2 × 100,352 × 5,120 = 1,027,604,480, + the final norm 5,120
// = 14,659,507,200 (its re-upload unsloth/phi-4's count exactly). llmfit's catalog gives
// microsoft/phi-4 the model card's rounded 14 B.
//
// Kimi-K2-Thinking, K2.5 and K2.6 keep their routed experts in INT4 with one bf16 scale per 32
// weights (formats.go, expertFormats), and llmfit's catalog counts those scales as parameters:
// Kimi-K2's shapes (moeactive.go) route 60 layers × 384 experts × 44,040,192 =
// 1,014,686,023,680 weights, whose 31,708,938,240 scales K2-Thinking's 1,058,118,284,416 holds
// beside 1,026,409,346,176 weights (Kimi-K2's text model, 1,026,408,232,448 by its shapes); K2.5
// and K2.6 hold 1,058,589,420,528: 1,026,880,482,288 weights with their vision tower.
//
// Qwen3-32B (maxtext's qwen3_32b_config: 64 layers of width 5,120, 64 query heads and 8 KV heads of
// 128, MLP 25,600, vocabulary 151,936, LM head untied): a layer is q and o 2 × 5,120 × 8,192 + k
// and v 2 × 5,120 × 1,024 + MLP 3 × 5,120 × 25,600 + q and k norms 2 × 128 + two norms 2 × 5,120 =
// 487,598,336; 64 of them 31,206,293,504, + embedding and LM head 2 × 151,936 × 5,120 =
// 1,555,824,640, + the final norm 5,120 = 32,762,123,264 (Qwen: 32.8 B). The catalog has no 16-bit
// Qwen/Qwen3-32B, and its FP8 release counts 24.3 B, so the name's 32 B was used.
var releaseFacts = map[string]ReleaseParams{
	"Qwen/Qwen3-32B":                        {TotalB: 32.762123264, ActiveB: 32.762123264, From: "counted from config.json's shapes (32.76B; Qwen: 32.8B)"},
	"moonshotai/Kimi-K2-Thinking (K2 arch)": {TotalB: 1026.409346176, ActiveB: 32.861500928, RoutedB: 1014.68602368, From: kimiINT4Words},
	"moonshotai/Kimi-K2.5":                  {TotalB: 1026.880482288, ActiveB: 32.861500928, RoutedB: 1014.68602368, From: kimiINT4Words},
	"moonshotai/Kimi-K2.6 (kimi_k25 arch)":  {TotalB: 1026.880482288, ActiveB: 32.861500928, RoutedB: 1014.68602368, From: kimiINT4Words},
	"microsoft/phi-4":                       {TotalB: 14.6595072, ActiveB: 14.6595072, From: "counted from config.json's shapes (14.66B, the count of its re-upload unsloth/phi-4)"},
	// llmfit's 422,395,904 for Qwen2-0.5B is no count of its tensors: its shapes (architectures.csv's
	// row; MLP 4,864, mlc-llm's qwen2_0_5b) are Qwen2-0.5B-Instruct's and Qwen2.5-0.5B's, 494,032,768
	// (params_test.go)
	"Qwen/Qwen2-0.5B": {TotalB: 0.494032768, ActiveB: 0.494032768, From: "counted from config.json's shapes (0.49B, the count of Qwen/Qwen2-0.5B-Instruct and Qwen2.5-0.5B)"},
	// llmfit's 322,437,119 for SmolLM2-360M-Instruct, an odd number, counts no tensors of its shapes
	// (litgpt's SmolLM2-360M{}); the base's 361,821,120 does (params_test.go)
	"HuggingFaceTB/SmolLM2-360M": {TotalB: 0.36182112, ActiveB: 0.36182112, From: "counted from config.json's shapes (0.36B, the count of HuggingFaceTB/SmolLM2-360M)"},
	// llmfit's 2,917,072,895 for Phi-3-mini-128k-instruct, an odd number, counts no tensors of its
	// shapes, which are the 4k model's (architectures.csv; litgpt's Phi-3-mini-128k-instruct), and
	// the 4k's catalog count, 3,821,079,552, is theirs (params_test.go)
	"microsoft/Phi-3-mini-128k-instruct": {TotalB: 3.821079552, ActiveB: 3.821079552, From: "counted from config.json's shapes (3.82B, the count of microsoft/Phi-3-mini-4k-instruct)"},
	// Qwen3-0.6B and 1.7B tie the LM head to the embedding (config.json tie_word_embeddings, as
	// maxtext's qwen3_0_6b_config and qwen3_1_7b_config copy it), but their repositories store a copy
	// as lm_head.weight, which llmfit counts (751,632,384 and 2,031,739,904: the shapes' count plus
	// one more 151,936-row embedding, exactly) and which neither vLLM (qwen3.py Qwen3ForCausalLM:
	// lm_head = embed_tokens, load_weights skip_prefixes ["lm_head."] when tied) nor Qwen's own GGUF
	// files hold, though files converted with convert_hf_to_gguf.py keep it (tied_head_evidence_test.go); Qwen3Guard-Gen-0.6B (the -Base row) stores the same copy, and llmfit's Qwen3-0.6B-Base
	// count (449,183,744) is no count of these shapes. Qwen2.5-Coder-1.5B: llmfit's 1,268,318,208
	// is none either; the shapes' (litgpt's Qwen2.5-Coder-1.5B{}) are its -Instruct's and Qwen2.5-
	// 1.5B's count (params_test.go)
	"Qwen/Qwen3-0.6B":                    {TotalB: 0.59604992, ActiveB: 0.59604992, From: qwen3TiedWords},
	"Qwen/Qwen3-0.6B-Base":               {TotalB: 0.59604992, ActiveB: 0.59604992, From: qwen3TiedWords},
	"Qwen/Qwen3-1.7B":                    {TotalB: 1.720574976, ActiveB: 1.720574976, From: qwen3TiedWords},
	"Qwen/Qwen2.5-Coder-1.5B(-Instruct)": {TotalB: 1.543714304, ActiveB: 1.543714304, From: "counted from config.json's shapes (1.54B, the count of Qwen/Qwen2.5-Coder-1.5B-Instruct and Qwen2.5-1.5B)"},
	// allenai/Olmo-3.1-32B-Instruct: llmfit's 25,343,703,040 is no count of its shapes (architectures.csv:
	// maxtext's olmo3-32b.yml, copied from this model's config.json), which sum to 32,233,522,176, the
	// catalog's count of allenai/Olmo-3-1125-32B and Olmo-3.1-32B-Think (params_test.go)
	"allenai/Olmo-3.1-32B-Instruct": {TotalB: 32.233522176, ActiveB: 32.233522176, From: "counted from config.json's shapes (32.23B, the count of allenai/Olmo-3-1125-32B and Olmo-3.1-32B-Think)"},
	// Mistral-7B-Instruct-v0.1: llmfit's 6,036,652,032 is no count of its shapes (mlc-llm's and
	// litgpt's Mistral-7B-v0.1), which are the base's, 7,241,732,096 (params_test.go)
	"mistralai/Mistral-7B-v0.1 / Instruct-v0.1": {TotalB: 7.241732096, ActiveB: 7.241732096, From: "counted from config.json's shapes (7.24B, the count of mistralai/Mistral-7B-v0.1)"},
	// Gemma-3-4B ties its LM head to the embedding, and vLLM's Gemma 3 loader skips lm_head.weight
	// (gemma3.py Gemma3ForCausalLM: asserts tie_word_embeddings, logits from embed_tokens,
	// AutoWeightsLoader skip_prefixes ["lm_head."]; tied_head_evidence_test.go): google/translategemma-4b-it's
	// 4,971,331,952 is gemma-3-4b-it's 4,300,079,472 plus a stored copy of the 262,208 × 2,560
	// embedding (671,252,480), exactly (params_test.go)
	"google/gemma-3-4b-it/pt": {TotalB: 4.300079472, ActiveB: 4.300079472, From: "the count of google/gemma-3-4b-it, whose LM head is the embedding: the repository's copy of it (lm_head.weight), which the catalog counts, vLLM does not load"},
	// Nemotron-H-8B-Base-8K and -56B-Base-8K (architectures.csv: NVIDIA-NeMo/Megatron-Bridge's
	// NemotronHModelProvider8B / 56B, which its test holds equal to the config.json conversions):
	// width h, a Mamba-2 layer of H heads × 64 (d = 64H), state N, 8 groups: in_proj h × (2d + 16N +
	// H), conv1d (d + 16N) × 4 weights + (d + 16N) biases, dt_bias, A_log and D H each, the gated norm d,
	// out_proj d × h; an MLP layer (squared ReLU, no gate) 2 × h × ffn; an attention layer q and o
	// 2 × h × 128Q, k and v 2 × h × 1,024; a norm h before every layer and after the last; embedding
	// and LM head (untied) 2 × 131,072 × h. 8B (h 4,096, H 128, N 128, ffn 21,504, Q 32; 24 M, 24 MLP,
	// 4 attention): 24 × 109,635,968 + 24 × 176,160,768 + 4 × 41,943,040 + 53 × 4,096 + 1,073,741,824
	// = 8,100,852,736 (NVIDIA: 8B). 56B (h 8,192, H 256, N 256, ffn 32,768, Q 64; 54, 54, 10):
	// 54 × 438,424,320 + 54 × 536,870,912 + 10 × 150,994,944 + 119 × 8,192 + 2,147,483,648 =
	// 56,324,350,464 (NVIDIA: 56B). The same sum for NemotronNanoModelProvider9Bv2's shapes is
	// NVIDIA-Nemotron-Nano-9B-v2's catalog count, 8,888,227,328, exactly (params_test.go). llmfit's
	// 16,995,319,808 and 96,099,893,248 (2.10 and 1.71 times these) are no count of these shapes.
	"nvidia/Nemotron-H-8B-Base-8K":  {TotalB: 8.100852736, ActiveB: 8.100852736, From: "counted from config.json's shapes (8.10B; NVIDIA: 8B)"},
	"nvidia/Nemotron-H-56B-Base-8K": {TotalB: 56.324350464, ActiveB: 56.324350464, From: "counted from config.json's shapes (56.32B; NVIDIA: 56B)"},
	// NVIDIA-Nemotron-3-Nano-4B (architectures.csv: the pattern and widths NVIDIA's Safe-Synthesizer
	// policy fingerprints; 8 groups, 40 query heads, MLP 12,544): the same sum, h 3,136, H 96 heads of
	// 80 (d 7,680), N 128; 21 M, 17 MLP, 4 attention: 21 × 79,033,632 + 17 × 78,675,968 + 4 × 38,535,168
	// + 43 × 3,136 + 822,083,584 = 3,973,556,832, the FP8 release's catalog count less 68 scales
	// (3,973,556,900); llmfit's 5,367,627,776 for the BF16 release is no count of these shapes.
	"nvidia/NVIDIA-Nemotron-3-Nano-4B": {TotalB: 3.973556832, ActiveB: 3.973556832, From: "counted from config.json's shapes (3.97B; NVIDIA: 4B)"},
	// Three counts the catalog has for no shape of its model (s15-mlaswa; architectures.csv's rows, transformers'
	// configuration classes, whose defaults are these checkpoints'):
	//   - allenai/OLMoE-1B-7B-0924: 16 layers of 2,048, attention 4 × 2,048² + q/k norms 2 × 2,048, 64
	//     experts of 3 × 2,048 × 1,024, router 64 × 2,048, two norms; untied 50,304-row embedding and head:
	//     16 × 419,569,664 + 206,045,184 + 2,048 = 6,919,161,856, its -Instruct's and the 0125 releases'
	//     count exactly (llmfit: 438,566,912); active (8 experts, the head) 1,282,017,280 (params_test.go)
	//   - baidu/ERNIE-4.5-21B-A3B-PT: 28 layers of 2,560 (20 query and 4 KV heads of 128), layer 0 a dense
	//     3 × 2,560 × 12,288 MLP, 27 layers of 64 experts and 2 shared of 3 × 2,560 × 1,536, router 64 ×
	//     2,560 and a 64-element bias; tied 103,424-row embedding: 21,825,437,888, ERNIE-4.5-21B-A3B-
	//     Thinking's count exactly (llmfit: 2,760,376,320); active (6 + 2 experts) 3,352,150,208
	//   - upstage/Solar-Open-100B: 48 layers of 4,096 (64 query and 8 KV heads of 128), 128 experts and 1
	//     shared of 3 × 4,096 × 1,280, router 128 × 4,096; untied 196,608-row embedding and head:
	//     102,651,793,408 (Upstage: 102B; llmfit: 8,053,063,680); active (8 + 1 experts, the head)
	//     11,249,520,640 (Upstage's 12B counts the embedding too)
	"allenai/OLMoE-1B-7B-0924":   {TotalB: 6.919161856, ActiveB: 1.28201728, From: "counted from config.json's shapes (6.92B, the count of allenai/OLMoE-1B-7B-0924-Instruct)"},
	"baidu/ERNIE-4.5-21B-A3B-PT": {TotalB: 21.825437888, ActiveB: 3.352150208, From: "counted from config.json's shapes (21.83B, the count of baidu/ERNIE-4.5-21B-A3B-Thinking)"},
	"upstage/Solar-Open-100B":    {TotalB: 102.651793408, ActiveB: 11.24952064, From: "counted from config.json's shapes (102.65B; Upstage: 102B)"},
	"openai/gpt-oss-120b":        {TotalB: 116.829156672, ActiveB: 5.132849472, RoutedB: 114.6617856, From: "counted from config.json's shapes, as OpenAI's model card gives them (116.83B, 5.13B active, 114.66B in the MXFP4 experts)"},
	"openai/gpt-oss-20b":         {TotalB: 20.914757184, ActiveB: 3.608307264, RoutedB: 19.1102976, From: "counted from config.json's shapes, as OpenAI's model card gives them (20.91B, 3.61B active, 19.11B in the MXFP4 experts)"},
}

// qwen3TiedWords says where a small Qwen3's count comes from.
const qwen3TiedWords = "counted from config.json's shapes, the LM head tied to the embedding: vLLM does not load the " +
	"repository's copy of it (lm_head.weight), which the catalog counts; a GGUF file converted from the repository may keep it"

// kimiINT4Words says where a native-INT4 Kimi's count comes from.
const kimiINT4Words = "the catalog's count less one bf16 scale per 32 INT4 expert weights, which it counts as parameters " +
	"(1,014.69B routed weights in Kimi-K2's shapes, 32.86B active)"

// packedShare is how far below its base a quantized release's catalog count must be to be read
// as a count of packed tensors: an AWQ/GPTQ release counts ~0.15–0.3 of its weights, an NVFP4 one
// ~0.55–0.65; a real re-upload differs from its base by a few percent (an LM head stored untied).
const packedShare = 0.9

// ReleaseParamsOf is the count the KV-aware mode sizes a catalog entry on: releaseFacts for its
// architecture; else, for a quantized release whose catalog count is under packedShare of its
// base's, the count of that base — the catalog's 16-bit entry of the same name without the
// format words, else the size its name states ("…-27B-…"), else the FP8 entry of the same name,
// else the entry architectures.csv names as its base; else the entry's own. A mixture of experts
// whose architecture moeActiveFacts counts (moeactive.go) takes that active count.
func ReleaseParamsOf(m *catalog.Model) ReleaseParams {
	p, counted := releaseParams(m)
	if _, exact := releaseFacts[m.Arch.Base]; exact && m.Arch.Base != "" {
		return p
	}
	f, ok := moeActiveOf(m)
	if !(p.ActiveB < p.TotalB) && !(ok && f.Shapes != "" && m.Arch.Base != "" && moeActiveFacts[m.Arch.Base] == f) {
		// read dense: the catalog marks no mixture of experts and the name states no active size,
		// unless the entry's own row is an architecture moeActiveFacts counts (Jamba-Mini-1.5:
		// config.json's experts, which the catalog does not mark)
		return p
	}
	for _, kin := range []*catalog.Model{counted, unpackedKin(stem(m.Name)), baseEntry(m)} {
		if !ok && kin != nil && kin != m {
			f, ok = moeActiveOf(kin) // a re-upload of the family (Qwen3-Coder-Next-AWQ-4bit, whose count is its base's)
		}
	}
	if !ok || !(f.ActiveB < p.TotalB) {
		return p
	}
	if !within1pc(p.ActiveB, f.ActiveB) {
		said := "active " + strconv.FormatFloat(f.ActiveB, 'f', 2, 64) + "B: every weight but the routed experts a token skips, counted from " +
			f.Shapes + "'s config.json shapes (the catalog says " + strconv.FormatFloat(p.ActiveB, 'f', 2, 64) + "B)"
		if p.From == "" {
			p.From = said
		} else {
			p.From += "; " + said
		}
	}
	p.ActiveB = f.ActiveB
	return p
}

// releaseParams is ReleaseParamsOf before the active count, and the entry it counted from (m, or
// the unpacked entry whose count a packed release takes).
func releaseParams(m *catalog.Model) (ReleaseParams, *catalog.Model) {
	own := ownParams(m)
	if f, ok := releaseFacts[m.Arch.Base]; ok && m.Arch.Base != "" {
		if !within1pc(own.TotalB, f.TotalB) || !within1pc(own.ActiveB, f.ActiveB) {
			said := billions(own.TotalB)
			if f.ActiveB < f.TotalB {
				said += ", " + billions(own.ActiveB) + " active,"
			}
			f.From += "; the catalog's " + said + " is not the model's"
		} else {
			f.From = ""
		}
		return f, m
	}
	if k := sameTensors(m); k != nil { // a copy of a natively quantized release (kinarch.go)
		out, _ := releaseParams(k)
		said := k.Name + "'s release (the same " + billions(own.TotalB) + " count, no format in the name)"
		if out.From == "" {
			out.From = said
		} else {
			out.From = said + ": " + out.From
		}
		return out, k
	}
	if !(own.TotalB > 0) {
		return own, m
	}
	if sixteenBitRelease(m) {
		if out, k, ok := kinCount(m, own, ", a 16-bit copy of its layers and width, is no count of its weights"); ok {
			return out, k
		}
		return own, m
	}
	out, counted, ok := unpackedCount(m, own)
	if !ok {
		return own, m
	}
	if f := ReleaseFormat(m); f.Experts != "" && !(ArchitectureOf(m).Experts > ArchitectureOf(m).ExpertsPerToken) {
		// A split format's bytes need the experts' share, which needs the expert counts; without
		// them the packed count at the rest's bytes is the checkpoint's size, the true count at
		// them would be nearly twice it (deepseek-ai/DeepSeek-V4-Pro: 861.6 B × 1 B ≈ its files;
		// 1,600.8 B × 1 B is not), so the packed count stays, and the params line says why.
		whose, _, _ := strings.Cut(out.From, ":")
		own.From = "the catalog's " + billions(own.TotalB) + " counts packed tensors (" + whose + " is " + billions(out.TotalB) +
			"); without the expert counts the two formats cannot be told apart, so the weights are the packed count's bytes, the checkpoint's"
		return own, m
	}
	return out, counted
}

// ownParams is the catalog entry's own count, total and active.
func ownParams(m *catalog.Model) ReleaseParams {
	own := ReleaseParams{TotalB: paramsB(m)}
	own.ActiveB = own.TotalB
	if m.MoE && m.ActiveParameters > 0 {
		own.ActiveB = float64(m.ActiveParameters) / 1e9
	} else if a := ActiveFromName(m.Name, own.TotalB); a > 0 {
		own.ActiveB = a // a mixture of experts the catalog does not mark: its name says (Kimi-Linear-48B-A3B)
	}
	return own
}

// unpackedCount is a packed release's count taken from an entry that counts its weights: the
// 16-bit entry of the same name without the format words, else the size its name states, else
// the FP8 entry of the same name, else the entry architectures.csv names as its base; ok is false
// when none applies or the release's own count is no packed one.
func unpackedCount(m *catalog.Model, own ReleaseParams) (ReleaseParams, *catalog.Model, bool) {
	kin := unpackedKin(stem(m.Name))
	ok := kin != nil
	if ok && sixteenBitRelease(kin) && own.TotalB < packedShare*paramsB(kin) {
		out, _ := releaseParams(kin)
		out.From = kin.Name + "'s count: the catalog's " + billions(own.TotalB) + " for this repository counts packed tensors"
		return out, kin, true
	}
	if named := sizeFromName(m.Name); own.TotalB < packedShare*named {
		out := ReleaseParams{TotalB: named, ActiveB: named, From: "the size the name states: the catalog's " + billions(own.TotalB) + " counts packed tensors (no 16-bit entry to count from)"}
		if a := ActiveFromName(m.Name, named); a > 0 {
			out.ActiveB = a
		}
		return out, m, true
	}
	// No 16-bit entry and no size in the name: the FP8 entry of the same name (MiniMaxAI/MiniMax-M2.5
	// for nvidia/MiniMax-M2.5-NVFP4; after the name's size, as an FP8 repository may store an LM
	// head its 16-bit one ties: Qwen/Qwen3-4B-FP8 counts 4.41 B of Qwen3-4B's 4.02), else the
	// model architectures.csv names as the base (MiniMaxAI/MiniMax-M2.7 for cyankiwi/MiniMax-M2.7-AWQ-4bit).
	if ok && own.TotalB < packedShare*paramsB(kin) {
		out, _ := releaseParams(kin)
		out.From = kin.Name + "'s count: the catalog's " + billions(own.TotalB) + " for this repository counts packed tensors"
		return out, kin, true
	}
	if kin := baseEntry(m); kin != nil && unpackedRelease(kin) && own.TotalB < packedShare*paramsB(kin) {
		out, _ := releaseParams(kin)
		out.From = kin.Name + "'s count (its base in architectures.csv): the catalog's " + billions(own.TotalB) + " for this repository counts packed tensors"
		return out, kin, true
	}
	return kinCount(m, own, " counts packed tensors")
}

// kinCount is the count of the model a re-upload without a row re-uploads (archKin, kinarch.go)
// when the re-upload's own is under packedShare of it and the kin's is a count of its weights (an
// unpacked release, or one releaseFacts counts); why says what the re-upload's count is.
func kinCount(m *catalog.Model, own ReleaseParams, why string) (ReleaseParams, *catalog.Model, bool) {
	k := archKin(m)
	if k == nil || k == m {
		return own, m, false
	}
	out, counted := releaseFacts[k.Arch.Base]
	if !counted && unpackedRelease(k) {
		out = ownParams(k) // an unpacked release counts its weights (not releaseParams: no kin's kin)
	} else if !counted {
		return own, m, false
	}
	if tiedHeadBases[k.Arch.Base] && storesTiedHeadCopy(own.TotalB, out.TotalB, m) {
		out.From = k.Name + "'s count (the model it re-uploads): the catalog's " + billions(own.TotalB) +
			" for this repository holds a copy of the tied LM head, which vLLM does not load (a GGUF file converted from it may keep it)"
		return out, k, true
	}
	if !(own.TotalB < packedShare*out.TotalB) {
		return own, m, false
	}
	out.From = k.Name + "'s count (the model it re-uploads): the catalog's " + billions(own.TotalB) + " for this repository" + why
	return out, k, true
}

// tiedHeadBases are the architectures.csv bases of releaseFacts whose LM head is the embedding
// while their repositories may store a copy of it (Qwen3-0.6B and 1.7B, Gemma-3-4B: params.go's
// releaseFacts say which engines skip it).
var tiedHeadBases = map[string]bool{
	"Qwen/Qwen3-0.6B": true, "Qwen/Qwen3-0.6B-Base": true, "Qwen/Qwen3-1.7B": true, "google/gemma-3-4b-it/pt": true,
}

// storesTiedHeadCopy reports whether a re-upload's count is its kin's counted weights plus one more
// vocabulary × width matrix (tiedHeadCopyB; an MLX conversion leaves a few norms uncounted:
// lmstudio-community/Qwen3-1.7B-MLX-8bit's 2,031,616,000 is 1,720,574,976 + 311,164,928 − 123,904).
func storesTiedHeadCopy(ownB, kinB float64, m *catalog.Model) bool {
	return tiedHeadCopyB(ownB, kinB, m) > 0
}

// tiedHeadCopyB is the parameters (billions) of one vocabulary × width matrix of m, the stored copy
// of a tied LM head, when a count of ownB is countedB plus that matrix within ggufCountTolerance of
// countedB; else 0.
func tiedHeadCopyB(ownB, countedB float64, m *catalog.Model) float64 {
	head := float64(m.Vocabulary()) * float64(m.Width()) / 1e9
	if head > 0 && math.Abs(ownB-countedB-head) <= ggufCountTolerance*countedB {
		return head
	}
	return 0
}

func within1pc(a, b float64) bool { return a >= 0.99*b && a <= 1.01*b }

func billions(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + "B" }

// sixteenBitRelease reports whether the entry's release is its 16-bit weights (no quantized
// format in architectures.csv or in its name).
func sixteenBitRelease(m *catalog.Model) bool {
	switch ReleaseFormat(m).Name {
	case "BF16", "FP16":
		return true
	}
	return false
}

// unpackedRelease reports whether the entry's release stores one weight per tensor element, so
// that the catalog's count of its elements is a count of its weights (and of its FP8 scales, one
// per 128 × 128 block or per row: under 0.01 %): 16-bit or FP8.
func unpackedRelease(m *catalog.Model) bool {
	return sixteenBitRelease(m) || ReleaseFormat(m).Name == "FP8"
}

// unpackedKin is the catalog entry of stem s whose release is unpacked: the most downloaded 16-bit
// one, else the most downloaded FP8 one (MiniMaxAI/MiniMax-M2.5, whose release is FP8, for
// nvidia/MiniMax-M2.5-NVFP4): the base of a quantized release; nil when there is none. A table
// generated from the catalog (kin_gen.go; kin_tables_test.go says how it is made).
func unpackedKin(s string) *catalog.Model { return entryOfStem(unpackedKinTable[:], s) }

// baseEntry is the catalog entry named by the entry's architectures.csv base ("MiniMaxAI/MiniMax-M2.7";
// "deepseek-ai/DeepSeek-V3 (also R1, …)" names deepseek-ai/DeepSeek-V3), or nil.
func baseEntry(m *catalog.Model) *catalog.Model {
	name, _, _ := strings.Cut(m.Arch.Base, " ")
	name, _, _ = strings.Cut(name, "(")
	if name == "" || name == m.Name {
		return nil
	}
	return catalog.Named(name)
}

// formatWords are the dash-separated words of a repository name that name a quantized format
// (or, "base", a release of the same tensors) rather than the model.
var formatWords = map[string]bool{
	"fp8": true, "nvfp4": true, "mxfp4": true, "fp4": true, "awq": true, "gptq": true, "int4": true, "int8": true,
	"w4a16": true, "w8a8": true, "nvfp4a16": true, "w4a4": true, "w8a16": true, "4bit": true, "8bit": true, "dynamic": true, "qad": true,
	"autoround": true, "gguf": true, "mlx": true, "bnb": true, "dwq": true, "unsloth": true,
	"base": true, // not a format: the pre-trained release of the same tensors (DeepSeek-V4-Flash-Base counts DeepSeek-V4-Flash's)
}

// stem is a repository name without its owner and its format words, in lower case:
// "nvidia/Qwen3-32B-NVFP4" and "Qwen/Qwen3-32B" are both "qwen3-32b".
func stem(name string) string {
	_, repo, ok := strings.Cut(name, "/")
	if !ok {
		repo = name
	}
	var kept []string
	words := strings.Split(strings.ToLower(repo), "-")
	if len(words) > 1 && words[0] == "meta" && words[1] == "llama" {
		words = words[1:] // Meta's first name for its repositories (Meta-Llama-3.1-70B-Instruct), kept by re-uploads
	}
	mlx := slices.Contains(words, "mlx")
	for _, w := range words {
		if formatWords[w] || strings.HasPrefix(w, "quantized.") {
			continue
		}
		if w == "bf16" && !mlx {
			// a 16-bit release named for its format (NVIDIA-Nemotron-3-Nano-30B-A3B-BF16) is the base of
			// its quantized ones; an MLX bf16 copy is not one (it stores a tied LM head once)
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, "-")
}

// sizeFromName is the first "<number>B" word of a repository name ("Qwen3.5-27B-NVFP4": 27), in
// billions; 0 when it states none. An active size ("A3B") or an effective one ("E4B") is not it.
func sizeFromName(name string) float64 {
	_, repo, ok := strings.Cut(name, "/")
	if !ok {
		repo = name
	}
	for _, w := range strings.FieldsFunc(repo, func(r rune) bool { return r == '-' || r == '_' }) {
		if len(w) < 2 || (w[len(w)-1] != 'B' && w[len(w)-1] != 'b') {
			continue
		}
		if x, err := strconv.ParseFloat(w[:len(w)-1], 64); err == nil && x > 0 {
			return x
		}
	}
	return 0
}
