package fit

import (
	"strconv"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Many releases hold a multi-token-prediction (MTP, "nextn") block beside their decoder layers,
// for speculative decoding: config.json's num_nextn_predict_layers (DeepSeek-V3/V3.2, GLM-4.5/
// 4.6/4.7, GLM-4.5-Air, GLM-4.7-Flash, GLM-5) or mtp_num_hidden_layers (Qwen3-Next, Qwen3.5/3.6),
// and Nemotron-3-Super's mtp.* tensors. vLLM's main model loads none of it; only a
// --speculative-config of an MTP method loads it, into a separate drafter, which the Deployment
// does not ask for. Where vLLM drops it (vllm/model_executor/models/):
//   - deepseek_v2.py DeepseekV2ForCausalLM.load_weights: "if spec_layer is not None: continue
//     # skip spec decode layers for main model" (DeepSeek-V3, V3.2, GLM-5's GlmMoeDsa);
//   - glm4_moe.py Glm4MoeModel.load_weights: skip_spec_layers(weights, self.config) (GLM-4.5 to
//     4.7, Air, 4.7-Flash);
//   - qwen3_next.py Qwen3NextForCausalLM: WeightsMapper(orig_to_new_prefix={"mtp.": None}) ("MTP
//     weights are loaded by the draft model, not this one"); qwen3_5.py Qwen3_5Model.load_weights:
//     'if name.startswith("mtp."): continue';
//   - nemotron_h.py NemotronHForCausalLM: WeightsMapper(orig_to_new_prefix={..., "mtp": None});
//   - deepseek_v4.py DeepseekV4ForCausalLM.load_weights: AutoWeightsLoader(self,
//     skip_substrs=["mtp."]) (DeepSeek-V4-Flash, -Pro and their Base releases);
//   - mimo.py MiMoForCausalLM: WeightsMapper(orig_to_new_prefix={"model.mtp_layers.": None}) ("MTP
//     layers are loaded by the draft model, not the main model"); mimo_v2_flash.py
//     MiMoV2Model.load_weights: 'if "mtp" in name: continue' (MiMo-V2-Flash).
//
// llama.cpp keeps what the GGUF holds. So one rule, for every architecture with an MTP block:
// under vLLM a release counted with its MTP block is sized without it. mtpFacts holds, per
// architecture, what vLLM loads (MainB: the release less its MTP block — the language model, and
// the vision encoder of a Qwen3.5/3.6 release, which vLLM loads too) and the block (MTPB), and
// the copies of the embedding and the LM head some releases store in it (CopiesB, V·h each). A
// block is one decoder layer of the model's own kind, a projection of the embedding and the
// hidden state concatenated (2h·h) and three norms (3h). Each figure below is checked against
// the catalog's counts: main + block is the 16-bit release's count to the parameter, and main is
// the count of a copy without the block where the catalog has one.
//
//   - DeepSeek-V3 / R1 (h 7,168; moeactive.go's shapes): main 671,026,419,200 (its active
//     37,552,297,472 − the routed experts a token uses 20,434,649,088 + all of them, 58 × 256 ×
//     44,040,192 = 653,908,770,816); block: attention 187,107,328, routed 256 × 44,040,192 =
//     11,274,289,152, shared 44,040,192, router 1,835,008 + 256 bias, norms 14,336, eh_proj 7,168 ×
//     14,336 = 102,760,448, enorm, hnorm and the head's norm 21,504: 11,610,068,224; copies 2 ×
//     129,280 × 7,168 = 1,853,358,080 (13,463,426,304 in all; the catalog's 684,531,386,000 less
//     main and both leaves 41,540,496, the FP8 release's scales, one a 128 × 128 block, to the
//     scale: 62 layers' attention 11,448 each, 59 MoE layers' 257 experts 2,688 each, 3 dense 24,192).
//   - DeepSeek-V3.2: the indexer in every layer, the block's included: the catalog's V3.2 count
//     less V3's, 865,535,376, is 62 × 13,960,248, so the block is 11,624,028,472 and main
//     685,396,921,376 − 11,624,028,472 − 1,853,358,080 = 671,919,534,824.
//   - GLM-4.5 / 4.6 / 4.7 (h 5,120): main 33,632,266,144 − 16,798,187,520 + 89 × 160 × 23,592,960
//     = 352,797,829,024; block: attention 136,329,472 (12,542,311,424 / 92), routed 160 ×
//     23,592,960 = 3,774,873,600, shared 23,592,960, router 819,200 + 160, norms 10,240, eh_proj
//     10,240 × 5,120 = 52,428,800, three norms 15,360: 3,988,069,792; copies 2 × 151,552 × 5,120 =
//     1,551,892,480. GLM-4.5's 358,337,791,296 = main + block + copies; GLM-4.6's 356,785,898,816 =
//     main + block (its release stores no copies).
//   - GLM-4.5-Air (h 4,096): main 13,424,129,664 − 6,228,541,440 + 45 × 128 × 17,301,504 =
//     106,852,251,264; block: attention 109,066,240, routed 128 × 17,301,504 = 2,214,592,512,
//     shared 17,301,504, router 524,288 + 128, norms 8,192, eh_proj 33,554,432, three norms 12,288:
//     2,375,059,584; copies 2 × 151,552 × 4,096 = 1,241,513,984; main + both = 110,468,824,832,
//     the catalog's.
//   - GLM-4.7-Flash (h 2,048): main 29,943,393,920, moeactive.go's shapes' total and the
//     catalog's MLX copy without the block, to the parameter; block: attention 21,759,232, routed 64 × 9,437,184 =
//     603,979,776, shared 9,437,184, router 131,072 + 64, norms 4,096, eh_proj 8,388,608, three
//     norms 6,144: 643,706,176; copies 2 × 154,880 × 2,048 = 634,388,480; main + both =
//     31,221,488,576, the catalog's.
//   - GLM-5 / 5.1 (h 6,144): main 743,911,218,432, moeactive.go's shapes' total and the MLX copy
//     inferencerlabs/GLM-5.1-MLX-4.8bit-INF's count, to the parameter; block: attention 174,394,112,
//     routed 256 × 37,748,736 = 9,663,676,416, shared 37,748,736, router 1,572,864 + 256, norms
//     12,288, eh_proj 12,288 × 6,144 = 75,497,472, three norms 18,432: 9,952,920,576, no copies;
//     main + block = 753,864,139,008, the catalog's GLM-5 and GLM-5.1.
//   - Qwen3-Next-80B-A3B (h 2,048): main 79,674,391,296 (the shapes; Qwen3-Coder-Next's release,
//     which has no block, counts it exactly); block: gated attention 27,263,488, routed 512 ×
//     3,145,728 = 1,610,612,736, shared 3,145,728 and its gate 2,048, router 1,048,576, norms
//     4,096, fc 4,096 × 2,048 = 8,388,608, three norms 6,144: 1,650,471,424; main + block =
//     81,324,862,720, the catalog's Qwen3-Next-80B-A3B-Instruct.
//   - Qwen3.5-35B-A3B / Qwen3.6-35B-A3B (h 2,048, 256 experts): block 27,263,488 + 256 × 3,145,728
//   - 3,145,728 + 2,048 + 524,288 + 4,096 + 8,388,608 + 6,144 = 844,640,768; main 35,951,822,704
//     − 844,640,768 = 35,107,181,936, the count of mlx-community/Qwen3.6-35B-A3B-bf16 (the text
//     model and the vision encoder, no block).
//   - Qwen3.5-122B-A10B (h 3,072): block: gated attention 78,643,712, routed 256 × 9,437,184 =
//     2,415,919,104, shared 9,437,184 + 3,072, router 786,432, norms 6,144, fc 6,144 × 3,072 =
//     18,874,368, three norms 9,216: 2,523,679,232; main 125,086,497,008 − 2,523,679,232 =
//     122,562,817,776 (the text model's 122,114,525,184 and a 448 M vision encoder).
//   - Qwen3.5-397B-A17B (h 4,096): block: gated attention 4,096 × 16,384 + 2 × 4,096 × 512 +
//     8,192 × 4,096 + 512 = 104,858,112, routed 512 × 12,582,912 = 6,442,450,944, shared
//     12,582,912 + 4,096, router 2,097,152, norms 8,192, fc 33,554,432, three norms 12,288:
//     6,595,568,128; main 403,397,928,944 − 6,595,568,128 = 396,802,360,816.
//   - Qwen3.5 dense (gated attention of q heads × 256 × 2, 4 (27B, 9B, 4B) or 2 (0.8B) KV heads of
//     256, an MLP of 3·h·I): 27B (h 5,120, 24 q heads, I 17,408) 104,858,112 + 267,386,880 +
//     10,240 + 52,428,800 + 15,360 = 424,699,392, main 27,356,728,560 (unsloth/Qwen3.5-27B's
//     count); 9B (h 4,096, 16, I 12,288) 58,720,768 + 150,994,944 + 8,192 + 33,554,432 + 12,288 =
//     243,290,624, main 9,409,813,744 (an MLX copy's); 4B (h 2,560, 16, I 9,216) 36,700,672 +
//     70,778,880 + 5,120 + 13,107,200 + 7,680 = 120,599,552, main 4,539,265,536 (unsloth's -Base);
//     0.8B (h 1,024, 8, I 3,584) 7,340,544 + 11,010,048 + 2,048 + 2,097,152 + 3,072 = 20,452,864,
//     main 852,985,920 (unsloth's -Base); 2B (h 2,048, 8, I 6,144: NVIDIA/cudnn-frontend
//     benchmark/e2e/Qwen3.5/configs.py, architectures.csv's source) 14,680,576 + 37,748,736 + 4,096
//   - 8,388,608 + 6,144 = 60,828,160, main 2,213,241,664: the text model 1,881,825,088 (18 Gated
//     DeltaNet layers of 58,814,624, 6 attention layers of 52,433,408, the tied embedding
//     508,559,360 and the final norm 2,048) and Qwen3-VL-2B's vision encoder without deepstack
//     mergers, 331,416,576 (maxtext qwen3_vl_2b_dict: depth 24, width 1,024, MLP 4,096, out 2,048;
//     the 4B's, out 2,560, is its main less its text model to the parameter); main + block =
//     2,274,069,824, the catalog's Qwen/Qwen3.5-2B.
//   - Nemotron-3-Super-120B-A12B (h 4,096): main 120,668,707,840 (moeactive.go's shapes); block
//     2,942,304,256, the catalog's 123,611,012,096 less main, which one attention and one
//     LatentMoE layer and the 8,192 × 4,096 projection give within 9,000.
//   - DeepSeek-V4-Flash (h 4,096; moeactive.go's shapes, each per-layer term of which divides its
//     total exactly): main 284,332,241,239. Its MTP layer (vllm deepseek_v4_mtp.py,
//     DeepSeekV4MultiTokenPredictorLayer) is enorm, hnorm, e_proj and h_proj (h × h each), the
//     hyper-connection head (hc_head_fn 4 × 16,384, its base 4 and scale 1), the shared head's norm,
//     and one DeepseekV4DecoderLayer of compress ratio 0 (compress_ratios' 44th entry: no
//     compressor, no indexer): attention 106,956,352, routed 256 × 25,165,824 = 6,442,450,944,
//     shared 25,165,824, router 1,048,832, hyper-connections 2 × (24 × 16,384 + 24 + 3) = 786,486,
//     norms 8,192; with e_proj and h_proj 33,554,432 and the four small tensors 12,288 + 65,541:
//     6,610,048,891. The checkpoint stores copies of the embedding and the head in it (the loader
//     remaps ".emb.tok_emb.weight" and ".head.weight"): 2 × 129,280 × 4,096 = 1,059,061,760.
//     DeepSeek-V4-Flash-Base's 292,021,347,282 less main, block and copies leaves 19,995,392: its
//     FP8 experts' 128 × 128 block scales (44 layers × 257 experts × 3 × 512 = 17,369,088) and the
//     three hash-routed layers' token-to-expert tables (3 × 129,280 × 6 = 2,327,040), within 0.3 %
//     of the block; vLLM loads both, and they stay.
//   - DeepSeek-V4-Pro (h 7,168): main 1,572,997,202,915; block: attention 299,894,912, routed 384 ×
//     66,060,288 = 25,367,150,592, shared 66,060,288, router 2,752,896, hyper-connections 2 ×
//     (24 × 28,672 + 27) = 1,376,310, norms 14,336, e_proj and h_proj 102,760,448, enorm, hnorm and
//     the head's norm 21,504, hc_head 114,693: 25,840,145,979; copies 2 × 129,280 × 7,168 =
//     1,853,358,080. DeepSeek-V4-Pro-Base's 1,600,790,440,862 less all three leaves 99,733,888
//     (FP8 expert scales 62 × 385 × 3 × 1,344 = 96,243,840 and the same kind of remainder).
//   - MiMo-7B (THUDM/slime:scripts/models/mimo-7B-rl.sh, the shapes of MiMo-7B-RL's config.json: a
//     Qwen2 model of h 4,096, 36 layers, 32 heads in 8 query groups of 128 with q/k/v biases, FFN
//     11,008, V 151,680, untied embeddings, "--mtp-num-layers 1"; the catalog's MiMo-7B-Base row
//     agrees: 36 layers, 8 KV heads of 128, h 4,096, V 151,680): a layer
//     is q 16,781,312 + k and v 2 × 4,195,328 + o 16,777,216 + MLP 3 × 4,096 × 11,008 =
//     135,266,304 + two norms 8,192 = 177,223,680; main 36 × 177,223,680 + 2 × 151,680 × 4,096 +
//     4,096 = 7,622,619,136; block (vLLM's mimo_mtp.py: token_layernorm, hidden_layernorm,
//     input_proj 2h → h, one layer, final_layernorm) 177,223,680 + 33,554,432 + 3 × 4,096 =
//     210,790,400; main + block = 7,833,409,536, the catalog's MiMo-7B-Base to the parameter.
//     (MiMo-7B-RL's catalog count, 7,000,000,000, is a round figure, below main: nothing is taken.)
//   - MiMo-V2-Flash (h 4,096; moeactive.go's shapes): main 308,778,780,864; 3 MTP layers (vLLM's
//     "mtp" weights), each enorm, hnorm, an eh projection 8,192 × 4,096 = 33,554,432, one sliding
//     layer's attention 94,371,904 and a dense MLP of 16,384, 201,326,592, its two norms and a final
//     norm 20,480: 329,273,408, 987,820,224 in all. The catalog's 309,785,318,400 less main and
//     block leaves 18,717,312, the FP8 release's block scales (18,716,736) and 576; vLLM loads both.
type mtpFact struct{ MainB, MTPB, CopiesB float64 }

var mtpFacts = map[string]mtpFact{
	"DeepSeek-V3":                {671.0264192, 11.610068224, 1.85335808},
	"DeepSeek-V3.2":              {671.919534824, 11.624028472, 1.85335808},
	"GLM-4.5":                    {352.797829024, 3.988069792, 1.55189248},
	"GLM-4.5-Air":                {106.852251264, 2.375059584, 1.241513984},
	"GLM-4.7-Flash":              {29.94339392, 0.643706176, 0.63438848},
	"GLM-5":                      {743.911218432, 9.952920576, 0},
	"Qwen3-Next-80B-A3B":         {79.674391296, 1.650471424, 0},
	"Qwen3.5-35B-A3B":            {35.107181936, 0.844640768, 0},
	"Qwen3.5-122B-A10B":          {122.562817776, 2.523679232, 0},
	"Qwen3.5-397B-A17B":          {396.802360816, 6.595568128, 0},
	"Nemotron-3-Super-120B-A12B": {120.66870784, 2.942304256, 0},
	"Qwen3.5-27B":                {27.35672856, 0.424699392, 0},
	"Qwen3.5-9B":                 {9.409813744, 0.243290624, 0},
	"Qwen3.5-4B":                 {4.539265536, 0.120599552, 0},
	"Qwen3.5-0.8B":               {0.85298592, 0.020452864, 0},
	"Qwen3.5-2B":                 {2.213241664, 0.06082816, 0},
	"DeepSeek-V4-Flash":          {284.332241239, 6.610048891, 1.05906176},
	"DeepSeek-V4-Pro":            {1572.997202915, 25.840145979, 1.85335808},
	"MiMo-7B":                    {7.622619136, 0.2107904, 0},
	"MiMo-V2-Flash":              {308.778780864, 0.987820224, 0},
}

// mtpByName names the MTP facts of dense catalog entries that have no architectures.csv row to
// go by (denseMTPShapes).
var mtpByName = map[string]string{
	"XiaomiMiMo/MiMo-7B-Base": "MiMo-7B",
	"XiaomiMiMo/MiMo-7B-RL":   "MiMo-7B",
}

// denseMTPShapes names the dense architectures of mtpFacts by their architectures.csv base (the
// mixtures of experts go by moeactive.go's shapes).
var denseMTPShapes = map[string]string{
	"Qwen/Qwen3.5-27B": "Qwen3.5-27B",
	"Qwen/Qwen3.6-27B (qwen3_5; same dims as Qwen3.5-27B)": "Qwen3.5-27B",
	"Qwen/Qwen3.5-9B":   "Qwen3.5-9B",
	"Qwen/Qwen3.5-4B":   "Qwen3.5-4B",
	"Qwen/Qwen3.5-0.8B": "Qwen3.5-0.8B",
	"Qwen/Qwen3.5-2B":   "Qwen3.5-2B",
}

// mtpFactOf is the MTP fact of a catalog entry's architecture: by moeactive.go's shapes for a
// mixture of experts, else by its architectures.csv base (or its kin's, kinarch.go).
func mtpFactOf(m *catalog.Model) (mtpFact, bool) {
	if f, ok := moeActiveOf(m); ok {
		s, ok := mtpFacts[f.Shapes]
		return s, ok
	}
	if k := archKin(m); k != nil {
		if name, ok := denseMTPShapes[k.Arch.Base]; ok {
			return mtpFacts[name], true
		}
	}
	if name, ok := mtpByName[m.Name]; ok {
		return mtpFacts[name], true
	}
	return mtpFact{}, false
}

// vllmSkipsMTP is the multi-token-prediction parameters (billions) vLLM does not load for a
// catalog entry counted at paramsB, and whether there are any: the block and its copies where
// the count holds both, the block where it holds that (with at least 99 % of either: a
// re-quantization's count may fall a little short), nothing where the count is no more than the
// main model's (a copy without the block: Qwen3-Coder-Next, the MLX conversions).
func vllmSkipsMTP(m *catalog.Model, paramsB float64) (float64, bool) {
	f, ok := mtpFactOf(m)
	if !ok {
		return 0, false
	}
	extra := paramsB - f.MainB
	switch {
	case f.CopiesB > 0 && extra >= 0.99*(f.MTPB+f.CopiesB):
		return f.MTPB + f.CopiesB, true
	case extra >= 0.99*f.MTPB:
		return f.MTPB, true
	}
	return 0, false
}

// withoutVLLMMTP takes the MTP block out of a kv-mode vLLM target's parameters, and says so.
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
	if b.ActiveParamsB >= b.ParamsB { // a dense model reads every weight vLLM loads, and no more
		b.ActiveParamsB = b.ParamsB - mtp
	}
	b.ParamsB -= mtp
	if b.ParamsFrom != "" {
		words = b.ParamsFrom + "; " + words
	}
	b.ParamsFrom = words
}
