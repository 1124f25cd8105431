package fit

import (
	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// MemoryParts is what one device holds under the claim, in GiB (2^30 bytes, as the drivers
// report memory): the page draws it against a device's memory.
type MemoryParts struct {
	WeightsGiB float64 // this device's share of the weights
	KVGiB      float64 // this device's share of the KV cache (kv sizing; 0 in llmfit mode)
	ReserveGiB float64 // kv: the runtime overhead; llmfit: the rest of llmfit's floor above the weights
}

// Total is the memory the parts take on one device.
func (p MemoryParts) Total() float64 { return p.WeightsGiB + p.KVGiB + p.ReserveGiB }

// Parts splits the per-device memory of the bounds: weights shared over Count devices, each
// device's KV cache (KVDeviceShare: 1/n, more under vLLM where a device keeps an MLA latent
// whole or copies KV heads), as sizeKV and sizeLlmfit split them, plus the reserve: in kv mode
// they add up to the floor before its ceiling (MemoryGB). The KV part was 1/n whatever vLLM
// keeps: DeepSeek-V3 on 8 (32k × 8, fp8) drew 1.07 GiB of KV a device where the floor holds
// 8.58, and the picture's parts summed to 95.51 GiB under a 104 Gi floor.
func (b *Bounds) Parts() MemoryParts {
	n := float64(max(b.Target.Count, 1))
	p := MemoryParts{WeightsGiB: b.residentWeightBytes() / n / gib}
	if b.Target.Sizing == target.SizingKV {
		p.KVGiB = b.KVBytes * b.KVDeviceShare(b.Target.Count) / gib
		p.ReserveGiB = b.OverheadGiB
	} else {
		p.ReserveGiB = max(0, float64(b.MemoryGi)-p.WeightsGiB)
	}
	return p
}

// Selectable reports whether the claim's driver can select a product at all, whatever the
// floors: llmfit.ai (and "any", whose first alternative it is) can publish every accelerator;
// a vendor's driver only its own, and an allow-list only products with a productName.
func (b *Bounds) Selectable(a *catalog.Accelerator) bool {
	d := b.Driver
	switch {
	case d.Name == DriverLlmfit || d.Name == DriverAny:
		return true
	case d.ProductList:
		return a.Vendor == d.Vendor && a.ProductName != ""
	default:
		return a.Vendor == d.Vendor
	}
}
