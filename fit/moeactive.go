package fit

import (
	"cmp"
	"slices"

	"github.com/fitclaim/fitclaim/catalog"
)

// A mixture of experts' active parameters, on which the KV-aware mode sizes its decode, are every
// weight of the language model but the routed experts a token does not use: the k routed experts
// of each MoE layer, the shared experts, the dense layers' MLPs, attention (or the linear-attention
// and Mamba layers), routers, norms, the embedding and the LM head. That is how a dense model is
// counted (all its weights; the calibration reads dense runs so) and how most authors count
// ("22B activated" for Qwen3-235B-A22B is 22.19 B below, "37B" for DeepSeek-V3 37.55 B); a
// multi-token-prediction layer or a vision encoder, which decode does not run, is not counted.
// (OpenAI's gpt-oss card leaves the input embedding out; releaseFacts, params.go, keeps the card's
// count, on which the vLLM read of its split format rests.) llmfit's catalog instead holds a count
// that is often no count of the model: 25.7 B for Qwen3-235B-A22B-Instruct-2507, 54.5 B for
// DeepSeek-R1-0528, 71.6 B for Kimi-K2-Instruct-0905, 5.46 B for Qwen3-Coder-Next.
//
// moeActiveFacts holds that count per architecture (the `base` of data/architectures.csv),
// worked out from config.json's shapes. Every family's total, summed from the same shapes, is
// the catalog's count of its 16-bit release to the parameter where that release holds nothing
// else (Qwen3-30B-A3B: 30,532,122,624; Qwen3-235B-A22B: 235,093,634,560; Qwen3-Coder-480B:
// 480,154,875,392; Qwen3-Coder-Next: 79,674,391,296; Mixtral 8x7B: 46,702,792,704 and 8x22B:
// 140,630,071,296; DeepSeek-V2-Lite: 15,706,484,224), else the authors' total where the release
// adds a multi-token-prediction layer or a vision tower (DeepSeek-V3 671.03 B, GLM-4.5 352.8 B,
// GLM-5 743.9 B, Qwen3.5-35B-A3B 34.66 B): the check that the shapes are read right.
// Shapes: h hidden, E routed experts of which k per token, m an expert's width (a SwiGLU expert is
// 3·h·m, a squared-ReLU one 2·h·m), V vocabulary; "embeddings" is the input embedding and the LM
// head, V·h each (one matrix when tied). Sources: AI-Hypercomputer/maxtext
// src/maxtext/checkpoint_conversion/utils/hf_model_configs.py (config.json copies: Qwen3 MoE,
// DeepSeek-V2-Lite/V3/V3.2, Qwen3-Next, Qwen3.5, Mixtral, Gemma-4, GLM-5), THUDM/slime
// scripts/models/*.sh (GLM-4.5, GLM-4.5-Air, GLM-4.7-Flash, Kimi-K2, MiniMax-M2), NVIDIA/Megatron-LM
// examples/post_training/modelopt/conf/nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.sh.
//
//   - Qwen3-30B-A3B (h 2,048, 48 layers, 32 q / 4 KV heads of 128, E 128, k 8, m 768, V 151,936):
//     routed 48 × 8 × 4,718,592 = 1,811,939,328; attention 48 × 18,874,624 = 905,981,952;
//     routers and norms 12,781,568; embeddings 2 × 311,164,928 → 3,353,032,704 (Qwen: 3.3 B).
//   - Qwen3-235B-A22B (h 4,096, 94 layers, 64 q / 4 KV, E 128, k 8, m 1,536): routed 94 × 8 ×
//     18,874,368 = 14,193,524,736; attention 6,702,521,856; routers and norms 50,057,216;
//     embeddings 2 × 622,329,856 → 22,190,763,520.
//   - Qwen3-Coder-480B-A35B (h 6,144, 62 layers, 96 q / 8 KV, E 160, k 8, m 2,560): routed 62 × 8 ×
//     47,185,920 = 23,404,216,320; attention 10,141,842,944; routers and norms 61,716,480;
//     embeddings 2 × 933,494,784 → 35,474,765,312.
//   - Qwen3-Next-80B-A3B and Qwen3-Coder-Next (h 2,048, 48 layers: 12 gated attention of 16 q /
//     2 KV heads of 256, 36 Gated DeltaNet of 16 key / 32 value heads of 128; E 512, k 10, m 512,
//     one shared expert of 512): routed 48 × 10 × 3,145,728 = 1,509,949,440; shared 150,994,944;
//     attention 12 × 27,263,488 + 36 × 33,718,464 = 1,541,026,560; routers, gates and norms
//     50,628,608; embeddings 2 × 311,164,928 → 3,874,929,408.
//   - Qwen3.5-35B-A3B and Qwen3.6-35B-A3B (h 2,048, 40 layers: 10 gated attention, 30 Gated
//     DeltaNet as above; E 256, k 8, m 512, shared 512; V 248,320): routed 40 × 8 × 3,145,728 =
//     1,006,632,960; shared 125,829,120; attention 1,284,188,800; routers, gates and norms
//     21,219,328; embeddings 2 × 508,559,360 → 3,454,988,928.
//   - Qwen3.5-397B-A17B (h 4,096, 60 layers: 15 gated attention of 32 q / 2 KV of 256, 45 Gated
//     DeltaNet of 16 key / 64 value heads; E 512, k 10, m 1,024, shared 1,024): routed 60 × 10 ×
//     12,582,912 = 7,549,747,200; shared 754,974,720; attention 6,883,511,040; routers, gates and
//     norms 126,570,496; embeddings 2 × 1,017,118,720 → 17,349,040,896.
//   - DeepSeek-V3 / R1 (h 7,168, 61 layers, the first 3 dense of width 18,432; MLA of 128 heads,
//     q rank 1,536, KV rank 512; E 256, k 8, m 2,048, one shared; V 129,280): routed 58 × 8 ×
//     44,040,192 = 20,434,649,088; shared 2,554,331,136; dense 1,189,085,184; attention 61 ×
//     187,107,328 = 11,413,547,008 (a layer: q_a 7,168 × 1,536 = 11,010,048, its norm 1,536, q_b 1,536 × 128 × 192 =
//     37,748,736, kv_a 7,168 × 576 = 4,128,768, its norm 512, kv_b 512 × 128 × 256 = 16,777,216, o
//     16,384 × 7,168 = 117,440,512; the q_a norm counted twice, 1,536 a layer, made it 187,108,864 and
//     the active count 37,552,391,168); routers and norms 107,326,976; embeddings 2 × 926,679,040 →
//     37,552,297,472 (the paper's "37B activated"). DeepSeek-V3.2 adds its sparse-attention
//     indexer, which every token runs: the catalog's V3.2 count less its V3 count, 685,396,921,376 −
//     684,531,386,000 = 865,535,376 → 38,417,832,848.
//   - Kimi-K2 family (V3's shapes with 64 heads, 1 dense layer, E 384, V 163,840): routed 60 × 8 ×
//     44,040,192 = 21,139,292,160; shared 2,642,411,520; dense 396,361,728; attention 61 ×
//     101,124,096 = 6,168,569,856 (V3's layer with 64 heads; 1,536 a layer more, the q_a norm counted
//     twice, made the total 93,696 more than the MLX copy's count below); routers and norms 166,055,424; embeddings 2 × 1,174,405,120 →
//     32,861,500,928 (Moonshot: 32 B; total 1,026.41 B, the catalog's Kimi-K2-Instruct 1,026.47 B).
//   - DeepSeek-V2-Lite (h 2,048, 27 layers, 1 dense of 10,944; MLA of 16 heads without a q rank;
//     E 64, k 6, m 1,408, 2 shared; V 102,400): routed 26 × 6 × 8,650,752 = 1,349,517,312; shared
//     449,839,104; dense 67,239,936; attention 371,602,944; routers and norms 3,520,512;
//     embeddings 2 × 209,715,200 → 2,661,150,208.
//   - GLM-4.7-Flash (h 2,048, 47 layers, 1 dense of 10,240; MLA of 20 heads, q rank 768, qk 192,
//     v 256; E 64, k 4, m 1,536, one shared; V 154,880): routed 46 × 4 × 9,437,184 =
//     1,736,441,856; shared 434,110,464; dense 62,914,560; attention 47 × 21,759,232 =
//     1,022,683,904 (a layer: q_a 2,048 × 768 = 1,572,864, its norm 768, q_b 768 × 20 × 256 =
//     3,932,160, kv_a 2,048 × 576 = 1,179,648, its norm 512, kv_b 512 × 20 × 448 = 4,587,520, o
//     5,120 × 2,048 = 10,485,760); routers and norms 6,226,816; embeddings 2 × 317,194,240 →
//     3,896,766,080 (total 29,943,393,920, the catalog's MLX conversion without the MTP layer, to
//     the parameter; the q_a norm counted twice, 768 a layer, made them 3,896,802,176 and
//     29,943,430,016).
//   - GLM-5 / 5.1 (h 6,144, 78 layers, 3 dense of 12,288; MLA of 64 heads, q rank 2,048, with the
//     indexer of 32 heads of 128; E 256, k 8, m 2,048, one shared; V 154,880): routed 75 × 8 ×
//     37,748,736 = 22,649,241,600; shared 2,831,155,200; dense 679,477,248; attention 78 ×
//     174,394,112 = 13,602,740,736 (a layer: q_a 6,144 × 2,048 = 12,582,912, its norm 2,048, q_b
//     2,048 × 64 × 256 = 33,554,432, kv_a 6,144 × 576 = 3,538,944, its norm 512, kv_b 512 × 64 ×
//     448 = 14,680,064, o 16,384 × 6,144 = 100,663,296; the indexer's wq_b 2,048 × 32 × 128 =
//     8,388,608, wk 6,144 × 128 = 786,432, k_norm 256, weights_proj 6,144 × 32 = 196,608);
//     routers and norms 118,948,608; embeddings 2 × 951,582,720 → 41,784,728,832 (total
//     743,911,218,432, the MLX copy inferencerlabs/GLM-5.1-MLX-4.8bit-INF's count to the parameter;
//     the q_a norm counted twice, 2,048 a layer, made them 41,784,888,576 and 743,911,378,176).
//   - GLM-4.5 / 4.6 / 4.7 (h 5,120, 92 layers, 3 dense of 12,288; 96 q / 8 KV heads of 128 with
//     qkv bias; E 160, k 8, m 1,536, one shared; V 151,552): routed 89 × 8 × 23,592,960 =
//     16,798,187,520; shared 2,099,773,440; dense 566,231,040; attention 12,542,311,424; routers
//     and norms 73,870,240; embeddings 2 × 775,946,240 → 33,632,266,144.
//   - GLM-4.5-Air (h 4,096, 46 layers, 1 dense of 10,944; 96 q / 8 KV; E 128, k 8, m 1,408, one
//     shared): routed 45 × 8 × 17,301,504 = 6,228,541,440; shared 778,567,680; dense 134,479,872;
//     attention 5,017,047,040; routers and norms 23,979,648; embeddings 2 × 620,756,992 →
//     13,424,129,664.
//   - MiniMax-M2.5 / M2.7 (h 3,072, 62 layers, 48 q / 8 KV of 128; E 256, k 8, m 1,536; V
//     200,064): routed 62 × 8 × 14,155,776 = 7,021,264,896; attention 2,730,936,320; routers and
//     norms 49,158,656; embeddings 2 × 614,596,608 → 11,030,553,088 (total 228.69 B; the catalog's
//     228.70 B).
//   - Mixtral-8x7B (h 4,096, 32 layers, 32 q / 8 KV, E 8, k 2, m 14,336, V 32,000): routed 32 × 2 ×
//     176,160,768 = 11,274,289,152; attention 1,342,177,280; routers and norms 1,314,816;
//     embeddings 2 × 131,072,000 → 12,879,925,248 (Mistral: 12.9 B). Mixtral-8x22B (h 6,144, 56
//     layers, 48 q / 8 KV, m 16,384, V 32,768): routed 56 × 2 × 301,989,888 = 33,822,867,456;
//     attention 4,932,501,504; routers and norms 3,446,784; embeddings 2 × 201,326,592 →
//     39,161,468,928 (Mistral: 39 B).
//   - Gemma-4-26B-A4B (h 2,816, 30 layers: 25 sliding of 16 q / 8 KV of 256, 5 global of 16 q /
//     2 KV of 512 with K = V; a dense MLP of 2,112 beside E 128, k 8, m 704; V 262,144, tied):
//     routed 30 × 8 × 5,947,392 = 1,427,374,080; dense MLPs 535,265,280; attention 1,110,197,760;
//     routers and norms 11,495,936; the tied embedding 738,197,504 → 3,822,530,560 (text total
//     25.23 B: Google's 25.2 B total and 3.8 B active).
//   - Nemotron-3-Nano-30B-A3B (h 2,688, 52 layers: 23 Mamba-2 of 64 heads of 64, 6 attention of
//     32 q / 2 KV of 128, 23 MoE of E 128, k 6, squared-ReLU m 1,856, one shared of 3,712; V
//     131,072): routed 23 × 6 × 9,977,856 = 1,376,944,128; shared 458,981,376; Mamba 23 ×
//     38,744,896 (8 groups of state 128, as Nemotron-H) = 891,132,608; attention 140,394,240;
//     routers and norms 7,980,928; embeddings 2 × 352,321,536 → 3,580,076,352 (NVIDIA: 3.6 B with
//     the embeddings), and the total from the same shapes is the catalog's 31,577,937,344 within
//     3,000. Nemotron-Cascade-2-30B-A3B is this architecture (the same count to the parameter).
//   - Llama-4-Maverick-17B-128E (AI-Hypercomputer/maxtext src/maxtext/configs/models/
//     llama4-17b-128e.yml: h 5,120, 48 layers of 40 q / 8 KV heads of 128, every 2nd an MoE layer
//     of E 128, k 1, m 8,192 and one shared expert, the others dense of 16,384; V 202,048):
//     routed 24 × 1 × 125,829,120 = 3,019,898,880; shared 3,019,898,880; dense 6,039,797,760;
//     attention 48 × 62,914,560 = 3,019,898,880; routers and norms 16,225,280; embeddings 2 ×
//     1,034,485,760 → 17,184,691,200 (Meta: 17 B; text total 400.71 B, the catalog's 401.58 B with
//     the 34-layer vision encoder).
//   - Llama-4-Scout-17B-16E (AI-Hypercomputer/maxtext src/maxtext/configs/models/llama4-17b-16e.yml:
//     Maverick's shapes with every layer MoE, E 16, k 1, m 8,192 and one shared expert): routed 48 ×
//     1 × 125,829,120 = 6,039,797,760; shared 6,039,797,760; attention 3,019,898,880; routers and
//     norms 4,428,800; embeddings 2,068,971,520 → 17,172,894,720 (Meta: 17 B; text total 48 × 16 ×
//     125,829,120 + the rest 11,133,096,960 = 107,769,861,120, Meta's 109 B with the vision encoder).
//   - Qwen3.5-122B-A10B (config.json, huggingface.co/Qwen/Qwen3.5-122B-A10B, as public copies of
//     it quote it — an MLX gather-mm benchmark's (3,072, 1,024, 256, 8), summaries giving 16 / 64
//     Gated DeltaNet key / value heads; single-sourced, lower confidence than the families above:
//     h 3,072, 48 layers: 12 gated attention of 32 q / 2 KV
//     heads of 256, 36 Gated DeltaNet of 16 key / 64 value heads of 128; E 256, k 8, m 1,024, one
//     shared of 1,024; V 248,320; the layer formulas of Qwen3.5-397B above): routed 48 × 8 ×
//     9,437,184 = 3,623,878,656; shared 452,984,832; attention 12 × 78,643,712 + 36 × 88,523,008 =
//     4,130,552,832; routers, gates and norms 38,194,176; embeddings 2 × 762,839,040 →
//     9,771,288,576 (Qwen: A10B; total 122,114,525,184, Qwen's 122 B; the catalog's 125.1 B adds
//     the MTP layer and the vision encoder).
//   - Nemotron-3-Super-120B-A12B (NVIDIA/Megatron-LM examples/post_training/modelopt/conf/nvidia/
//     NVIDIA-Nemotron-3-Super-120B-A12B-BF16.sh: h 4,096, 88 layers: 40 Mamba-2 of 128 heads of 64,
//     8 attention of 32 q / 2 KV of 128, 40 LatentMoE layers whose E 512 experts, k 22, are
//     squared-ReLU 2 × 1,024 × 2,688 in a 1,024-wide latent, with one shared expert of 5,376 in
//     the full width; V 131,072): routed 40 × 22 × 5,505,024 = 4,844,421,120; shared
//     1,761,607,680; latent projections 40 × 2 × 4,194,304 = 335,544,320; Mamba 40 × 109,640,064
//     (8 groups of state 128, as Nemotron-H) = 4,385,602,560; attention 8 × 35,655,680 =
//     285,245,440; routers and norms 84,074,496; embeddings 2 × 536,870,912 → 12,770,237,440
//     (NVIDIA: A12B; the catalog's 11.2 B is no count of it). The total from the same shapes,
//     120,668,707,840, plus the MTP block (one attention and one LatentMoE layer and its 8,192 ×
//     4,096 projection) is the catalog's 123,611,012,096 within 9,000.
//   - DeepSeek-V4-Flash (AI-Hypercomputer/maxtext hf_model_configs.py#deepseek4_284b_dict, tensor
//     shapes as hf_shape.py#DEEPSEEKV4_HF_WEIGHTS_TO_SHAPE lists them: h 4,096, 43 layers of 64
//     heads of 512 with q rank 1,024 and a grouped output of 8 × 1,024; E 256, k 6, m 2,048, one
//     shared; V 129,280; 21 CSA layers with a compressor and an indexer, 20 HCA layers with a
//     compressor; 4 hyper-connection streams): routed 43 × 6 × 25,165,824 = 6,492,782,592; shared
//     1,082,130,432; attention 4,599,123,136; compressors 261,464,576 and indexers 225,730,176;
//     routers 45,099,776; hyper-connections 33,884,439 and norms 356,352; embeddings 2 ×
//     529,530,880 → 13,799,633,239 (DeepSeek: 13 B activated, which leaves the embeddings out:
//     12.74 B). Total 284,332,241,239: DeepSeek's 284 B; the MLX copies' 284,333,146,519.
//   - DeepSeek-V4-Pro (config.json of deepseek-ai/DeepSeek-V4-Pro: h 7,168, 61 layers of 128 heads
//     of 512, q rank 1,536, output 16 × 1,024; E 384, k 6, m 3,072; 30 CSA and 31 HCA layers; the
//     same tensors): routed 61 × 6 × 66,060,288 = 24,178,065,408; shared 4,029,677,568; attention
//     18,293,589,632; compressors 670,128,640 and indexers 501,384,960; routers 167,926,656;
//     hyper-connections 84,069,603 and norms 881,664; embeddings 2 × 926,679,040 → 49,779,082,211
//     (DeepSeek: 49 B; without the embeddings 47.93 B). Total 1,572,997,202,915 (DeepSeek: 1.6 T;
//     the Base release's 1,600.79 B adds the MTP layer).
//   - MiMo-V2-Flash (architectures.csv's row and its sources: h 4,096, 48 layers: 9 full of 4 KV
//     heads and 39 sliding of 8, 64 q heads, keys 192 / values 128, a sink vector a sliding layer;
//     layer 0 a dense MLP of 16,384, 47 MoE layers of E 256, k 8, m 2,048, no shared expert,
//     router and correction bias; V 152,576 untied): routed 47 × 8 × 25,165,824 = 9,462,349,824;
//     attention 9 × 89,128,960 + 39 × 94,371,904 = 4,482,664,896; dense 201,326,592; routers and
//     norms 49,688,320 + 4,096; embeddings 2 × 624,951,296 → 15,445,936,320 (Xiaomi: 15 B active).
//     Total 308,778,780,864; with 3 MTP layers (vllm_mtp.go) and the FP8 release's 128 × 128
//     block scales (18,716,736: the o_proj tensors stay bf16) 309,785,317,824, the catalog's
//     309,785,318,400 less 576.
//   - LFM2-8B-A1B (architectures.csv's row; transformers configuration_lfm2_moe.py @ bd6769d, whose
//     defaults are "similar to LFM2-8B-A1B", and modular_lfm2_moe.py: h 2,048, 24 layers: 6
//     attention of 32 q / 8 KV heads of 64 with per-head q/k norms, 18 short convolutions of kernel
//     3; layers 0 and 1 a dense MLP of 7,168 (num_dense_layers 2), 22 MoE layers of E 32, k 4,
//     m 1,792, no shared expert, a bias-free router and the expert bias a buffer; V 65,536, tied):
//     routed 22 × 4 × 11,010,048 = 968,884,224; attention 6 × 10,485,888 = 62,915,328;
//     convolutions 18 × 16,783,360 = 302,100,480; dense 2 × 44,040,192 = 88,080,384; routers
//     22 × 65,536 = 1,441,792; norms 49 × 2,048 = 100,352; the tied embedding 134,217,728 →
//     1,557,740,288 (Liquid: 1.5 B active). Total (all 32 experts: 22 × 32 × 11,010,048 =
//     7,751,073,792 routed) 8,339,929,856, the catalog's count to the parameter.
//   - LFM2-24B-A2B (architectures.csv's row and its source: h 2,048, 40 layers: 10 attention of 32 q
//     / 8 KV heads of 64 with per-head q/k norms, 30 short convolutions of kernel 3; layers 0 and 1 a
//     dense MLP of 11,776, 38 MoE layers of E 64, k 4, m 1,536, no shared expert, a bias-free
//     router; V 65,536, tied): routed 38 × 4 × 9,437,184 = 1,434,451,968; attention 10 × 10,485,888
//     = 104,858,880; convolutions 30 × 16,783,360 = 503,500,800; dense 2 × 72,351,744 =
//     144,703,488; routers 38 × 131,072 = 4,980,736; norms 81 × 2,048 = 165,888; the tied embedding
//     134,217,728 → 2,326,879,488 (Liquid: A2B; the catalog's 2.3 B). Total (all 64 experts: 38 × 64
//     × 9,437,184 = 22,951,231,488 routed) 23,843,659,008, the catalog's count of its MLX copies
//     to the parameter (the base's adds the 38 × 64 expert biases its checkpoint stores).
//   - Jamba-Mini-1.5 (architectures.csv's row: transformers' JambaConfig defaults, whose shapes sum
//     to the catalog's count to the parameter, TestJambaMini15ShapesCount; config.json's
//     num_experts 16, num_experts_per_tok 2 in every other layer, expert_layer_period 2): the
//     total 51,570,323,328 less 16 MoE layers × 14 experts a token skips × 176,160,768 →
//     12,110,311,296 (AI21: 12B active); the catalog does not mark it a mixture of experts either.
var moeActiveFacts = map[string]activeFact{
	"Qwen/Qwen3-30B-A3B-Instruct-2507":                                       qwen3_30bA3b,
	"Qwen/Qwen3-Coder-30B-A3B-Instruct":                                      qwen3_30bA3b,
	"Qwen/Qwen3-VL-30B-A3B-Instruct":                                         qwen3_30bA3b, // the same language model (maxtext's qwen3_vl_30b_a3b_dict)
	"Qwen/Qwen3-235B-A22B":                                                   qwen3_235bA22b,
	"Qwen/Qwen3-235B-A22B-Instruct-2507":                                     qwen3_235bA22b,
	"Qwen/Qwen3-VL-235B-A22B-Instruct":                                       qwen3_235bA22b,
	"Qwen/Qwen3-Coder-480B-A35B-Instruct":                                    {35.474765312, "Qwen3-Coder-480B-A35B", 0},
	"Qwen/Qwen3-Coder-Next (qwen3_next)":                                     qwen3Next,
	"Qwen/Qwen3-Next-80B-A3B-Instruct":                                       qwen3Next,
	"Qwen/Qwen3.5-35B-A3B":                                                   qwen35_35bA3b,
	"Qwen/Qwen3.6-35B-A3B (same arch as Qwen3.5-35B-A3B)":                    qwen35_35bA3b,
	"Qwen/Qwen3.5-397B-A17B":                                                 {17.349040896, "Qwen3.5-397B-A17B", 0},
	"deepseek-ai/DeepSeek-V3 (also R1, R1-0528, V3-0324: same architecture)": {37.552297472, "DeepSeek-V3", 0},
	"deepseek-ai/DeepSeek-V3.2(-Exp)":                                        {38.417832848, "DeepSeek-V3.2", 0},
	"deepseek-ai/DeepSeek-V2-Lite (also -Chat, Coder-V2-Lite)":               {2.661150208, "DeepSeek-V2-Lite", 0},
	"moonshotai/Kimi-K2-Instruct":                                            kimiK2,
	"moonshotai/Kimi-K2-Instruct-0905":                                       kimiK2,
	"moonshotai/Kimi-K2-Thinking (K2 arch)":                                  kimiK2,
	"moonshotai/Kimi-K2.5":                                                   kimiK2,
	"moonshotai/Kimi-K2.6 (kimi_k25 arch)":                                   kimiK2,
	"zai-org/GLM-4.7-Flash":                                                  {3.89676608, "GLM-4.7-Flash", 0},
	"zai-org/GLM-5 / GLM-5.1":                                                glm5,
	"zai-org/GLM-4.5":                                                        glm45,
	"zai-org/GLM-4.6 (GLM-4.5 355B dims)":                                    glm45,
	"zai-org/GLM-4.7 (glm4_moe, GLM-4.5-355B dims)":                          glm45,
	"zai-org/GLM-4.5-Air":                                                    {13.424129664, "GLM-4.5-Air", 0},
	"MiniMaxAI/MiniMax-M2.5":                                                 miniMaxM2,
	"MiniMaxAI/MiniMax-M2.7":                                                 miniMaxM2,
	"mistralai/Mixtral-8x7B-Instruct-v0.1":                                   {12.879925248, "Mixtral-8x7B", 0},
	"mistralai/Mixtral-8x22B-Instruct-v0.1":                                  {39.161468928, "Mixtral-8x22B", 0},
	"google/gemma-4-26B-A4B(-it)":                                            {3.82253056, "Gemma-4-26B-A4B", 0},
	"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B":                                  nemotron3Nano,
	"meta-llama/Llama-4-Maverick-17B-128E-Instruct":                          {17.1846912, "Llama-4-Maverick-17B-128E", 0},
	"meta-llama/Llama-4-Scout-17B-16E-Instruct":                              {17.17289472, "Llama-4-Scout-17B-16E", 0},
	"Qwen/Qwen3.5-122B-A10B":                                                 {9.771288576, "Qwen3.5-122B-A10B", 0},
	"nvidia/NVIDIA-Nemotron-3-Super-120B-A12B":                               {12.77023744, "Nemotron-3-Super-120B-A12B", 0},
	"deepseek-ai/DeepSeek-V4-Flash":                                          {13.799633239, "DeepSeek-V4-Flash", 0},
	"deepseek-ai/DeepSeek-V4-Pro":                                            {49.779082211, "DeepSeek-V4-Pro", 0},
	"XiaomiMiMo/MiMo-V2-Flash":                                               {15.44593632, "MiMo-V2-Flash", 0},
	"LiquidAI/LFM2-8B-A1B":                                                   {1.557740288, "LFM2-8B-A1B", 0},
	"LiquidAI/LFM2-24B-A2B":                                                  {2.326879488, "LFM2-24B-A2B", 0},
	"ai21labs/AI21-Jamba-Mini-1.5":                                           {12.110311296, "Jamba-Mini-1.5", 0},
}

