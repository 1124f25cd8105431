package fit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Device is the hardware of the reverse question ("I have this: what runs?"): an accelerator of
// the catalog by name (On), or one given by its numbers. Count comes from the Target.
type Device struct {
	On           string  // a catalog accelerator's name or id (case-insensitive); "" = by numbers
	MemoryGiB    float64 // one device's memory as its driver or OS reports it
	BandwidthGBs float64
	Family       string // one of Families()
	Unified      bool   // memory shared with the CPU: only the platform's GPU share is usable
}

// DeviceOf is the device a target names (its on, memory, bandwidth, family and unified fields).
func DeviceOf(t *target.Target) Device {
	return Device{On: t.On, MemoryGiB: t.MemoryGiB, BandwidthGBs: t.BandwidthGBs, Family: t.Family, Unified: t.Unified}
}

// deviceField is the table's row of a device field, for its range errors.
func deviceField(name string) *target.Field {
	f, ok := target.ByName(name)
	if !ok {
		panic("fit: no field " + name)
	}
	return f
}

// checkDeviceNumber checks a device's memory or bandwidth; 0 is absent (0 means not given), and
// "(got 0)" beside a field left empty misled.
func checkDeviceNumber(name string, x float64) error {
	f := deviceField(name)
	if x == 0 {
		return f.Err("missing: give " + f.Allowed())
	}
	return f.CheckNumber(x)
}

// deviceRef names a device field in a message as the field table's label and its names, which
// each surface rewrites to its own spelling ("Device memory (memoryGiB, memory)"; the command
// line's "Device memory (--memory)").
func deviceRef(name string) string { return deviceField(name).Ref() }

// UnifiedGPUShare is the share of unified memory the GPU may use: macOS's default GPU working-set
// limit (recommendedMaxWorkingSetSize) is about 75 % of RAM, and the same share is assumed for
// other unified-memory platforms (GB10, integrated GPUs), whose OS also needs its part. It is
// also the rule the verdicts of data/truth-train.tsv were computed with.
const UnifiedGPUShare = 0.75

// resolveDevice checks a device and fills it from the catalog when On names one.
func resolveDevice(d Device) (Device, string, error) {
	// The texts' own limits first, as Validate words them: an id of 2,000 characters was
	// looked up, and its whole text quoted back in "unknown device …".
	for _, text := range [...]struct{ field, v string }{{"on", d.On}, {"family", d.Family}} {
		if f := deviceField(text.field); len(text.v) > f.MaxLen && utf8.RuneCountInString(text.v) > f.MaxLen {
			return Device{}, "", f.TooLong(text.v)
		}
	}
	if d.On != "" {
		if d.MemoryGiB != 0 || d.BandwidthGBs != 0 || d.Family != "" || d.Unified {
			return Device{}, "", fieldErr("on", "names a catalog device; give either it or "+deviceRef("memoryGiB")+", "+deviceRef("bandwidthGBs")+", "+deviceRef("family")+" and "+deviceRef("unified")+", not both")
		}
		a, ok := LookupAccelerator(d.On)
		if !ok {
			return Device{}, "", deviceField("on").Err(unknownAcceleratorMessage(d.On))
		}
		fam, unified := AcceleratorFamily(&a)
		return Device{On: a.Name, MemoryGiB: float64(a.MemoryMiB) / 1024, BandwidthGBs: a.BandwidthGBs, Family: fam, Unified: unified}, a.Name, nil
	}
	if d.MemoryGiB == 0 && d.BandwidthGBs == 0 && d.Family == "" {
		return Device{}, "", fieldErr("on", "choose a catalog "+deviceRef("on")+", or give "+deviceRef("memoryGiB")+", "+deviceRef("bandwidthGBs")+" and "+deviceRef("family"))
	}
	if err := checkDeviceNumber("memoryGiB", d.MemoryGiB); err != nil {
		return Device{}, "", err
	}
	if err := checkDeviceNumber("bandwidthGBs", d.BandwidthGBs); err != nil {
		return Device{}, "", err
	}
	f, ok := LookupFamily(d.Family)
	if d.Family == "" { // as a missing memory or bandwidth: "(got "")" beside a field left out misled
		return Device{}, "", deviceField("family").Err("missing: give one of " + strings.Join(Families(), ", "))
	}
	if !ok {
		return Device{}, "", deviceField("family").Err("must be one of " + strings.Join(Families(), ", ") + " (got " + target.QuoteShort(d.Family) + ")")
	}
	d.Family = f.Family
	name := ftoa(d.MemoryGiB) + " GiB, " + ftoa(d.BandwidthGBs) + " GB/s " + d.Family
	if d.Unified {
		name += " (unified memory)"
	}
	return d, name, nil
}

