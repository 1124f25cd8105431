package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Llama-4-Scout is in the catalog only as an abliterated re-upload, whose catalog context was
// config.json's 10,485,760 × its RoPE factor 16 = 167,772,160 and whose active count 11.88 B;
// architectures.csv and moeactive.go give maxtext's llama4-17b-16e shapes:
//
//	maximum context 10,485,760; active 17,172,894,720 (moeactive.go)
//	KV at 131,072 tokens: 12 global layers keep every token, 36 chunked ones 8,192:
//	2 × (12 × 131,072 + 36 × 8,192) × 8 KV heads × 128 × 2 B = 1,867,776 × 4,096 = 7,650,410,496 B
//	every layer routes (interleave_moe_layer_step 1): 48 MoE layers
func TestLlama4ScoutReupload(t *testing.T) {
	b := resolve(t, func(t *target.Target) {
		t.Model, t.Sizing, t.Context = "jiangchengchengNLP/Llama-4-Scout-17B-16E-Instruct-abliterated-v2", "kv", 131072
	})
	if b.MaxContext != 10485760 || !near(b.ActiveParamsB, 17.17289472) || b.KVBytes != 7650410496 || b.RoutedLayers != 48 {
		t.Errorf("Scout: max %d, active %v B, KV %v B, %d MoE layers", b.MaxContext, b.ActiveParamsB, b.KVBytes, b.RoutedLayers)
	}
}
