package fit

import "github.com/fitclaim/fitclaim/target"

// How a model split over n devices of one product spends a decoded token's time depends on the
// engine's split, not only on the bytes:
//
//   - vLLM splits by tensor parallelism: every device holds a share of every layer, and all read
//     at once, so a token takes one device's share of the weights and its KV cache. That KV share
//     is 1/n only when the KV heads divide over the devices: vLLM keeps max(1, kvHeads/n) heads
//     per device (a KV head is copied when there are fewer heads than devices), and an MLA latent,
//     one per layer, whole on every device (VLLMCache.layerTokenBytes, the same rule its memory
//     budget uses).
//   - llama.cpp splits by layers (--split-mode layer, its default, and what deploy writes): each
//     device holds a run of layers and their KV cache, and a token passes through the devices one
//     after another, so it takes all the bytes at one device's bandwidth, whatever n. More devices
//     hold a larger model; they do not decode one sequence faster. (data/truth-train.tsv's one
//     llama.cpp run on two devices: Qwen2.5-Coder-7B Q4_K_M on 2 × RTX 2070 SUPER decodes 69.9
//     tok/s, as one device would at the calibrated speed, not the 1.6× a parallel split predicts.)
//
// Both add the stated, uncalibrated CommSecondsPerExtraDevice per extra device.

// KVDeviceShare is the share of the whole KV cache one of n devices keeps: 1/n for an even
// split (llama.cpp's layers; vLLM's KV heads when they divide over the devices), more under vLLM
// when they do not (copied heads; an MLA latent, whole on every device: share 1).
func (b *Bounds) KVDeviceShare(n int) float64 {
	n = max(1, n)
	if n == 1 || b.Engine != target.EngineVLLM {
		return 1 / float64(n)
	}
	_, elem, _ := kvElementBytes(b.KVCache)
	c := vllmCacheOf(b, elem)
	if one := c.deviceBytes(1, b.ContextTokens); one > 0 {
		return c.deviceBytes(n, b.ContextTokens) / one
	}
	return 1 / float64(n)
}

// LayersInTurn reports whether n devices run a token's layers one after another (llama.cpp's
// layer split) rather than at once (vLLM's tensor parallelism).
func (b *Bounds) LayersInTurn(n int) bool { return n > 1 && b.Engine != target.EngineVLLM }

// timedReadBytes is the bytes per decoded token whose reading, at one device's bandwidth, sets
// the token's time on n devices: every byte for a split whose devices take turns, else one
// device's share of the weights and of the KV cache it keeps (what a token reads of it).
func (b *Bounds) timedReadBytes(n int) float64 {
	n = max(1, n)
	if n == 1 || b.LayersInTurn(n) {
		return b.readBytesPerToken()
	}
	return b.weightBytesPerToken()/float64(n) + b.KVReadBytes*b.KVDeviceShare(n)
}

// TimedReadGB is timedReadBytes in GB, for the words that explain a floor or an estimate.
func (b *Bounds) TimedReadGB(n int) (weightsGB, kvGB float64) {
	n = max(1, n)
	if n == 1 || b.LayersInTurn(n) {
		return b.weightBytesPerToken() / 1e9, b.KVReadBytes / 1e9
	}
	return b.weightBytesPerToken() / float64(n) / 1e9, b.KVReadBytes * b.KVDeviceShare(n) / 1e9
}
