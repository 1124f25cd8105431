package claim

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// requestName is the name of the one device request every claim makes.
const requestName = "model"

// lineWriter writes indented YAML lines.
type lineWriter struct {
	b strings.Builder
}

func (w *lineWriter) line(indent int, s string) {
	w.b.WriteString(strings.Repeat(" ", indent))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

// renderYAML writes the manifest: header comments, then a ResourceClaim, or a
// ResourceClaimTemplate whose spec wraps the claim spec one level deeper.
func renderYAML(b *fit.Bounds, name, version string) string {
	var w lineWriter
	for _, h := range headerLines(b, version) {
		w.line(0, "# "+h)
	}
	kind := "ResourceClaim"
	if b.Target.Template {
		kind = "ResourceClaimTemplate"
	}
	w.line(0, "apiVersion: resource.k8s.io/v1")
	w.line(0, "kind: "+kind)
	w.line(0, "metadata:")
	w.line(2, "name: "+name)
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
			w.line(in+8, "- name: "+alt.Name)
			writeExact(&w, in+10, alt, alt.Domain, b)
		}
	} else {
		w.line(in+6, "exactly:")
		writeExact(&w, in+8, b.Driver, b.DeviceClass, b)
	}
	if c := constraintRequest(b); c != "" {
		w.line(in+2, "constraints:")
		w.line(in+4, "- requests:")
		w.line(in+8, "- "+c)
		w.line(in+6, "matchAttribute: gpu.nvidia.com/productName")
	}
	return w.b.String()
}

// writeExact writes the fields of an ExactDeviceRequest (or a sub-request, which has the same
// ones after its name) at the given indentation.
func writeExact(w *lineWriter, in int, d fit.Driver, class string, b *fit.Bounds) {
	w.line(in, "deviceClassName: "+class)
	if b.Target.Count > 1 {
		w.line(in, "allocationMode: ExactCount")
		w.line(in, "count: "+strconv.Itoa(b.Target.Count))
	}
	w.line(in, "selectors:")
	w.line(in+2, "- cel:")
	w.line(in+6, "expression: >-")
	lines := selectorLines(d, b)
	for i, l := range lines {
		if i < len(lines)-1 && !strings.HasSuffix(l, ",") {
			l += " &&"
		}
		w.line(in+8, l)
	}
}

// constraintRequest names the request that must get devices of one product, when a model is
// split over several NVIDIA devices (mixed products would run at the slowest one's speed).
func constraintRequest(b *fit.Bounds) string {
	if b.Target.Count < 2 {
		return ""
	}
	switch b.Driver.Name {
	case fit.DriverNVIDIA:
		return requestName
	case fit.DriverAny:
		return requestName + "/" + fit.DriverNVIDIA
	}
	return ""
}
