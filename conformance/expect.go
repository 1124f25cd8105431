package conformance

import "sort"

// Expectations computed from the fleet's published facts and the bounds
// alone, never through CEL: what a correct selector for each driver (with the
// driver's DeviceClass) must match. REFERENCE §4 gives the layouts.

const gi = int64(1) << 30

// mi is a MiB in bytes. The floors are per device in MiB (fit.Bounds.MemoryMi): the CEL asks
// quantity('<N>Mi'), or quantity('<N/1024>Gi') for a whole Gi, and compares bytes.
const mi = int64(1) << 20

// ExpectLLMfit: an llmfit.ai device meeting both floors and healthy.
func ExpectLLMfit(d FakeDevice, memoryMi, minBandwidthGBs int64) bool {
	return d.FitsLLMfit(memoryMi, minBandwidthGBs)
}

// NVIDIAProducts is the productName allow-list a bandwidth floor becomes for
// NVIDIA's driver: the products of the NVIDIA accelerators whose reported
// memory and bandwidth meet the floors, sorted.
func NVIDIAProducts(accels []Accel, memoryMi, minBandwidthGBs int64) []string {
	// A name boards of two sizes share (NVML's name has no size: the RTX 3080's 10 and 12 GB)
	// stands for its slowest board's bandwidth, which no driver publishes; the selector's memory
	// clause then tells the boards apart.
	fits, slow := map[string]bool{}, map[string]bool{}
	for _, a := range accels {
		if a.Driver != DriverNVIDIA || a.ProductName == "" {
			continue
		}
		if a.MemoryMiB >= memoryMi {
			fits[a.ProductName] = true
		}
		if a.BandwidthGBs < float64(minBandwidthGBs) {
			slow[a.ProductName] = true
		}
	}
	set := map[string]bool{}
	for p := range fits {
		if !slow[p] {
			set[p] = true
		}
	}
	var out []string
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ExpectNVIDIA: a whole NVIDIA GPU (not a MIG slice) whose reported memory
// meets the floor and whose product is on the allow-list.
func ExpectNVIDIA(d FakeDevice, memoryMi int64, products []string) bool {
	if d.Driver != DriverNVIDIA || d.Missing != "" || d.Type != "gpu" || d.MemoryBytes < memoryMi*mi {
		return false
	}
	for _, p := range products {
		if p == d.ProductName {
			return true
		}
	}
	return false
}

// ExpectMemoryOnly: a device of the driver whose reported memory meets the
// floor (AMD's 0 = unknown never does).
func ExpectMemoryOnly(d FakeDevice, driver string, memoryMi int64) bool {
	return d.Driver == driver && d.Missing != "memory" && d.MemoryBytes >= memoryMi*mi
}