var (
	qwen3_30bA3b   = activeFact{3.353032704, "Qwen3-30B-A3B", 0}
	qwen3_235bA22b = activeFact{22.19076352, "Qwen3-235B-A22B", 0}
	qwen3Next      = activeFact{3.874929408, "Qwen3-Next-80B-A3B", 0}
	qwen35_35bA3b  = activeFact{3.454988928, "Qwen3.5-35B-A3B", 0}
	kimiK2         = activeFact{32.861500928, "Kimi-K2", 1026.408232448}
	glm5           = activeFact{41.784728832, "GLM-5", 743.911218432}
	glm45          = activeFact{33.632266144, "GLM-4.5", 0}
	miniMaxM2      = activeFact{11.030553088, "MiniMax-M2", 0}
	nemotron3Nano  = activeFact{3.580076352, "Nemotron-3-Nano-30B-A3B", 0}
)

// activeFact is one architecture's active parameters (billions) and the name its shapes go by;
// TotalB is the total the same shapes sum to, where a conversion that drops the release's extras
// (an MLX copy without the multi-token-prediction layer or the FP8 scales) is known to count it.
type activeFact struct {
	ActiveB float64
	Shapes  string
	TotalB  float64
}

// moeActiveOf is the active count of a catalog entry's architecture: by its architectures.csv
// base (or, for a re-upload without a row, its kin's: kinarch.go), else by its parameter count,
// when that is, to the parameter, the count of a 16-bit entry whose base has a fact (Nemotron-Cascade-2-30B-A3B and Nemotron-3-Nano-30B-A3B-BF16 both hold
// 31,577,937,344: the same tensors).
func moeActiveOf(m *catalog.Model) (activeFact, bool) {
	if f, ok := moeActiveFacts[m.Arch.Base]; ok && m.Arch.Base != "" {
		return f, true
	}
	if k := archKin(m); k != nil && k != m { // a re-upload of a row's model (kinarch.go)
		if f, ok := moeActiveFacts[k.Arch.Base]; ok {
			return f, true
		}
	}
	if base, ok := activeBySameCount(m.ParametersRaw); ok && m.ParametersRaw > 0 {
		return moeActiveFacts[base], true
	}
	// A count within a millionth of a family's total from its shapes is that family's: the MLX
	// copies inferencerlabs/GLM-5.1-MLX-4.8bit-INF (743,911,218,432, GLM-5's shapes' total) and mlx-community/Kimi-K2.6-mlx-DQ3_K_M-q8 (1,026,408,232,448, Kimi-K2's shapes' total),
	// which no architectures.csv row or same-named entry covers.
	for _, f := range []activeFact{kimiK2, glm5} {
		if d := paramsB(m) - f.TotalB; d > -1e-6*f.TotalB && d < 1e-6*f.TotalB {
			return f, true
		}
	}
	return activeFact{}, false
}

// activeBySameCount is the architectures.csv base (a key of moeActiveFacts) of the 16-bit catalog
// entries of parameter count n whose base has a fact (the last in catalog order, if several): a
// table generated from the catalog (kin_gen.go; kin_tables_test.go says how it is made).
func activeBySameCount(n int64) (string, bool) {
	i, ok := slices.BinarySearchFunc(activeBySameCountTable[:], n, func(e countBase, n int64) int { return cmp.Compare(e.count, n) })
	if !ok {
		return "", false
	}
	return activeBySameCountTable[i].base, true
}