// LookupAccelerator finds a catalog accelerator by its id, its display name or the productName
// NVIDIA's driver publishes (what nvidia-smi and the ResourceSlices print: "NVIDIA H100 80GB
// HBM3"), ignoring case and surrounding spaces. No two rows share an id or a name; a productName
// some boards share (the RTX 4060 Ti's 8 and 16 GB) finds the first of them, which has the least
// memory (catalog TestAcceleratorNamesNameOneRow holds both).
func LookupAccelerator(name string) (catalog.Accelerator, bool) {
	q := strings.TrimSpace(name)
	if q == "" {
		return catalog.Accelerator{}, false
	}
	for _, a := range catalog.Accelerators() {
		if strings.EqualFold(a.ID, q) || strings.EqualFold(a.Name, q) || strings.EqualFold(a.ProductName, q) {
			return a, true
		}
	}
	return catalog.Accelerator{}, false
}

// maxSuggestedAccelerators bounds the ids an unknown device's message offers.
const maxSuggestedAccelerators = 8

// unknownAcceleratorMessage says a device is not in the catalog and offers the ids whose id,
// name or productName contain every word of the query ("h100" → the three H100 boards), or, when
// none do, how the ids are spelled: listing all 144 would bury the answer.
func unknownAcceleratorMessage(query string) string {
	msg := "unknown device " + target.QuoteShort(query)
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	var close []string
	for _, a := range catalog.Accelerators() {
		hay := strings.ToLower(a.ID + " " + a.Name + " " + a.ProductName)
		all := len(words) > 0
		for _, w := range words {
			all = all && strings.Contains(hay, w)
		}
		if all {
			close = append(close, a.ID)
		}
	}
	switch {
	case len(close) > maxSuggestedAccelerators:
		return msg + "; " + strconv.Itoa(len(close)) + " match, among them " + strings.Join(close[:maxSuggestedAccelerators], ", ") + ": give the id"
	case len(close) > 0:
		return msg + "; did you mean " + strings.Join(close, ", ") + "?"
	}
	return msg + "; give a catalog id (nvidia-h100-sxm, amd-mi300x, apple-m4-max-128, …), a device name or NVIDIA's productName, or the device's memory, bandwidth and family"
}

// AcceleratorFamily is the speed family of a catalog accelerator and whether its memory is
// unified: the table's family and unified columns (data/accelerators.csv), else by vendor,
// NVIDIA's Pascal boards by name.
func AcceleratorFamily(a *catalog.Accelerator) (family string, unified bool) {
	if a.Family != "" {
		return a.Family, a.Unified
	}
	switch a.Vendor {
	case "nvidia":
		n := strings.ToUpper(a.Name)
		if strings.Contains(n, "GB10") {
			return FamilyNVIDIAUnified, true
		}
		for _, p := range []string{"P100", "P40", "P4 ", "GTX 10", "TITAN X"} {
			if strings.Contains(n+" ", p) {
				return FamilyNVIDIAPascal, false
			}
		}
		return FamilyNVIDIA, false
	case "amd":
		return FamilyAMD, false
	case "apple":
		return FamilyApple, true
	case "intel":
		return FamilyIntel, false
	}
	return FamilyOther, false
}
