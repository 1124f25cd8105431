package cluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// asking is bounds for an llmfit.ai claim of count devices of ≥ memoryGi and 1,000 GB/s that
// asks its memory floor as a capacity request (the target's capacityRequest).
func asking(t *testing.T, memoryGi int64, count int) *fit.Bounds {
	b := bounds(t, fit.DriverLlmfit, memoryGi, 1000, count)
	b.Target.CapacityRequest = true
	return b
}

func TestCapacityRequestRounding(t *testing.T) {
	r, err := CheckInputs(asking(t, 17, 1), Inputs{Slices: readTestdata(t, "capacity-policies.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, r, []string{
		"node-p/round-0: model",
		"node-p/low-0: model",
		"node-p/values-0: model",
		// 17Gi > the 16Gi max: the allocator skips the device (violatesPolicy).
		"node-p/capped-0: no: capacity memory: the 17Gi the claim asks (its requestPolicy's validRange min 1Gi, max 16Gi) is above the max",
		"node-p/few-0: no: capacity memory: the 17Gi the claim asks is above every one of its requestPolicy's validValues 8Gi, 16Gi",
		"node-p/plain-0: model",
		"node-p/named-0: no: the claim's capacity request names memory, but the device publishes its memory as llmfit.ai/memory and the allocator matches names as spelled: set Memory capacity name to qualified (capn=qualified, --capacity-name qualified)",
		"node-p/whole-0: model",
	})
	shares := map[string]string{}
	for _, d := range r.Devices {
		shares[d.Device] = d.Share
	}
	for dev, want := range map[string]string{
		// 2Gi + ceil((17 − 2) / 4) × 4Gi = 2 + 4 × 4 = 18Gi
		"round-0": "a share: memory the 17Gi the claim asks, rounded up to 18Gi (its requestPolicy's validRange min 2Gi, step 4Gi) of 80Gi",
		"low-0":   "a share: memory the 17Gi the claim asks, rounded up to 20Gi (its requestPolicy's validRange min 20Gi, step 4Gi) of 80Gi",
		// the first of 8, 24, 80 that is ≥ 17: 24Gi
		"values-0": "a share: memory the 17Gi the claim asks, rounded up to 24Gi (its requestPolicy's validValues 8Gi, 24Gi, 80Gi) of 80Gi",
		"plain-0":  "a share: memory the 17Gi the claim asks (no requestPolicy) of 48Gi",
		"whole-0":  "",
	} {
		if shares[dev] != want {
			t.Errorf("%s: share %q\nwant %q", dev, shares[dev], want)
		}
	}
	if slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "device ") && strings.Contains(n, "is shared") }) {
		t.Errorf("a share short of the model noted: %q", r.Notes)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool {
		return strings.HasPrefix(n, "the claim asks 17Gi of each device's memory (capacity.requests)")
	}) {
		t.Errorf("notes %q", r.Notes)
	}
	// Without the request, named-0 matches (the selector reads llmfit.ai/memory), capped-0 and
	// few-0 give their 8Gi default.
	plain := bounds(t, fit.DriverLlmfit, 17, 1000, 1)
	r, err = CheckInputs(plain, Inputs{Slices: readTestdata(t, "capacity-policies.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Devices {
		if !d.Matches {
			t.Errorf("no request: %s does not match: %q", d.Device, d.Reasons)
		}
	}
}

// The colleague's shared.yaml: a claim for 17 Gi that asks for no capacity gets shared-0's 16Gi
// default; asking 17Gi it gets 17Gi (validRange min 1Gi, step 1Gi: 1 + 16 × 1 = 17Gi), and of
// shared-1 (48Gi, no requestPolicy) 17Gi instead of all 48Gi.
func TestCapacityRequestOnShared(t *testing.T) {
	in := Inputs{Slices: readTestdata(t, "shared.yaml")}
	r, err := CheckInputs(asking(t, 17, 1), in)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, r, []string{"node-s/shared-0: model", "node-s/shared-1: model", "node-s/whole-0: model"})
	if got := []string{r.Devices[0].Share, r.Devices[1].Share, r.Devices[2].Share}; !slices.Equal(got, []string{
		"a share: memory the 17Gi the claim asks (its requestPolicy's validRange min 1Gi, step 1Gi) of 80Gi",
		"a share: memory the 17Gi the claim asks (no requestPolicy) of 48Gi", ""}) {
		t.Errorf("shares %q", got)
	}
	if slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "device shared-0 is shared") }) {
		t.Errorf("the 17Gi share noted short: %q", r.Notes)
	}
	// Held: shared-0 has 80 − 64 = 16Gi left, a Gi short of the 17Gi asked (the 16Gi default
	// would fit); shared-1's one share took all 48Gi.
	in.Claims = readTestdata(t, "shared-claims.yaml")
	r, err = CheckInputs(asking(t, 17, 1), in)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, r, []string{
		"node-s/shared-0: no: capacity memory: 16Gi of 80Gi left by the shares other claims hold, this claim's share takes the 17Gi the claim asks (its requestPolicy's validRange min 1Gi, step 1Gi)",
		"node-s/shared-1: no: capacity memory: 0 of 48Gi left by the shares other claims hold, this claim's share takes the 17Gi the claim asks (no requestPolicy)",
		"node-s/whole-0: model",
	})
	allocatedAs(t, r, "allocatable on node node-s: model gets whole-0")
}

