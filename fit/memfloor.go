package fit

import (
	"math"
	"strconv"
)

// The memory floor, one rule for everything that asks, judges or prints it.
//
// Drivers publish a device's memory in MiB (an RTX 4090 24,564 Mi, 23.99 GiB; an H100 80GB
// 81,559 Mi, 79.65 GiB; an L40S 46,068 Mi). A floor rounded up to a whole Gi refused every such
// device for a need a little under its memory: 23.2 GiB asked 24 Gi and no RTX 4090 had it. In
// the KV-aware sizing the floor is the need rounded up to the MiB (ceilMi), which every
// driver's figure is a whole number of; llmfit's mode keeps llmfit's whole-Gi floor, and its
// MemoryMi is that floor × 1024.

// miSlack is how far above a whole MiB (in MiB, about one byte) a need may be and still be that
// MiB: the need is a sum of GiB figures in floating point, and a need of exactly 23,757 MiB can
// come out 1e-12 above it; it must not ask 23,758.
const miSlack = 1e-6

// ceilMi is a need in GiB rounded up to whole MiB, capped at maxFloor (MiB): ceil(gib × 1024),
// but for a need within miSlack of a whole MiB, which is that MiB.
func ceilMi(gibs float64) int64 {
	mi := gibs * 1024
	if !(mi < maxFloor) {
		return maxFloor
	}
	if r := math.Round(mi); math.Abs(mi-r) <= miSlack {
		return int64(r)
	}
	return int64(math.Ceil(mi))
}

// FloorMi is the memory floor in MiB of a need in GiB, as the KV-aware sizing sets it (ceilMi).
func FloorMi(needGiB float64) int64 { return ceilMi(needGiB) }

// giOfMi is a floor in MiB as whole Gi, rounded up.
func giOfMi(mi int64) int64 { return (mi + 1023) >> 10 }

// miOfGi is a whole-Gi floor in MiB, capped at maxFloor (a capped Gi floor, 2^53, is 2^63 MiB).
func miOfGi(gi int64) int64 {
	if gi > maxFloor>>10 {
		return maxFloor
	}
	return gi << 10
}

// setMemoryFloor sets the floor in MiB and its whole-Gi ceiling from a need in GiB (MemoryGB):
// to the MiB in the KV-aware sizing, llmfit's ceil to whole Gi otherwise.
func (b *Bounds) setMemoryFloor(need float64, kv bool) {
	if kv {
		b.MemoryMi = ceilMi(need)
		b.MemoryGi = giOfMi(b.MemoryMi)
		return
	}
	b.MemoryGi = ceilFloor(need)
	b.MemoryMi = miOfGi(b.MemoryGi)
}

// MemoryWhole reports whether the floor is a whole number of Gi (always in llmfit's mode).
func (b *Bounds) MemoryWhole() bool { return b.MemoryMi%1024 == 0 }

// MemoryQuantity is the floor as the CEL and capacity.requests ask it, a Kubernetes quantity:
// "24Gi" for a whole Gi (llmfit's spelling, always), else "23757Mi".
func (b *Bounds) MemoryQuantity() string { return MemoryQuantityOf(b.MemoryMi, b.MemoryGi) }

// MemoryQuantityOf is MemoryQuantity for a floor of mi MiB whose whole-Gi ceiling is gi.
func MemoryQuantityOf(mi, gi int64) string {
	var buf [24]byte // one allocation, the string's
	if mi%1024 == 0 {
		return string(append(strconv.AppendInt(buf[:0], gi, 10), "Gi"...))
	}
	return string(append(strconv.AppendInt(buf[:0], mi, 10), "Mi"...))
}

// MemoryQuantityParts is MemoryQuantity as its number and its unit ("24", "Gi"; "23757",
// "Mi"), for a writer that writes them in turn: a whole Gi under 100 is strconv's own string, so
// llmfit's claims write their floor without allocating, as they did before the floor had a unit.
func (b *Bounds) MemoryQuantityParts() (number, unit string) {
	if b.MemoryMi%1024 == 0 {
		return strconv.FormatInt(b.MemoryGi, 10), "Gi"
	}
	return strconv.FormatInt(b.MemoryMi, 10), "Mi"
}

// MemoryFloorText is the floor in words, one format wherever a floor is printed: "24 Gi" for a
// whole Gi, else "23,757 Mi (23.20 Gi)", the Gi to two decimals rounded down (never above the
// floor, so never above a device it refuses).
func (b *Bounds) MemoryFloorText() string { return MemoryFloorTextOf(b.MemoryMi, b.MemoryGi) }

// MemoryFloorTextOf is MemoryFloorText for a floor of mi MiB whose whole-Gi ceiling is gi.
func MemoryFloorTextOf(mi, gi int64) string {
	var buf [48]byte // one allocation, the string's
	return string(AppendMemoryFloorText(buf[:0], mi, gi))
}

// AppendMemoryFloorText appends MemoryFloorTextOf(mi, gi) to dst.
func AppendMemoryFloorText(dst []byte, mi, gi int64) []byte {
	if mi%1024 == 0 {
		return append(strconv.AppendInt(dst, gi, 10), " Gi"...)
	}
	dst = append(AppendGrouped(dst, mi), " Mi ("...)
	hundredths := mi * 100 / 1024 // rounded down
	dst = strconv.AppendInt(dst, hundredths/100, 10)
	dst = append(dst, '.', byte('0'+hundredths%100/10), byte('0'+hundredths%10))
	return append(dst, " Gi)"...)
}

// AppendGrouped appends n in decimal with a comma between groups of three digits (23,757).
func AppendGrouped(dst []byte, n int64) []byte {
	if n < 0 {
		dst = append(dst, '-')
		n = -n
	}
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], n, 10)
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c)
	}
	return dst
}
