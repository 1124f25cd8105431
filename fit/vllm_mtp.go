package fit

import (
	"strconv"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// DeepSeek-V3's releases (V3, R1, R1-0528, V3-0324, V3.1 and their re-quantizations) hold a
// multi-token-prediction layer beside the 61 decoder layers (config.json num_nextn_predict_layers
// 1, stored as model.layers.61): DeepSeek's card counts 671 B of main model and 14 B of MTP
// module in the 685 B. vLLM's DeepseekV2ForCausalLM.load_weights (vllm/model_executor/models/
// deepseek_v2.py) skips every weight of it ("spec_layer = get_spec_layer_idx_from_weight_name(
// self.config, name); if spec_layer is not None: continue  # skip spec decode layers for main
// model"); only a --speculative-config of method deepseek_mtp loads it, into a separate drafter
// (deepseek_mtp.py), which the Deployment does not ask for. llama.cpp keeps what the GGUF holds.
//
// The main model's count from config.json's shapes (moeactive.go's DeepSeek-V3 entry: its
// active 37,552,391,168 − the routed experts a token uses 20,434,649,088 + all of them, 58 × 256
// × 44,040,192 = 653,908,770,816) is 671,026,512,896. The MTP layer (h 7,168) is one MoE decoder
// layer — attention 187,108,864, routed 256 × 44,040,192 = 11,274,289,152, shared 44,040,192,
// router 1,835,008 + 256 bias, norms 16,384 — with eh_proj 7,168 × 14,336 = 102,760,448, enorm,
// hnorm and the head's norm 21,504, and its own copies of the embedding and the head, 2 ×
// 129,280 × 7,168 = 1,853,358,080: 13,463,429,888 (the catalog's 684,531,386,000 less both
// leaves 41,443,216, the FP8 release's block scales).
//
// DeepSeek-V3.2 (DeepseekV32ForCausalLM, the same load_weights) adds the sparse-attention indexer
// to every layer, the MTP layer's included: the catalog's V3.2 count less V3's, 865,535,376, is
// 62 × 13,960,248, so its MTP layer is 13,463,429,888 + 13,960,248 = 13,477,390,136 and its main
// model 685,396,921,376 − 13,477,390,136 = 671,919,531,240.
var vllmSkippedMTP = map[string]struct{ mainB, mtpB float64 }{
	"DeepSeek-V3":   {671.026512896, 13.463429888},
	"DeepSeek-V3.2": {671.91953124, 13.477390136},
}

// vllmSkipsMTP is the multi-token-prediction parameters (billions) vLLM does not load for a
// catalog entry counted at paramsB, and whether there are any: an architecture of
// vllmSkippedMTP (moeactive.go's shapes) counted with its MTP layer (a count that falls short
// of main + MTP, as a re-quantization's may, is left as it is).
func vllmSkipsMTP(m *catalog.Model, paramsB float64) (float64, bool) {
	f, ok := moeActiveOf(m)
	if !ok {
		return 0, false
	}
	s, ok := vllmSkippedMTP[f.Shapes]
	if !ok || paramsB-s.mainB < 0.99*s.mtpB {
		return 0, false
	}
	return s.mtpB, true
}

// withoutVLLMMTP takes the MTP layer out of a kv-mode vLLM target's parameters, and says so.
func (b *Bounds) withoutVLLMMTP(t *target.Target, m *catalog.Model) {
	if !isVLLM(t) {
		return
	}
	mtp, ok := vllmSkipsMTP(m, b.ParamsB)
	if !ok {
		return
	}
	words := "vLLM loads " + strconv.FormatFloat(b.ParamsB-mtp, 'f', 2, 64) + "B: the " +
		strconv.FormatFloat(b.ParamsB, 'f', 2, 64) + "B less the " + strconv.FormatFloat(mtp, 'f', 2, 64) +
		"B multi-token-prediction layer, which it loads only for speculative decoding"
	b.ParamsB -= mtp
	if b.ParamsFrom != "" {
		words = b.ParamsFrom + "; " + words
	}
	b.ParamsFrom = words
}
