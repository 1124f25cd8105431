package conformance

import (
	"github.com/fitclaim/fitclaim/fit"
)

// The drivers the suite covers: for each, the request alternatives its claim
// must have (one for exactly; firstAvailable's in order) with their
// DeviceClass, sub-request name and the fleet devices each must match.
// Adding a driver to the suite is adding an entry here.

var (
	altLLMfit = AltSpec{Class: DriverLLMfit, Expect: func(d FakeDevice, b *fit.Bounds, _ []string) bool {
		return ExpectLLMfit(d, b.MemoryMi, b.MinBandwidthGBs)
	}}
	altNVIDIA = AltSpec{Class: DriverNVIDIA, Expect: func(d FakeDevice, b *fit.Bounds, products []string) bool {
		return ExpectNVIDIA(d, b.MemoryMi, products)
	}}
	altAMD = AltSpec{Class: DriverAMD, Expect: func(d FakeDevice, b *fit.Bounds, _ []string) bool {
		return ExpectMemoryOnly(d, DriverAMD, b.MemoryMi)
	}}
	altIntel = AltSpec{Class: DriverIntel, Expect: func(d FakeDevice, b *fit.Bounds, _ []string) bool {
		return ExpectMemoryOnly(d, DriverIntel, b.MemoryMi)
	}}
)

func llmfitDeviceOf(a Accel) []string { return []string{"llmfit-" + a.ID} }
func realDeviceOf(a Accel) []string   { return []string{"gpu-" + a.ID} }

// anyDevicesOf: driver any chooses an accelerator through llmfit.ai or, for NVIDIA, its own driver.
func anyDevicesOf(a Accel) []string { return append(llmfitDeviceOf(a), realDeviceOf(a)...) }

func subRequest(a AltSpec, name string) AltSpec { a.Sub = name; return a }

var driverSpecs = map[string]DriverSpec{
	fit.DriverLlmfit: {Alts: []AltSpec{altLLMfit}, SelectedDevices: llmfitDeviceOf},
	fit.DriverNVIDIA: {Alts: []AltSpec{altNVIDIA}, SelectedDevices: realDeviceOf, Products: true},
	fit.DriverAMD:    {Alts: []AltSpec{altAMD}, SelectedDevices: realDeviceOf},
	fit.DriverIntel:  {Alts: []AltSpec{altIntel}, SelectedDevices: realDeviceOf},
	// any: firstAvailable, llmfit.ai first, then NVIDIA.
	fit.DriverAny: {Alts: []AltSpec{subRequest(altLLMfit, "llmfit"), subRequest(altNVIDIA, "nvidia")}, SelectedDevices: anyDevicesOf, Products: true},
}
