package cluster

import (
	"math/big"
	"sort"
	"strings"
)

// Consumable capacity (KEP-5075, DRAConsumableCapacity: beta and on by default since Kubernetes
// 1.36), as the allocator's incubating implementation weighs it (k8s.io/dynamic-resource-
// allocation v0.37.2, consumable_capacity.go CmpRequestOverCapacity, GetConsumedCapacityFromRequest):
// a device with allowMultipleAllocations is shared, and each claim's share consumes, per
// capacity, what the claim asks — fitclaim's claims ask for nothing, so the capacity's
// requestPolicy.default, or without one the whole capacity. A result with a shareID holds a
// share (its consumedCapacity), not the device; the device has room for a further share while
// what the held shares consume plus the new share's stays within each capacity. One claim takes a
// device once: its N devices are N different devices, shared or not (the allocator's own choice,
// seen in the conformance module).

// sharesHeld are the shares the cluster's claims hold of a device.
type sharesHeld struct {
	consumed map[string]*big.Rat // by capacity name, as the results name it
	count    int
}

// heldShares sums the claims' shares (results with a shareID) per device.
func heldShares(inUse []InUse) map[deviceID]*sharesHeld {
	out := map[deviceID]*sharesHeld{}
	for _, u := range inUse {
		if u.ShareID == "" {
			continue
		}
		id := deviceID{u.Driver, u.Pool, u.Device}
		h := out[id]
		if h == nil {
			h = &sharesHeld{consumed: map[string]*big.Rat{}}
			out[id] = h
		}
		h.count++
		for name, q := range u.Consumed {
			c := h.consumed[name]
			if c == nil {
				c = new(big.Rat)
				h.consumed[name] = c
			}
			c.Add(c, q.value)
		}
	}
	return out
}

// shareOf is what this claim's share of the device takes of a capacity: its requestPolicy
// default, else all of it; and that in words.
func shareOf(d *Device, name string) (*big.Rat, string) {
	if q, ok := d.Defaults[name]; ok {
		return q.value, counterText(q.value) + " (its requestPolicy default)"
	}
	v := d.Capacity[name].value
	return v, "all " + counterText(v) + " (no requestPolicy)"
}

func capacityNames(d *Device) []string {
	names := make([]string, 0, len(d.Capacity))
	for n := range d.Capacity {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// capacityShort says why the device has no room for this claim's share after the shares other
// claims hold, or "" when it has. Every capacity is checked, as the allocator checks them.
func capacityShort(d *Device, held *sharesHeld) string {
	if held == nil {
		return "" // a share takes at most the capacity: the default is within it by validation
	}
	for _, name := range capacityNames(d) {
		value := d.Capacity[name].value
		take, words := shareOf(d, name)
		used := held.consumed[name]
		if used == nil {
			used = new(big.Rat)
		}
		if new(big.Rat).Add(used, take).Cmp(value) <= 0 {
			continue
		}
		left := new(big.Rat).Sub(value, used)
		return "capacity " + name + ": " + counterText(left) + " of " + counterText(value) + " left by the shares other claims hold, this claim's share takes " + words
	}
	return ""
}

// shareText says, for a device several claims can share, what this claim's share of it takes.
func shareText(d *Device, held *sharesHeld) string {
	var parts []string
	for _, name := range capacityNames(d) {
		_, words := shareOf(d, name)
		part := name + " " + words + " of " + counterText(d.Capacity[name].value)
		if held != nil && held.consumed[name] != nil {
			part += ", " + counterText(held.consumed[name]) + " held by other claims' shares"
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "a share (the device publishes no capacity: shares are unbounded)"
	}
	return "a share: " + strings.Join(parts, "; ")
}

// shareNote says, for a matching device several claims can share, when this claim's share of
// its memory is less than the memory per device the model needs ("" when it is not): the claim
// asks for no capacity, so the allocator gives it the default, and a driver that enforces shares
// holds the workload to it.
func shareNote(d *Device, driver string, domain string, memoryGi int64) string {
	name := ""
	for _, n := range []string{domain + "/memory", "memory"} {
		if _, ok := d.Capacity[n]; ok && (n != "memory" || driver == domain) {
			name = n
			break
		}
	}
	if name == "" {
		return ""
	}
	take, words := shareOf(d, name)
	if (Quantity{value: take}).AtLeastGi(memoryGi) {
		return ""
	}
	return "device " + d.Name + " is shared (allowMultipleAllocations): this claim asks for no capacity, so its share of memory is " + words + ", less than the " + itoa(int(memoryGi)) + " Gi per device the model needs; a driver that enforces shares holds the workload to it"
}

// maxShareNotes bounds the notes on shares smaller than the model's memory.
const maxShareNotes = 5

// sharedNotes say that consumable capacity is weighed, when a device can be shared or a share
// is held, and which matching shared devices give this claim less memory than it needs.
func sharedNotes(slices []Slice, shares map[deviceID]*sharesHeld, small []string) []string {
	any := len(shares) > 0
	for _, s := range slices {
		for _, d := range s.Devices {
			any = any || d.AllowMultipleAllocations
		}
	}
	if !any {
		return nil
	}
	n := []string{"consumable capacity (KEP-5075, DRAConsumableCapacity: on by default since Kubernetes 1.36) is weighed: a device with allowMultipleAllocations is shared, and this claim, which asks for no capacity, takes a share of each capacity's requestPolicy default (else all of it); a result with a shareID holds a share, not the device"}
	if len(small) > maxShareNotes {
		small = append(small[:maxShareNotes:maxShareNotes], itoa(len(small)-maxShareNotes)+" more shared devices give this claim less memory than the model needs")
	}
	return append(n, small...)
}
