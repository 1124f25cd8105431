package fit

import "github.com/fitclaim/fitclaim/catalog"

// The speed model's per-layer MoE time (speed.go) is the routing and expert dispatch of a layer
// with routed experts; a dense layer has none. Most mixtures of experts route in every layer,
// but some do not (config.json's first_k_dense_replace, interleave_moe_layer_step, or a hybrid's
// Mamba and attention-only layers), so their time counts only the layers that route:
//
//	architecture (moeactive.go's shapes)   layers  with routed experts
//	DeepSeek-V3 / R1, V3.2                 61      58 (first_k_dense_replace 3)
//	Kimi-K2 family                         61      60 (first_k_dense_replace 1)
//	DeepSeek-V2-Lite                       27      26 (first_k_dense_replace 1)
//	GLM-4.7-Flash                          47      46 (first_k_dense_replace 1)
//	GLM-5 / 5.1                            78      75 (first_k_dense_replace 3)
//	GLM-4.5 / 4.6 / 4.7                    92      89 (first_k_dense_replace 3)
//	GLM-4.5-Air                            46      45 (first_k_dense_replace 1)
//	Llama-4-Maverick-17B-128E              48      24 (interleave_moe_layer_step 2)
//	Nemotron-3-Nano-30B-A3B                52      23 (23 Mamba-2, 6 attention, 23 MoE)
//	Nemotron-3-Super-120B-A12B             88      40 (40 Mamba-2, 8 attention, 40 LatentMoE)
//	MiMo-V2-Flash                          48      47 (moe_layer_freq: layer 0 dense)
//	LFM2-8B-A1B                            24      22 (num_dense_layers 2)
//	LFM2-24B-A2B                           40      38 (num_dense_layers 2)
//	Jamba-Mini-1.5                         32      16 (expert_layer_period 2)
//
// The layer counts are moeactive.go's (its sources there); every other architecture routes in
// each of its layers.
var moeRoutedLayers = map[string]struct{ layers, routed int }{
	"DeepSeek-V3":                {61, 58},
	"DeepSeek-V3.2":              {61, 58},
	"Kimi-K2":                    {61, 60},
	"DeepSeek-V2-Lite":           {27, 26},
	"GLM-4.7-Flash":              {47, 46},
	"GLM-5":                      {78, 75},
	"GLM-4.5":                    {92, 89},
	"GLM-4.5-Air":                {46, 45},
	"Llama-4-Maverick-17B-128E":  {48, 24},
	"Nemotron-3-Nano-30B-A3B":    {52, 23},
	"Nemotron-3-Super-120B-A12B": {88, 40},
	"MiMo-V2-Flash":              {48, 47},
	"LFM2-8B-A1B":                {24, 22},
	"LFM2-24B-A2B":               {40, 38},
	"Jamba-Mini-1.5":             {32, 16},
}

// RoutedLayersOf is the layers of a catalog model whose time the per-layer MoE term counts, given
// layers, the depth the sizing uses (0: unknown): the routed ones where the model's architecture
// has dense layers among them (moeRoutedLayers), else layers. A depth other than the
// architecture's (an override) keeps the given depth: its split is not known.
func RoutedLayersOf(m *catalog.Model, layers int) int {
	if m == nil {
		return layers
	}
	if f, ok := moeActiveOf(m); ok {
		if s, ok := moeRoutedLayers[f.Shapes]; ok && s.layers == layers {
			return s.routed
		}
	}
	return layers
}
