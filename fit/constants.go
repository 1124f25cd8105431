package fit

// The constants of the physics, for the packages that put them into words (claim's header and
// warnings, the bridge's explanation). Each is defined once, in resolve.go or quant.go, with
// where it came from; these names only let others say it.
const (
	WeightsHeadroom    = weightsHeadroom  // × on the weights when the quantization is overridden
	RuntimeOverheadGiB = runtimeOverhead  // GiB beside the weights and the KV cache
	KVFallbackGBPerB   = kvFallbackGBPerB // KV GB per billion parameters per token when the shape is unknown
	MultiDeviceScale   = multiDeviceScale // N devices give N × this of one device's bandwidth
)

// KVElementBytes is the size in bytes of one KV-cache element of the named type (0 if unknown).
func KVElementBytes(name string) float64 {
	_, b, _ := kvElementBytes(name)
	return b
}

// CeilFloor is a floor (Gi, GB/s) rounded up as fit rounds its own, capped as they are.
func CeilFloor(x float64) int64 { return ceilFloor(x) }