func TestBadRequestPolicy(t *testing.T) {
	s := string(readTestdata(t, "capacity-policies.yaml"))
	b := asking(t, 17, 1)
	for _, c := range []struct{ name, from, to, want string }{
		{"step not a quantity", "step: 4Gi}}}\n    - name: low-0", "step: lots}}}\n    - name: low-0",
			`slices: ResourceSlice "node-p-llmfit.ai-r4t5y" (items[0]): spec.devices[0] ("round-0").capacity.memory.requestPolicy.validRange.step: "lots" is not a Kubernetes quantity (such as 81559Mi, 80Gi or 85899345920)`},
		{"no min", "validRange: {min: 1Gi, max: 16Gi}", "validRange: {max: 16Gi}",
			`slices: ResourceSlice "node-p-llmfit.ai-r4t5y" (items[0]): spec.devices[3] ("capped-0").capacity.memory.requestPolicy.validRange.min: missing: a validRange needs its min`},
		{"zero step", "min: 2Gi, step: 4Gi", "min: 2Gi, step: 0",
			`slices: ResourceSlice "node-p-llmfit.ai-r4t5y" (items[0]): spec.devices[0] ("round-0").capacity.memory.requestPolicy.validRange.step: 0 is not positive`},
		{"values not a list", "validValues: [8Gi, 16Gi]", "validValues: 16Gi",
			`slices: ResourceSlice "node-p-llmfit.ai-r4t5y" (items[0]): spec.devices[4] ("few-0").capacity.memory.requestPolicy.validValues: is a string; want a list of quantities`},
		{"a value not a quantity", "validValues: [8Gi, 16Gi]", "validValues: [8Gi, big]",
			`slices: ResourceSlice "node-p-llmfit.ai-r4t5y" (items[0]): spec.devices[4] ("few-0").capacity.memory.requestPolicy.validValues[1]: "big" is not a Kubernetes quantity (such as 81559Mi, 80Gi or 85899345920)`},
	} {
		bad := strings.Replace(s, c.from, c.to, 1)
		if bad == s {
			t.Fatalf("%s: %q not in the fixture", c.name, c.from)
		}
		_, err := CheckInputs(b, Inputs{Slices: []byte(bad)})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %s", c.name, err, c.want)
		}
	}
}

