package claim

import (
	"errors"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// lineWriter writes indented YAML lines.
type lineWriter struct {
	b strings.Builder
}

// line writes one line: the indent, then parts, written one after the other rather than
// joined first (a joined line was a string allocated and copied once more, a dozen a claim).
func (w *lineWriter) line(indent int, parts ...string) {
	for indent > len(indentSpaces) { // no new string per line, as strings.Repeat made
		w.b.WriteString(indentSpaces)
		indent -= len(indentSpaces)
	}
	w.b.WriteString(indentSpaces[:indent])
	for _, s := range parts {
		w.b.WriteString(s)
	}
	w.b.WriteByte('\n')
}

// indentSpaces covers every indent the manifest uses.
const indentSpaces = "                                "

// renderYAML writes the manifest: header comments, then a ResourceClaim, or a
// ResourceClaimTemplate whose spec wraps the claim spec one level deeper. warnings are the
// header's (headerWarnings).
func renderYAML(b *fit.Bounds, name, version string, warnings []string) string {
	var w lineWriter
	w.b.Grow(2048) // a manifest is 2–7 KB: start at the smallest, not at 8 bytes doubling up
	writeHeader(&w, b, version, warnings)
	kind := "ResourceClaim"
	if b.Target.Template {
		kind = "ResourceClaimTemplate"
	}
	w.line(0, "apiVersion: resource.k8s.io/v1")
	w.line(0, "kind: ", kind)
	w.line(0, "metadata:")
	w.line(2, "name: ", yamlString(name))
	w.line(0, "spec:")
	in := 2
	if b.Target.Template {
		w.line(2, "spec:")
		in = 4
	}
	w.line(in, "devices:")
	w.line(in+2, "requests:")
	w.line(in+4, "- name: "+requestName)
	if b.Driver.Name == fit.DriverAny {
		w.line(in+6, "firstAvailable:")
		for _, alt := range fit.AnyAlternatives() {
			w.line(in+8, "- name: ", alt.Name)
			writeExact(&w, in+10, alt, alt.Domain, b)
		}
	} else {
		w.line(in+6, "exactly:")
		writeExact(&w, in+8, b.Driver, b.DeviceClass, b)
	}
	if c := constraintRequest(b); c != "" {
		w.line(in+2, "constraints:")
		w.line(in+4, "- requests:")
		w.line(in+8, "- ", c)
		w.line(in+6, "matchAttribute: "+matchAttribute)
	}
	return w.b.String()
}

// writeExact writes the fields of an ExactDeviceRequest (or a sub-request, which has the same
// ones after its name) at the given indentation.
func writeExact(w *lineWriter, in int, d fit.Driver, class string, b *fit.Bounds) {
	w.line(in, "deviceClassName: ", yamlString(class))
	if b.Target.Count > 1 {
		w.line(in, "allocationMode: ExactCount")
		w.line(in, "count: ", strconv.Itoa(b.Target.Count))
	}
	w.line(in, "selectors:")
	w.line(in+2, "- cel:")
	w.line(in+6, "expression: >-")
	writeSelector(w, in+8, d, b)
	if b.Target.CapacityRequest {
		q, unit := b.MemoryQuantityParts()
		w.line(in, "capacity:")
		w.line(in+2, "requests:")
		w.line(in+4, CapacityRequestName(&b.Target, d.Domain)+": ", q, unit)
	}
}

// CapacityRequestName is the name the claim's capacity request gives the memory of a device of
// the driver domain: CapacityName, or with the target's capacityName qualified,
// "<domain>/memory" (each alternative of a firstAvailable claim its own driver's).
func CapacityRequestName(t *target.Target, domain string) string {
	if t.CapacityName == target.CapacityQualified {
		return domain + "/" + CapacityName
	}
	return CapacityName
}

// CapacityName is the capacity a claim asking for capacity requests: the device memory's, as the
// drivers publish it (unqualified, in the driver's own domain). The allocator matches a request's
// name to the device's capacity names as they are spelled, so a device that publishes its memory
// as "<domain>/memory" (which the selector's device.capacity['<domain>'] also reads) has no
// capacity of this name and is not allocated to the claim; the target's capacityName qualified
// names that spelling instead (CapacityRequestName).
const CapacityName = "memory"

// yamlString writes a checked DNS-1123 subdomain (a claim name, a DeviceClass name) as a YAML
// scalar that reads back as a string: plain, as llmfit writes it, unless a YAML parser would take
// it for something else — a number ("123", "1.5", "1e3", "0x1f", "0o17", "08"), a YAML 1.1
// boolean ("true", "yes", "on", "y"), null, or a date ("2001-12-14") — in which case it is
// single-quoted. Unquoted, `name: 123` decodes as an integer and the API server rejects the
// object. Subdomain characters never need escaping inside single quotes.
func yamlString(s string) string {
	if yamlNonString(s) {
		return "'" + s + "'"
	}
	return s
}

func yamlNonString(s string) bool {
	// The words are ASCII of at most 5 bytes, and no longer text lowers to one (the only
	// character outside ASCII that lowers into it is the Kelvin sign, to 'k', in none of them).
	if len(s) <= len("false") {
		switch strings.ToLower(s) {
		case "", "~", "null", "y", "n", "yes", "no", "true", "false", "on", "off":
			return true
		}
	}
	// Only what may be a number is parsed: a failed parse allocated its error, for nearly
	// every scalar written.
	if mayBeNumber(s) {
		if _, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return true
		}
		if _, err := strconv.ParseInt(s, 0, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return true
		}
	}
	return isDate(s)
}

// mayBeNumber is false for text that strconv.ParseFloat and strconv.ParseInt (base 0) both
// refuse with a syntax error: after an optional sign, each needs a digit or '.' first, or one
// of ParseFloat's words inf, infinity and nan (any case).
func mayBeNumber(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	c := s[0]
	return '0' <= c && c <= '9' || c == '.' || c == 'i' || c == 'I' || c == 'n' || c == 'N'
}

// isDate reports whether s has the shape of a YAML 1.1 date, YYYY-M(M)-D(D).
func isDate(s string) bool {
	// Cut rather than strings.Split, which allocated a slice for every scalar written.
	year, rest, ok := strings.Cut(s, "-")
	month, day, ok2 := strings.Cut(rest, "-")
	if !ok || !ok2 || len(year) != 4 || strings.Contains(day, "-") {
		return false
	}
	for _, p := range []string{year, month, day} {
		if p == "" || len(p) > 4 {
			return false
		}
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
		}
	}
	return len(month) <= 2 && len(day) <= 2
}
