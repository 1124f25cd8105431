package fit

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// DeepSeek-R1 under vLLM is sized without its multi-token-prediction layer, which vLLM loads only
// for speculative decoding (vllm_mtp.go); llama.cpp keeps the GGUF's count:
//
//	params   684,531,386,000 (the catalog) − 13,463,426,304 (the MTP layer) = 671,067,959,696
//	weights  FP8 with the embedding and the head in BF16 (2 × 129,280 × 7,168 = 1,853,358,080):
//	         671,067,959,696 × 1 B + 1,853,358,080 × 1 B more = 672,921,317,776 B = 672.92 GB
//	llama.cpp-style (the default engine): 684,531,386,000 + 1,853,358,080 = 686,384,744,080 B
//
// The main model from its shapes is 671,026,419,200; the 41,540,496 left are the FP8 block scales.
func TestVLLMLeavesOutDeepSeekMTP(t *testing.T) {
	v := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Count = "deepseek-ai/DeepSeek-R1", "kv", target.EngineVLLM, 8
	})
	if !near(v.ParamsB, 671.067959696) || !near(v.WeightsGB, 672.921317776) ||
		!strings.HasSuffix(v.ParamsFrom, "vLLM loads 671.07B: the 684.53B less the 13.46B multi-token-prediction layer, which it loads only for speculative decoding") {
		t.Errorf("vLLM: %v B, %v GB, %q", v.ParamsB, v.WeightsGB, v.ParamsFrom)
	}
	l := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Count = "deepseek-ai/DeepSeek-R1", "kv", 8 })
	if !near(l.ParamsB, 684.531386) || !near(l.WeightsGB, 686.38474408) || strings.Contains(l.ParamsFrom, "multi-token") {
		t.Errorf("llama.cpp: %v B, %v GB, %q", l.ParamsB, l.WeightsGB, l.ParamsFrom)
	}
	// The active count is the same for both (the MTP layer never counted in it): 37,552,297,472.
	if !near(v.ActiveParamsB, 37.552297472) || !near(l.ActiveParamsB, 37.552297472) {
		t.Errorf("active: vLLM %v, llama.cpp %v", v.ActiveParamsB, l.ActiveParamsB)
	}
	// DeepSeek-V3.2's MTP layer holds an indexer too: 685,396,921,376 − 13,477,386,552 = 671,919,534,824.
	d := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Engine, t.Count = "deepseek-ai/DeepSeek-V3.2", "kv", target.EngineVLLM, 8
	})
	if !near(d.ParamsB, 671.919534824) {
		t.Errorf("V3.2 under vLLM: %v B", d.ParamsB)
	}
	// llmfit mode never moves.
	m := resolve(t, func(t *target.Target) { t.Model, t.Engine = "deepseek-ai/DeepSeek-R1", target.EngineVLLM })
	if !near(m.ParamsB, 684.531386) {
		t.Errorf("llmfit mode: %v B", m.ParamsB)
	}
}

// One rule for every architecture with an MTP block (vllm_mtp.go's mtpFacts), under vLLM only:
//
//	zai-org/GLM-4.5 (stores the block and copies of the embedding and head):
//	  358,337,791,296 − (3,988,069,792 + 1,551,892,480) = 352,797,829,024
//	zai-org/GLM-4.6 (the block, no copies): 356,785,898,816 − 3,988,069,792 = 352,797,829,024
//	zai-org/GLM-4.7-FP8 (its count is GLM-4.7's, 358,337,791,296, params.go): 352,797,829,024
//	zai-org/GLM-5-FP8: 753,910,024,032 − 9,952,920,576 = 743,957,103,456 (45,885,024 FP8 scales kept)
//	zai-org/GLM-4.5-Air: 110,468,824,832 − (2,375,059,584 + 1,241,513,984) = 106,852,251,264
//	zai-org/GLM-4.7-Flash: 31,221,488,576 − (643,706,176 + 634,388,480) = 29,943,393,920
//	Qwen/Qwen3-Next-80B-A3B-Instruct: 81,324,862,720 − 1,650,471,424 = 79,674,391,296
//	Qwen/Qwen3.5-35B-A3B: 35,951,822,704 − 844,640,768 = 35,107,181,936
//	Qwen/Qwen3.5-397B-A17B-FP8: 403,422,386,928 − 6,595,568,128 = 396,826,818,800
//	Qwen/Qwen3.5-27B: 27,781,427,952 − 424,699,392 = 27,356,728,560
//	Qwen/Qwen3.5-9B: 9,653,104,368 − 243,290,624 = 9,409,813,744
//	Qwen/Qwen3.5-2B: 2,274,069,824 − 60,828,160 = 2,213,241,664 (it kept the block: no count had
//	  confirmed its MLP width)
//	nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16: 123,611,012,096 − 2,942,304,256 = 120,668,707,840
//	QuantTrio/DeepSeek-V3.2-AWQ (685,011,996,928: 13,092,462,104 over main, short of block +
//	  copies 13,477,386,552 × 0.99, past the block's 11,624,028,472 × 0.99): 673,387,968,456
//
// and copies without the block keep their count: Qwen/Qwen3-Coder-Next (79,674,391,296, the main
// model), lmstudio-community/GLM-4.7-Flash-MLX-8bit (29,943,393,920), mlx-community/Qwen3.6-35B-
// A3B-bf16 (35,107,181,936), mlx-community/Qwen3.5-2B-4bit (2,174,746,624, below the main model).
func TestVLLMLeavesOutEveryMTPBlock(t *testing.T) {
	for _, c := range []struct {
		model string
		want  float64
	}{
		{"zai-org/GLM-4.5", 352.797829024},
		{"zai-org/GLM-4.6", 352.797829024},
		{"zai-org/GLM-4.7-FP8", 352.797829024},
		{"zai-org/GLM-5-FP8", 743.957103456},
		{"zai-org/GLM-4.5-Air", 106.852251264},
		{"zai-org/GLM-4.7-Flash", 29.94339392},
		{"Qwen/Qwen3-Next-80B-A3B-Instruct", 79.674391296},
		{"Qwen/Qwen3.5-35B-A3B", 35.107181936},
		{"Qwen/Qwen3.5-397B-A17B-FP8", 396.8268188},
		{"Qwen/Qwen3.5-27B", 27.35672856},
		{"Qwen/Qwen3.5-9B", 9.409813744},
		{"Qwen/Qwen3.5-2B", 2.213241664},
		{"nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16", 120.66870784},
		{"QuantTrio/DeepSeek-V3.2-AWQ", 673.387968456},
		{"Qwen/Qwen3-Coder-Next", 79.674391296},
		{"lmstudio-community/GLM-4.7-Flash-MLX-8bit", 29.94339392},
		{"mlx-community/Qwen3.6-35B-A3B-bf16", 35.107181936},
		{"mlx-community/Qwen3.5-2B-4bit", 2.174746624},
	} {
		v := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Engine, t.Count = c.model, "kv", target.EngineVLLM, 8
		})
		if !near(v.ParamsB, c.want) {
			t.Errorf("%s under vLLM: %.9f B, want %.9f (%s)", c.model, v.ParamsB, c.want, v.ParamsFrom)
		}
		l := resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Count = c.model, "kv", 8 })
		if strings.Contains(l.ParamsFrom, "multi-token") {
			t.Errorf("%s under llama.cpp: %q", c.model, l.ParamsFrom)
		}
	}
}

