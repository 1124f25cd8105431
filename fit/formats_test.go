package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

func TestServingFormatBytes(t *testing.T) {
	for _, c := range []struct {
		q    string
		want float64
		why  string
	}{
		{"BF16", 2, "16 bits"}, {"FP16", 2, "16 bits"}, {"FP8", 1, "8 bits"}, {"INT8", 1, "8 bits"},
		{"MXFP4", 0.53125, "(4 + 8/32) / 8 = 4.25 / 8"},
		{"NVFP4", 0.5625, "(4 + 8/16) / 8 = 4.5 / 8"},
		{"AWQ-4bit", 0.51953125, "(4 + (16 + 4)/128) / 8 = 4.15625 / 8"},
		{"GPTQ-Int4", 0.51953125, "(4 + (16 + 4)/128) / 8"},
		{"AWQ-8bit", 1.0234375, "(8 + (16 + 8)/128) / 8 = 8.1875 / 8"},
		{"GPTQ-Int8", 1.0234375, "(8 + (16 + 8)/128) / 8"},
		{"Q4_K_M", 4.58 * (1 << 30) / 8030261248.0, "llama.cpp's Llama-3-8B file: 4.58 GiB / 8,030,261,248 = 0.6124"},
		{"Q8_0", 7.96 * (1 << 30) / 8030261248.0, "7.96 GiB / 8,030,261,248 = 1.0643 (8.5 bits)"},
		{"Q4_0", 4.34 * (1 << 30) / 8030261248.0, "4.34 GiB / 8,030,261,248 = 0.5803"},
		{"mlx-4bit", 0.55, "llmfit's figure for the MLX types"},
	} {
		if got := RealBytesPerParam(c.q); got != c.want {
			t.Errorf("RealBytesPerParam(%s) = %v, want %v (%s)", c.q, got, c.want, c.why)
		}
	}
}

func TestReleaseFormat(t *testing.T) {
	for _, c := range []struct{ model, want string }{
		{"nvidia/Llama-3.1-8B-Instruct-FP8", "FP8"},
		{"meta-llama/Llama-3.1-8B-Instruct", "BF16"},
		{"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "AWQ-4bit"},
		{"deepseek-ai/DeepSeek-R1", "FP8"},
		{"openai/gpt-oss-120b", "MXFP4 experts + BF16"},
		{"unsloth/gpt-oss-20b-GGUF", "Q4_K_M"},                                // a GGUF repository: llmfit's quant
		{"lmstudio-community/DeepSeek-R1-0528-Qwen3-8B-MLX-4bit", "mlx-4bit"}, // prequant "mlx 4-bit"
		{"mlx-community/Qwen2.5-0.5B-Instruct-4bit", "mlx-4bit"},              // no row: read from the name
	} {
		m, err := catalog.Lookup(c.model)
		if err != nil {
			t.Fatal(err)
		}
		if got := ReleaseFormat(m).Name; got != c.want {
			t.Errorf("%s: %q, want %q", c.model, got, c.want)
		}
	}
}

func TestMixedWeightFormat(t *testing.T) {
	// openai/gpt-oss-120b in kv mode is sized on its release (params.go): 116,829,156,672
	// parameters, of which the routed experts' matrices 36 × 128 × (2,880 × 5,760 + 2,880 × 2,880)
	// = 114,661,785,600 are MXFP4 (0.53125 B) and the other 2,167,371,072 BF16 (2 B):
	// 60,914,073,600 + 4,334,742,144 = 65,248,815,744 B = 60.77 GiB, OpenAI's model card's 60.8 GiB
	// checkpoint; 0.5584977 B per parameter. (The catalog's 120.4 B and 9.6 B active gave 72.8 GB.)
	b := resolve(t, func(t *target.Target) { t.Model, t.Sizing = "openai/gpt-oss-120b", "kv" })
	if b.Quant != "MXFP4 experts + BF16" || !within(b.BytesPerParam, 0.5584977, 1e-7) || !near(b.WeightsGB, 65.248815744) ||
		b.ParamsB != 116.829156672 || b.ActiveParamsB != 5.132849472 {
		t.Errorf("gpt-oss-120b: %s, %v B/param, %v GB, %v B params, %v B active", b.Quant, b.BytesPerParam, b.WeightsGB, b.ParamsB, b.ActiveParamsB)
	}
	// Its own format typed back is accepted; MXFP4 for everything is an override.
	b = resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Quant = "openai/gpt-oss-120b", "kv", "mxfp4 experts + bf16"
	})
	if b.Quant != "MXFP4 experts + BF16" || b.QuantOverride {
		t.Errorf("own format typed: %s override %v", b.Quant, b.QuantOverride)
	}
	// MXFP4 for every linear layer; the embedding and the LM head (2 × 201,088 × 2,880 =
	// 1,158,266,880) stay 16-bit: (116,829,156,672 − 1,158,266,880) × 0.53125 + 1,158,266,880 × 2
	// = 61,450,160,202 + 2,316,533,760 = 63,766,693,962 B = 0.5458115 B per parameter.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing, t.Quant = "openai/gpt-oss-120b", "kv", "MXFP4" })
	if b.Quant != "MXFP4" || !b.QuantOverride || !within(b.BytesPerParam, 0.5458115, 1e-7) {
		t.Errorf("MXFP4 override: %s %v %v", b.Quant, b.QuantOverride, b.BytesPerParam)
	}
	// The FP8 repository in kv mode: its linear layers at 1 B, the embedding and the LM head
	// (2 × 128,256 × 4,096 = 1,050,673,152 parameters) at 2 B: (8,030,261,248 − 1,050,673,152) × 1
	// + 1,050,673,152 × 2 = 6,979,588,096 + 2,101,346,304 = 9,080,934,400 B = 8.457 GiB (the
	// checkpoint's 9.08 GB; vLLM loads it as about 8.5 GiB); llmfit mode keeps Q4_K_M.
	b = resolve(t, func(t *target.Target) { t.Model, t.Sizing = "nvidia/Llama-3.1-8B-Instruct-FP8", "kv" })
	if b.Quant != "FP8" || !within(b.WeightsGB, 9.0809344, 1e-9) {
		t.Errorf("FP8 repo kv: %s %v %v", b.Quant, b.BytesPerParam, b.WeightsGB)
	}
	b = resolve(t, func(t *target.Target) { t.Model = "nvidia/Llama-3.1-8B-Instruct-FP8" })
	if b.Quant != "Q4_K_M" || b.BytesPerParam != 0.58 {
		t.Errorf("FP8 repo llmfit: %s %v", b.Quant, b.BytesPerParam)
	}
}
