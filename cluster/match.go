package cluster

import (
	"slices"
	"strconv"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
)

// outcome is a CEL boolean's result: true, false, or an evaluation error.
type outcome int

const (
	no outcome = iota
	yes
	failed // a runtime error: the scheduler reports it and does not allocate on that node
)

// and is CEL's && over clauses: commutative, false if any clause is false (even beside an
// error), else an error if any clause errs, else true.
func and(os ...outcome) outcome {
	out := yes
	for _, o := range os {
		switch {
		case o == no:
			return no
		case o == failed:
			out = failed
		}
	}
	return out
}

// judgement is one clause's outcome and, unless it is true, why in words.
type judgement struct {
	out     outcome
	reasons []string
}

func pass() judgement              { return judgement{out: yes} }
func fail(reason string) judgement { return judgement{out: no, reasons: []string{reason}} }
func celError(reason string) judgement {
	return judgement{out: failed, reasons: []string{reason + " (a CEL evaluation error)"}}
}

// combine is the && of clauses, with the reasons of the clauses that decide it.
func combine(js ...judgement) judgement {
	outs := make([]outcome, len(js))
	for i, j := range js {
		outs[i] = j.out
	}
	r := judgement{out: and(outs...)}
	for _, j := range js {
		if j.out == r.out && r.out != yes {
			r.reasons = append(r.reasons, j.reasons...)
		}
	}
	return r
}

// classSelects is the DeviceClass the claim names, as the driver's chart installs it:
// `device.driver == '<domain>'`, and for NVIDIA's gpu.nvidia.com class also
// `device.attributes['gpu.nvidia.com'].type == 'gpu'` (unguarded: a device without type makes
// that class's selector fail; MIG slices have their own class, mig.nvidia.com).
func classSelects(alt claim.Alternative, driver string, d *Device) judgement {
	if driver != alt.Driver.Domain {
		return fail("driver " + driver)
	}
	if alt.Driver.Name == fit.DriverNVIDIA {
		t, ok := lookup(d.Attributes, driver, alt.Driver.Domain, "type")
		switch {
		case !ok:
			return celError("no type attribute, which the " + alt.DeviceClass + " class reads")
		case t.Kind != KindString || t.Text != "gpu":
			return fail("type " + attrText(t) + ": the " + alt.DeviceClass + " class selects whole GPUs (type gpu)")
		}
	}
	return pass()
}

// requestSelects evaluates the claim's selector for the alternative's driver, clause by clause
// as package claim writes it (writeSelector).
func requestSelects(alt claim.Alternative, b *fit.Bounds, driver string, d *Device) judgement {
	dom := alt.Driver.Domain
	mem := memoryClause(b, driver, dom, d)
	switch {
	case alt.Driver.Name == fit.DriverLlmfit:
		return combine(mem, bandwidthClause(b, driver, dom, d), healthyClause(driver, dom, d))
	case alt.Driver.ProductList:
		if _, ok := lookup(d.Capacity, driver, dom, "memory"); !ok {
			mem = nameWithoutMemoryClause(b, driver, dom, d)
		}
		return combine(typeClause(driver, dom, d), mem, productClause(b, driver, dom, d))
	default:
		return mem
	}
}

// memoryClause: 'memory' in capacity && memory.compareTo(quantity(b.MemoryQuantity())) >= 0.
func memoryClause(b *fit.Bounds, driver, dom string, d *Device) judgement {
	q, ok := lookup(d.Capacity, driver, dom, "memory")
	if !ok {
		return fail("no memory capacity")
	}
	if !q.AtLeastMi(b.MemoryMi) {
		if b.MemoryWhole() {
			return fail("memory " + q.Gi() + " < " + b.MemoryFloorText())
		}
		return fail("memory " + q.Mi() + " < " + b.MemoryFloorText())
	}
	return pass()
}

// nameWithoutMemoryClause: the other side of the NVIDIA selector's memory test when the device
// publishes no memory: 'productName' in attributes && productName in [the listed products whose
// driver publishes no memory] (fit.ProductsWithoutMemory: the GB10).
func nameWithoutMemoryClause(b *fit.Bounds, driver, dom string, d *Device) judgement {
	free := fit.ProductsWithoutMemory(b.Products)
	a, ok := lookup(d.Attributes, driver, dom, "productName")
	if len(free) == 0 || !ok || a.Kind != KindString || !slices.Contains(free, a.Text) {
		return fail("no memory capacity")
	}
	return pass()
}

// bandwidthClause: 'memoryBandwidthGBs' in attributes && memoryBandwidthGBs >= N.
func bandwidthClause(b *fit.Bounds, driver, dom string, d *Device) judgement {
	a, ok := lookup(d.Attributes, driver, dom, "memoryBandwidthGBs")
	switch {
	case !ok:
		return fail("no memoryBandwidthGBs attribute")
	case a.Kind != KindInt:
		return celError("memoryBandwidthGBs is " + article(a.Kind) + ", not an int")
	case a.Int < b.MinBandwidthGBs:
		return fail("memoryBandwidthGBs " + strconv.FormatInt(a.Int, 10) + " < " + strconv.FormatInt(b.MinBandwidthGBs, 10) + " GB/s")
	}
	return pass()
}

// healthyClause: 'healthy' in attributes && healthy.
func healthyClause(driver, dom string, d *Device) judgement {
	a, ok := lookup(d.Attributes, driver, dom, "healthy")
	switch {
	case !ok:
		return fail("no healthy attribute")
	case a.Kind != KindBool:
		return celError("healthy is " + article(a.Kind) + ", not a bool")
	case !a.Bool:
		return fail("unhealthy")
	}
	return pass()
}

// typeClause: 'type' in attributes && type == 'gpu' (CEL's == of different types is false).
func typeClause(driver, dom string, d *Device) judgement {
	a, ok := lookup(d.Attributes, driver, dom, "type")
	switch {
	case !ok:
		return fail("no type attribute")
	case a.Kind != KindString || a.Text != "gpu":
		return fail("type " + attrText(a) + ", not a whole GPU (type gpu)")
	}
	return pass()
}

// productClause: 'productName' in attributes && productName in [allow-list].
func productClause(b *fit.Bounds, driver, dom string, d *Device) judgement {
	a, ok := lookup(d.Attributes, driver, dom, "productName")
	switch {
	case !ok:
		return fail("no productName attribute")
	case a.Kind != KindString || !slices.Contains(b.Products, a.Text):
		return fail("productName " + attrText(a) + " not in the allow-list")
	}
	return pass()
}

// attrText is an attribute's value for a reason.
func attrText(a Attribute) string {
	switch a.Kind {
	case KindInt:
		return strconv.FormatInt(a.Int, 10)
	case KindBool:
		return strconv.FormatBool(a.Bool)
	}
	return clip(a.Text)
}

// article writes an attribute kind with its article ("an int", "a string").
func article(kind string) string {
	if kind == KindInt {
		return "an " + kind
	}
	return "a " + kind
}
