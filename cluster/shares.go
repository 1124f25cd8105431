package cluster

import (
	"maps"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
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

// capacityAsk is what the claim asks of a device's capacity (capacity.requests), nil for none:
// its memory floor a device of the driver, under the capacity name package claim writes for that
// driver's alternative (claim.CapacityRequestName), when the target asks for capacity. The
// allocator matches the name as the device spells it.
func capacityAsk(b *fit.Bounds, driver, name string) *big.Rat {
	if !b.Target.CapacityRequest || name != claim.CapacityRequestName(&b.Target, driver) {
		return nil
	}
	return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(b.MemoryMi), 20))
}

// shareOf is what this claim's share of the device takes of a capacity, and that in words, as
// the allocator computes it (calculateConsumedCapacity): with no request, the requestPolicy
// default, else all of it; with a request, what it asks, rounded up by the requestPolicy's
// validRange (to its min, then to a whole step above it) or validValues (to the first at least
// as big). refused says why the allocator skips the device for the request ("" when it does
// not): above the validRange's max or every validValue, or above the capacity itself.
func shareOf(d *Device, name string, ask *big.Rat) (take *big.Rat, words, refused string) {
	if ask == nil {
		if q, ok := d.Defaults[name]; ok {
			return q.value, counterText(q.value) + " (its requestPolicy default)", ""
		}
		v := d.Capacity[name].value
		return v, "all " + counterText(v) + " (no requestPolicy)", ""
	}
	asked := "the " + counterText(ask) + " the claim asks"
	p, ok := d.Policies[name]
	take, words = ask, asked
	switch {
	case !ok:
		words += " (no requestPolicy)"
	case p.Min != nil:
		rule := "validRange min " + counterText(p.Min)
		if p.Step != nil {
			rule += ", step " + counterText(p.Step)
		}
		if p.Max != nil {
			rule += ", max " + counterText(p.Max)
		}
		if ask.Cmp(p.Min) < 0 {
			take = p.Min
		} else if p.Step != nil {
			steps := new(big.Rat).Quo(new(big.Rat).Sub(ask, p.Min), p.Step)
			n := new(big.Int).Quo(steps.Num(), steps.Denom()) // the whole steps, floored (steps ≥ 0)
			if !steps.IsInt() {
				n.Add(n, big.NewInt(1))
			}
			take = new(big.Rat).Add(p.Min, new(big.Rat).Mul(new(big.Rat).SetInt(n), p.Step))
		}
		if take.Cmp(ask) != 0 {
			words += ", rounded up to " + counterText(take)
		}
		words += " (its requestPolicy's " + rule + ")"
		if p.Max != nil && take.Cmp(p.Max) > 0 {
			return take, words, "capacity " + name + ": " + words + " is above the max"
		}
	case len(p.Values) > 0:
		var list []string
		for _, v := range p.Values {
			list = append(list, counterText(v))
		}
		rule := "validValues " + strings.Join(list, ", ")
		i := slices.IndexFunc(p.Values, func(v *big.Rat) bool { return ask.Cmp(v) <= 0 })
		if i < 0 {
			return ask, words, "capacity " + name + ": " + asked + " is above every one of its requestPolicy's " + rule
		}
		if take = p.Values[i]; take.Cmp(ask) != 0 {
			words += ", rounded up to " + counterText(take)
		}
		words += " (its requestPolicy's " + rule + ")"
	default:
		words += " (its requestPolicy has only a default)"
	}
	if v := d.Capacity[name].value; take.Cmp(v) > 0 {
		return take, words, "capacity " + name + ": " + words + " is more than its " + counterText(v)
	}
	return take, words, ""
}

// requestRefused says why the allocator skips the device of the driver for the claim's capacity
// request (DRAConsumableCapacity on; shared or not), or "": a requested capacity the device does
// not publish under that very name, or a request its requestPolicy or capacity cannot meet.
// published is, when the device spells its memory the other way ("<domain>/memory" for a request
// of "memory", or "memory" for one of "<domain>/memory"), that spelling: the selector reads both,
// the request only the one it names, and the target's capacityName can name the other.
func requestRefused(b *fit.Bounds, d *Device, driver string) (refused, published string) {
	asked := claim.CapacityRequestName(&b.Target, driver)
	ask := capacityAsk(b, driver, asked)
	if ask == nil {
		return "", ""
	}
	if _, ok := d.Capacity[asked]; !ok {
		other, fix := driver+"/"+claim.CapacityName, "qualified ("+capacityNameSetting(target.CapacityQualified)+")"
		if asked != claim.CapacityName {
			other, fix = claim.CapacityName, "memory ("+capacityNameSetting(target.CapacityPlain)+", the default)"
		}
		if _, ok := d.Capacity[other]; ok {
			return "the claim's capacity request names " + asked + ", but the device publishes its memory as " + other + " and the allocator matches names as spelled: set " + capacityNameLabel() + " to " + fix, other
		}
		return "the claim's capacity request names " + asked + ", a capacity the device does not publish under that name (the allocator matches names as the device spells them)", ""
	}
	_, _, refused = shareOf(d, asked, ask)
	return refused, ""
}

