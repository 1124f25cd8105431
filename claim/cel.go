package claim

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// selectorLines renders the CEL selector of one device request for a driver, one clause per
// line; the lines are joined by " &&" and written as a YAML folded block. Every map lookup is
// guarded: an unknown attribute is a runtime error that aborts scheduling of the whole pod,
// while an unknown domain is an empty map, so "'x' in m" guards are cheap and sufficient.
func selectorLines(d fit.Driver, b *fit.Bounds) []string {
	dom := "'" + d.Domain + "'"
	attrs := "device.attributes[" + dom + "]"
	caps := "device.capacity[" + dom + "]"
	memory := []string{
		"'memory' in " + caps,
		caps + ".memory.compareTo(quantity('" + strconv.FormatInt(b.MemoryGi, 10) + "Gi')) >= 0",
	}
	switch {
	case d.Name == fit.DriverLlmfit:
		return append(memory,
			"'memoryBandwidthGBs' in "+attrs,
			attrs+".memoryBandwidthGBs >= "+strconv.FormatInt(b.MinBandwidthGBs, 10),
			"'healthy' in "+attrs,
			attrs+".healthy")
	case d.ProductList:
		// No driver publishes bandwidth: the floor becomes an allow-list of products that meet
		// it. MIG slices (type "mig") have a fraction of the bandwidth, so whole GPUs only.
		lines := append([]string{"'type' in " + attrs, attrs + ".type == 'gpu'"}, memory...)
		lines = append(lines, "'productName' in "+attrs)
		list := attrs + ".productName in ["
		for i, p := range b.Products {
			if i > 0 {
				lines = append(lines, list+",")
				list = ""
			}
			list += celString(p)
		}
		return append(lines, list+"]")
	default:
		return memory
	}
}

// celString quotes s as a CEL single-quoted string literal.
func celString(s string) string {
	return "'" + celEscaper.Replace(s) + "'"
}

// celEscaper is made once: building a Replacer was a fifth of a kv render's time.
var celEscaper = strings.NewReplacer(`\`, `\\`, `'`, `\'`)
