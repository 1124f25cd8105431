package claim

import "github.com/fitclaim/fitclaim/fit"

// Alternative is one way the claim's one request can be satisfied, as the manifest writes it:
// the request itself (`exactly`), or one of its `firstAvailable` sub-requests, in order.
type Alternative struct {
	Request     string     // as allocation results name it: "model", or "model/nvidia" for a sub-request
	Driver      fit.Driver // whose selector the alternative carries
	DeviceClass string
	Count       int
	// MatchAttribute is the attribute all Count devices must share ("" for none): the
	// constraint renderYAML writes for this request.
	MatchAttribute string
}

// Alternatives lists the claim's alternatives for the bounds, in the order the scheduler tries them.
func Alternatives(b *fit.Bounds) []Alternative {
	constrained := constraintRequest(b)
	mk := func(request string, d fit.Driver, class string) Alternative {
		a := Alternative{Request: request, Driver: d, DeviceClass: class, Count: b.Target.Count}
		if request == constrained {
			a.MatchAttribute = matchAttribute
		}
		return a
	}
	if b.Driver.Name != fit.DriverAny {
		return []Alternative{mk(requestName, b.Driver, b.DeviceClass)}
	}
	var out []Alternative
	for _, alt := range fit.AnyAlternatives() {
		out = append(out, mk(requestName+"/"+alt.Name, alt, alt.Domain))
	}
	return out
}

// requestName is the name of the one device request every claim makes.
const requestName = "model"

// matchAttribute is the attribute several NVIDIA devices of one claim must share.
const matchAttribute = "gpu.nvidia.com/productName"

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