// The request by the qualified name (capacityName qualified: capacity.requests["llmfit.ai/memory"]):
// on capacity-policies.yaml it is named-0, which spells its memory llmfit.ai/memory, that the
// allocator takes (not shared: allocated whole, no share), and every device that spells it
// memory it skips, each saying so and how to name theirs; a note counts them.
func TestCapacityNameQualified(t *testing.T) {
	b := asking(t, 17, 1)
	b.Target.CapacityName = target.CapacityQualified
	r, err := CheckInputs(b, Inputs{Slices: readTestdata(t, "capacity-policies.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	other := "no: the claim's capacity request names llmfit.ai/memory, but the device publishes its memory as memory and the allocator matches names as spelled: set Memory capacity name to memory (capn=memory, --capacity-name memory, the default)"
	sameRows(t, r, []string{
		"node-p/round-0: " + other, "node-p/low-0: " + other, "node-p/values-0: " + other,
		"node-p/capped-0: " + other, "node-p/few-0: " + other, "node-p/plain-0: " + other,
		"node-p/named-0: model",
		"node-p/whole-0: " + other,
	})
	allocatedAs(t, r, "allocatable on node node-p: model gets named-0")
	for _, want := range []string{
		"the claim asks 17Gi of each device's llmfit.ai/memory (capacity.requests): judged as the allocator judges it with DRAConsumableCapacity on, which every device must meet, shared or not; a scheduler with the gate off fails the claim, an API server with it off drops the request",
		"7 devices the claim's selectors take publish their memory as memory, not as llmfit.ai/memory, the name its capacity request asks: the allocator skips them (it matches capacity names as spelled); Memory capacity name memory (capn=memory, --capacity-name memory) names that, or leave the capacity request out",
	} {
		if !slices.Contains(r.Notes, want) {
			t.Errorf("no note %q in %q", want, r.Notes)
		}
	}
	// By the plain name, the other way round: named-0 alone is skipped, and the note says so.
	b.Target.CapacityName = target.CapacityPlain
	if r, err = CheckInputs(b, Inputs{Slices: readTestdata(t, "capacity-policies.yaml")}); err != nil {
		t.Fatal(err)
	}
	want := "1 device the claim's selectors take publishes its memory as llmfit.ai/memory, not as memory, the name its capacity request asks: the allocator skips it (it matches capacity names as spelled); Memory capacity name qualified (capn=qualified, --capacity-name qualified) names that, or leave the capacity request out"
	if !slices.Contains(r.Notes, want) {
		t.Errorf("no note %q in %q", want, r.Notes)
	}
}

// The claim names each alternative's own domain: llmfit.ai's and gpu.nvidia.com's for driver any.
func TestCapacityNameQualifiedClaim(t *testing.T) {
	tg := target.Default()
	tg.ParamsB, tg.Quant, tg.MinTps, tg.Driver, tg.CapacityRequest, tg.CapacityName = 7, "F16", 10, fit.DriverAny, true, target.CapacityQualified
	r, err := claim.Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	// 7B F16: 17Gi a device (as TestCapacityRequestRounding's claim asks).
	for _, want := range []string{"\n                llmfit.ai/memory: 17Gi\n", "\n                gpu.nvidia.com/memory: 17Gi\n", "capacity.requests llmfit.ai/memory or gpu.nvidia.com/memory: 17Gi"} {
		if !strings.Contains(r.YAML, want) {
			t.Errorf("the claim lacks %q:\n%s", want, r.YAML)
		}
	}
	if !strings.Contains(r.JSON, `"capacityName": "qualified"`) {
		t.Errorf("JSON:\n%s", r.JSON)
	}
	tg.CapacityName = target.CapacityPlain
	if r, err = claim.Render(tg); err != nil || strings.Contains(r.JSON, "capacityName") || strings.Count(r.YAML, "\n                memory: 17Gi\n") != 2 {
		t.Errorf("plain: %v\n%s\n%s", err, r.YAML, r.JSON)
	}
}