// DeepSeek-V4 and MiMo-7B under vLLM, which skips "mtp." (deepseek_v4.py) and "model.mtp_layers."
// (mimo.py) when it loads the main model (vllm_mtp.go's figures):
//
//	DeepSeek-V4-Flash (DeepSeek-V4-Flash-Base's count, params.go): 292,021,347,282 −
//	  (6,610,048,891 block + 1,059,061,760 copies) = 284,352,236,631
//	DeepSeek-V4-Pro (DeepSeek-V4-Pro-Base's): 1,600,790,440,862 − (25,840,145,979 + 1,853,358,080)
//	  = 1,573,096,936,803
//	MiMo-7B-Base: 7,833,409,536 − 210,790,400 = 7,622,619,136, dense: all of it read per token
//	MiMo-7B-RL: the catalog's round 7,000,000,000 is below main 7,622,619,136: nothing taken
//	MiMo-V2-Flash: 309,785,318,400 − 987,820,224 = 308,797,498,176 (its active 15,445,936,320 from
//	  moeactive.go's shapes; it was the catalog's 309.79 B and round 15 B)
//	mlx-community/DeepSeek-V4-Flash-4bit: 284,333,146,519, main's 284,332,241,239 within 0.001 B
//	  of the block's 6.61 B: a conversion without the block, nothing taken
//
// and Qwen3.5-27B, dense, reads what vLLM loads: 27,781,427,952 − 424,699,392 = 27,356,728,560.
func TestVLLMLeavesOutV4AndMiMoMTP(t *testing.T) {
	for _, c := range []struct {
		model          string
		count          int
		params, active float64
	}{
		{"deepseek-ai/DeepSeek-V4-Flash", 8, 284.352236631, 13.799633239},
		{"deepseek-ai/DeepSeek-V4-Pro", 8, 1573.096936803, 49.779082211},
		{"XiaomiMiMo/MiMo-7B-Base", 1, 7.622619136, 7.622619136},
		{"XiaomiMiMo/MiMo-7B-RL", 1, 7, 7},
		{"XiaomiMiMo/MiMo-V2-Flash", 8, 308.797498176, 15.44593632},
		{"mlx-community/DeepSeek-V4-Flash-4bit", 8, 284.333146519, 13.799633239},
		{"Qwen/Qwen3.5-27B", 1, 27.35672856, 27.35672856},
	} {
		v := resolve(t, func(t *target.Target) {
			t.Model, t.Sizing, t.Engine, t.Count = c.model, "kv", target.EngineVLLM, c.count
		})
		if !near(v.ParamsB, c.params) || !near(v.ActiveParamsB, c.active) {
			t.Errorf("%s under vLLM: %v B, %v active; want %v, %v", c.model, v.ParamsB, v.ActiveParamsB, c.params, c.active)
		}
	}
	// llama.cpp keeps what the release holds: MiMo-7B-Base's 7,833,409,536.
	l := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "XiaomiMiMo/MiMo-7B-Base", "kv" })
	if !near(l.ParamsB, 7.833409536) || !near(l.ActiveParamsB, 7.833409536) {
		t.Errorf("MiMo-7B-Base under llama.cpp: %v B, %v active", l.ParamsB, l.ActiveParamsB)
	}
}
