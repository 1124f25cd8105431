package claim

import (
	"strconv"

	"github.com/fitclaim/fitclaim/fit"
)

// writeSelector writes the CEL selector of one device request for a driver, one clause per
// line, the lines joined by " &&" (a line of the product list ends in ',' instead), as the
// lines of a YAML folded block at indent in. Every map lookup is guarded: an unknown attribute
// is a runtime error that aborts scheduling of the whole pod, while an unknown domain is an
// empty map, so "'x' in m" guards are cheap and sufficient. Each line is written in parts, not
// first joined into a string (TestWriteSelectorIsSelectorLines keeps the code that did).
func writeSelector(w *lineWriter, in int, d fit.Driver, b *fit.Bounds) {
	dom := d.Domain
	q, unit := b.MemoryQuantityParts()
	memory := func(end string) {
		w.line(in, "'memory' in device.capacity['", dom, "'] &&")
		w.line(in, "device.capacity['", dom, "'].memory.compareTo(quantity('", q, unit, "')) >= 0", end)
	}
	switch {
	case d.Name == fit.DriverLlmfit:
		memory(" &&")
		w.line(in, "'memoryBandwidthGBs' in device.attributes['", dom, "'] &&")
		w.line(in, "device.attributes['", dom, "'].memoryBandwidthGBs >= ", strconv.FormatInt(b.MinBandwidthGBs, 10), " &&")
		w.line(in, "'healthy' in device.attributes['", dom, "'] &&")
		w.line(in, "device.attributes['", dom, "'].healthy")
	case d.ProductList:
		// No driver publishes bandwidth: the floor becomes an allow-list of products that meet
		// it. MIG slices (type "mig") have a fraction of the bandwidth, so whole GPUs only.
		w.line(in, "'type' in device.attributes['", dom, "'] &&")
		w.line(in, "device.attributes['", dom, "'].type == 'gpu' &&")
		if free := fit.ProductsWithoutMemory(b.Products); len(free) > 0 {
			// a listed board whose driver publishes no memory (GB10) is taken by its name; it
			// is listed only because its memory meets the floor (fit.ProductsWithoutMemory)
			w.line(in, "('memory' in device.capacity['", dom, "'] ?")
			w.line(in, "device.capacity['", dom, "'].memory.compareTo(quantity('", q, unit, "')) >= 0 :")
			w.line(in, "'productName' in device.attributes['", dom, "'] &&")
			w.line(in, "device.attributes['", dom, "'].productName in [", celList(free), "]) &&")
		} else {
			memory(" &&")
		}
		w.line(in, "'productName' in device.attributes['", dom, "'] &&")
		if len(b.Products) == 0 {
			w.line(in, "device.attributes['", dom, "'].productName in []")
			return
		}
		for i, p := range b.Products {
			end := ","
			if i == len(b.Products)-1 {
				end = "]"
			}
			if i == 0 {
				w.line(in, "device.attributes['", dom, "'].productName in ['", celEscape(p), "'", end)
			} else {
				w.line(in, "'", celEscape(p), "'", end)
			}
		}
	default:
		memory("")
	}
}

// celList is the products as CEL's single-quoted strings, comma-separated.
func celList(products []string) string {
	var s string
	for i, p := range products {
		if i > 0 {
			s += ", "
		}
		s += "'" + celEscape(p) + "'"
	}
	return s
}

// celEscape escapes s for a single-quoted CEL string: a backslash before each \ and '. A
// loop rather than a strings.Replacer, whose trie and generic replacer were ~15 KB of the
// page's engine for these two bytes (and building one was a fifth of a kv render's time).
func celEscape(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '\'' {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+n)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '\'' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}