// capacityNameLabel is the target field's label, as the page's form shows it.
func capacityNameLabel() string {
	f, _ := target.ByName("capacityName")
	return f.Label
}

// capacityNameSetting spells a value of the target's capacityName in a link and on the command line.
func capacityNameSetting(value string) string {
	f, _ := target.ByName("capacityName")
	return f.Key + "=" + value + ", --" + f.Flag + " " + value
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
func capacityShort(b *fit.Bounds, d *Device, driver string, held *sharesHeld) string {
	if held == nil {
		return "" // a share takes at most the capacity: the default by validation, a request by requestRefused
	}
	for _, name := range capacityNames(d) {
		value := d.Capacity[name].value
		take, words, _ := shareOf(d, name, capacityAsk(b, driver, name))
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
func shareText(b *fit.Bounds, d *Device, driver string, held *sharesHeld) string {
	var parts []string
	for _, name := range capacityNames(d) {
		_, words, _ := shareOf(d, name, capacityAsk(b, driver, name))
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
// its memory is less than the memory per device the model needs ("" when it is not): a claim
// that asks for no capacity gets the default, and a driver that enforces shares holds the
// workload to it. A claim that asks its memory floor gets at least that (rounding goes up).
func shareNote(b *fit.Bounds, d *Device, driver string, domain string) string {
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
	take, words, _ := shareOf(d, name, capacityAsk(b, driver, name))
	if (Quantity{value: take}).AtLeastMi(b.MemoryMi) {
		return ""
	}
	return "device " + d.Name + " is shared (allowMultipleAllocations): this claim asks for no capacity, so its share of memory is " + words + ", less than the " + b.MemoryFloorText() + " per device the model needs; a driver that enforces shares holds the workload to it"
}

// maxShareNotes bounds the notes on shares smaller than the model's memory.
const maxShareNotes = 5

// sharedNotes say that consumable capacity is weighed, when a device can be shared or a share
// is held, and which matching shared devices give this claim less memory than it needs.
func sharedNotes(b *fit.Bounds, slices []Slice, shares map[deviceID]*sharesHeld, small []string) []string {
	var n []string
	if b.Target.CapacityRequest {
		n = append(n, "the claim asks "+b.MemoryQuantity()+" of each device's "+claim.CapacityRequestNames(b)+" (capacity.requests): judged as the allocator judges it with DRAConsumableCapacity on, which every device must meet, shared or not; a scheduler with the gate off fails the claim, an API server with it off drops the request")
	}
	any := len(shares) > 0
	for _, s := range slices {
		for _, d := range s.Devices {
			any = any || d.AllowMultipleAllocations
		}
	}
	if !any {
		return n
	}
	takes := "this claim, which asks for no capacity, takes a share of each capacity's requestPolicy default (else all of it)"
	if b.Target.CapacityRequest {
		takes = "this claim takes a share of what it asks of memory, rounded up by the requestPolicy, and of each other capacity's requestPolicy default (else all of it)"
	}
	n = append(n, "consumable capacity (KEP-5075, DRAConsumableCapacity: on by default since Kubernetes 1.36) is weighed: a device with allowMultipleAllocations is shared, and "+takes+"; a result with a shareID holds a share, not the device")
	if len(small) > maxShareNotes {
		small = append(small[:maxShareNotes:maxShareNotes], itoa(len(small)-maxShareNotes)+" more shared devices give this claim less memory than the model needs")
	}
	return append(n, small...)
}

// misnamedNotes say, under a capacity request, how many devices the selectors take are refused
// only because they spell their memory otherwise than the request names it (by that spelling),
// and how the claim can name theirs.
func misnamedNotes(b *fit.Bounds, misnamed map[string]int) []string {
	var n []string
	for _, spelling := range slices.Sorted(maps.Keys(misnamed)) {
		count, devices, publish, them := misnamed[spelling], " devices", " publish their", "them"
		if count == 1 {
			devices, publish, them = " device", " publishes its", "it"
		}
		value := target.CapacityQualified
		if spelling == claim.CapacityName {
			value = target.CapacityPlain
		}
		n = append(n, itoa(count)+devices+" the claim's selectors take"+publish+" memory as "+spelling+", not as "+claim.CapacityRequestNames(b)+
			", the name its capacity request asks: the allocator skips "+them+" (it matches capacity names as spelled); "+capacityNameLabel()+" "+value+" ("+capacityNameSetting(value)+") names that, or leave the capacity request out")
	}
	return n
}
