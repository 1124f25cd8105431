package fit

import "strconv"

// vLLM refuses some start-ups before it counts any memory (vllm/config/model.py):
//
//   - _get_and_verify_max_len: a --max-model-len above the model's derived maximum
//     (max_position_embeddings, with a yarn/linear RoPE factor applied as architectures.csv's
//     max_context already has it) raises "User-specified max_model_len (…) is greater than the
//     derived max_model_len (…)", unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, which vLLM itself warns
//     gives NaNs or out-of-bounds errors past the positions the model was trained for;
//   - verify_with_parallel_config: "Total number of attention heads (H) must be divisible by
//     tensor parallel size (N)."
//
// Only facts read from config.json (architectures.csv) are trusted here: llmfit's catalog context
// is often a placeholder (4096) or multiplied by the RoPE factor, and it has no query-head count.

// VLLMRefusal is vLLM's refusal to start the target on its Count devices, with what would start,
// or "" when neither check refuses it.
func VLLMRefusal(b *Bounds) string {
	if r := vllmLengthRefusal(b); r != "" {
		return r
	}
	return vllmHeadsRefusal(b.Model.Arch.AttentionHeads, b.Target.Count)
}

// VLLMKVCacheRefusal is vLLM's refusal of a KV-cache type it has not (--kv-cache-dtype takes auto
// or fp8 kinds; q8_0 and q4_0 are llama.cpp's), or "" for fp16 and fp8. vLLM refuses it when it
// reads its arguments, before any memory or length is counted.
func VLLMKVCacheRefusal(b *Bounds) string {
	switch b.KVCache {
	case "q8_0", "q4_0":
		return "vLLM has no " + b.KVCache + " KV cache (it is llama.cpp's): set kvCache fp8, or engine llama.cpp"
	}
	return ""
}

// refuse turns a start-up that memory allows into vLLM's refusal (VLLMRefusal): it does not
// start, for that reason; the longest --max-model-len that would is the model's maximum (or less,
// where memory says so), none for a tensor-parallel size vLLM refuses at any length.
func (r *VLLMResult) refuse(b *Bounds) {
	if why := VLLMKVCacheRefusal(b); why != "" { // no length starts with a KV-cache type vLLM has not
		r.Starts, r.Reason, r.MaxModelLen = false, why, 0
		return
	}
	if _, _, why := VLLMWeights(b); why != "" { // vLLM would not serve the weights this was sized for
		r.Starts, r.Reason, r.MaxModelLen = false, why, 0
		return
	}
	why := VLLMRefusal(b)
	if why == "" {
		return
	}
	switch {
	case vllmLengthRefusal(b) == "" || vllmHeadsRefusal(b.Model.Arch.AttentionHeads, b.Target.Count) != "":
		r.MaxModelLen = 0
	case r.Starts || r.MaxModelLen > b.Model.Arch.MaxContext:
		r.MaxModelLen = b.Model.Arch.MaxContext
	}
	r.Starts, r.Reason = false, why
}

// vllmLengthRefusal is the refusal of a context beyond the model's verified maximum.
func vllmLengthRefusal(b *Bounds) string {
	limit := b.Model.Arch.MaxContext
	if b.Custom || limit <= 0 || b.ContextTokens <= limit {
		return ""
	}
	return "vLLM refuses --max-model-len " + itoa(b.ContextTokens) + ", above the model's " + itoa(limit) +
		" tokens (max_position_embeddings in its config.json): set context to at most " + itoa(limit) +
		" (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 overrides it only where the model card extends the context, e.g. with YaRN RoPE scaling)"
}

// vllmHeadsRefusal is the refusal of a tensor-parallel size that does not divide the query
// heads (0 heads: unknown, no refusal), with the valid sizes up to 8.
func vllmHeadsRefusal(heads, tp int) string {
	if heads <= 0 || tp <= 1 || heads%tp == 0 {
		return ""
	}
	return "vLLM refuses --tensor-parallel-size " + itoa(tp) + ": the model's " + itoa(heads) +
		" attention heads do not divide by it; " + vllmTPWords(heads)
}

// VLLMTensorParallelOK reports whether vLLM accepts tp devices for a model of heads query heads
// (0: unknown, accepted).
func VLLMTensorParallelOK(heads, tp int) bool { return heads <= 0 || tp <= 1 || heads%tp == 0 }

// vllmTPWords lists the device counts (1–8) whose tensor parallelism vLLM accepts.
func vllmTPWords(heads int) string {
	var ok []string
	for n := 1; n <= 8; n++ {
		if heads%n == 0 {
			ok = append(ok, strconv.Itoa(n))
		}
	}
	return "set count to one of " + joinOr(ok)
}

// joinOr is "1, 2, 4 or 8".
func joinOr(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " or " + s[len(s)-1]
}
