package cluster

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// BoundsFromClaimJSON rebuilds, from a claim's JSON (claim.Result.JSON, what `fitclaim claim
// --json` and /api/v1/claim.json print), the bounds Judge reads: the floors, the driver, the
// DeviceClass, the NVIDIA allow-list, the count and whether it asks its memory as capacity, and by which name. The page's cluster panel runs in its own
// wasm (sigs.k8s.io/yaml is large) without the catalog, and gets the claim this way.
func BoundsFromClaimJSON(text string) (*fit.Bounds, error) {
	var c struct {
		MemoryGi        *int64   `json:"memoryGi"`
		MemoryMi        *int64   `json:"memoryMi"` // the floor the CEL asks; absent from llmfit's own ten keys: memoryGi × 1024
		MinBandwidthGBs *int64   `json:"minBandwidthGBs"`
		DeviceClass     string   `json:"deviceClass"`
		Count           int      `json:"count"`
		Driver          string   `json:"driver"`
		ProductNames    []string `json:"productNames"`
		CapacityRequest bool     `json:"capacityRequest"` // the claim asks memoryGi as capacity.requests.memory
		CapacityName    string   `json:"capacityName"`    // qualified: as capacity.requests.<domain>/memory
	}
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		return nil, &Error{Object: "the claim", Msg: "not a fitclaim claim's JSON (" + clip(err.Error()) + ")"}
	}
	if c.MemoryGi == nil || c.MinBandwidthGBs == nil || *c.MemoryGi < 0 || *c.MinBandwidthGBs < 0 {
		return nil, &Error{Object: "the claim", Field: "memoryGi", Msg: "missing or negative: not a fitclaim claim's JSON"}
	}
	mi := *c.MemoryGi << 10
	if *c.MemoryGi > 1<<43 {
		mi = 1 << 53 // fit's cap: a floor that matches nothing
	}
	if c.MemoryMi != nil {
		if *c.MemoryMi < 0 || (*c.MemoryMi+1023)>>10 != *c.MemoryGi && *c.MemoryGi <= 1<<43 {
			return nil, &Error{Object: "the claim", Field: "memoryMi", Msg: "negative, or not memoryGi × 1024 rounded up to it: not a fitclaim claim's JSON"}
		}
		mi = *c.MemoryMi
	}
	if c.Driver == "" {
		c.Driver = fit.DriverLlmfit // llmfit's own keys only: the default driver
	}
	d, ok := fit.LookupDriver(c.Driver)
	if !ok {
		return nil, &Error{Object: "the claim", Field: "driver", Msg: strconv.Quote(clip(c.Driver)) + "; want one of " + strings.Join(fit.DriverNames(), ", ")}
	}
	if c.Count == 0 {
		c.Count = 1
	}
	if c.Count < 1 || c.Count > target.MaxCount {
		return nil, &Error{Object: "the claim", Field: "count", Msg: strconv.Itoa(c.Count) + "; want 1 to " + strconv.Itoa(target.MaxCount)}
	}
	if c.DeviceClass == "" {
		c.DeviceClass = d.Domain
	}
	b := &fit.Bounds{MemoryMi: mi, MemoryGi: *c.MemoryGi, MinBandwidthGBs: *c.MinBandwidthGBs, Driver: d, DeviceClass: c.DeviceClass, Products: c.ProductNames}
	b.Target = target.Default()
	b.Target.Driver, b.Target.Count, b.Target.CapacityRequest = c.Driver, c.Count, c.CapacityRequest
	if c.CapacityName != "" {
		if !c.CapacityRequest || !slices.Contains(target.CapacityNames(), c.CapacityName) {
			return nil, &Error{Object: "the claim", Field: "capacityName", Msg: strconv.Quote(clip(c.CapacityName)) + "; want " + strings.Join(target.CapacityNames(), " or ") + ", beside capacityRequest true"}
		}
		b.Target.CapacityName = c.CapacityName
	}
	return b, nil
}
