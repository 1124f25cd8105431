package cluster

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// shared judges shared.yaml for an llmfit.ai claim of count devices of ≥ memoryGi and 1,000 GB/s,
// with claims (a file in testdata, or "" for none).
func shared(t *testing.T, memoryGi int64, count int, claims string) Report {
	t.Helper()
	in := Inputs{Slices: readTestdata(t, "shared.yaml")}
	if claims != "" {
		in.Claims = []byte(claims)
	}
	r, err := CheckInputs(bounds(t, fit.DriverLlmfit, memoryGi, 1000, count), in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseSharedClaims(t *testing.T) {
	got, err := ParseClaims(readTestdata(t, "shared-claims.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) map[string]Quantity {
		v, ok := ParseQuantity(s)
		if !ok {
			t.Fatalf("quantity %q", s)
		}
		return map[string]Quantity{"memory": v}
	}
	want := []InUse{
		{Driver: "llmfit.ai", Pool: "node-s", Device: "shared-0", Claim: "ml/big-0", ShareID: "0f3a1c52-9b7e-4d21-8c6a-5e4f3b2a1d09", Consumed: q("48Gi")},
		{Driver: "llmfit.ai", Pool: "node-s", Device: "shared-0", Claim: "ml/small-0", ShareID: "7c2d9e41-3a5b-4f86-9d10-2b8e6f4c3a71", Consumed: q("16Gi")},
		{Driver: "llmfit.ai", Pool: "node-s", Device: "shared-1", Claim: "ml/small-0", ShareID: "a41b6c3d-2e9f-4a87-b5c0-1d3e7f9a2b64", Consumed: q("48Gi")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in use %+v\nwant %+v", got, want)
	}
}

func TestSharedDevicesFree(t *testing.T) {
	// Nothing held: every device matches; shared-0's share is its 16Gi default, shared-1's all
	// of its 48Gi. The model needs 17 Gi a device: a share of 16Gi is less, and a note says so.
	r := shared(t, 17, 1, "")
	sameRows(t, r, []string{"node-s/shared-0: model", "node-s/shared-1: model", "node-s/whole-0: model"})
	allocatedAs(t, r, "allocatable on node node-s: model gets shared-0")
	if got := []string{r.Devices[0].Share, r.Devices[1].Share, r.Devices[2].Share}; !slices.Equal(got, []string{
		"a share: memory 16Gi (its requestPolicy default) of 80Gi", "a share: memory all 48Gi (no requestPolicy) of 48Gi", ""}) {
		t.Errorf("shares %q", got)
	}
	note := "device shared-0 is shared (allowMultipleAllocations): this claim asks for no capacity, so its share of memory is 16Gi (its requestPolicy default), less than the 17 Gi per device the model needs; a driver that enforces shares holds the workload to it"
	if !slices.Contains(r.Notes, note) || !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "consumable capacity (KEP-5075") }) {
		t.Errorf("notes %q", r.Notes)
	}
	// 16 Gi a device: the share covers it, no note.
	if r := shared(t, 16, 1, ""); slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "device shared-0 is shared") }) {
		t.Errorf("a 16Gi share noted short of 16 Gi: %q", r.Notes)
	}
	// One claim takes a device once: three devices, not four shares of shared-0.
	if r := shared(t, 8, 4, ""); r.Allocatable || r.Placement != "not allocatable: the claim needs 4 matching devices on one node; the most is 3 on node node-s" {
		t.Errorf("four: %q", r.Placement)
	}
}

func TestSharedDevicesHeld(t *testing.T) {
	claims := string(readTestdata(t, "shared-claims.yaml"))
	// shared-0: 48Gi + 16Gi held of 80Gi, 16Gi left: room for one 16Gi share, exactly. shared-1:
	// its one share took all 48Gi. whole-0 is free.
	r := shared(t, 8, 2, claims)
	sameRows(t, r, []string{
		"node-s/shared-0: model",
		"node-s/shared-1: no: capacity memory: 0 of 48Gi left by the shares other claims hold, this claim's share takes all 48Gi (no requestPolicy)",
		"node-s/whole-0: model",
	})
	allocatedAs(t, r, "allocatable on node node-s: model gets shared-0, whole-0")
	if got := r.Devices[0].Share; got != "a share: memory 16Gi (its requestPolicy default) of 80Gi, 64Gi held by other claims' shares" {
		t.Errorf("share %q", got)
	}
	if !slices.Contains(r.Notes, "the claims given hold 0 devices whole, not free for this claim (admin-access results excepted, as the scheduler does), and 3 shares of devices several claims can share, which leave the rest of those devices' capacity") {
		t.Errorf("notes %q", r.Notes)
	}
	if r := shared(t, 8, 3, claims); r.Allocatable || r.Placement != "not allocatable: the claim needs 3 matching devices on one node; the most is 2 on node node-s (1 more that would match are shared devices whose capacity other claims' shares have taken)" {
		t.Errorf("three: %q", r.Placement)
	}
	// A Gi more held of shared-0 (49 + 16 = 65Gi): 15Gi left, a Gi short of a share.
	more := strings.Replace(claims, "consumedCapacity: {memory: 48Gi}}", "consumedCapacity: {memory: 49Gi}}", 1)
	r = shared(t, 8, 1, more)
	if d := r.Devices[0]; d.Matches || !slices.Equal(d.Reasons, []string{"capacity memory: 15Gi of 80Gi left by the shares other claims hold, this claim's share takes 16Gi (its requestPolicy default)"}) {
		t.Errorf("shared-0: %+v", d)
	}
	allocatedAs(t, r, "allocatable on node node-s: model gets whole-0")
	// A result without a shareID holds a shared device whole.
	whole := strings.Replace(claims, "shareID: 0f3a1c52-9b7e-4d21-8c6a-5e4f3b2a1d09, ", "", 1)
	if d := shared(t, 8, 1, whole).Devices[0]; d.Matches || d.AllocatedTo != "ml/big-0" {
		t.Errorf("shared-0 held whole: %+v", d)
	}
}

func TestBadShares(t *testing.T) {
	slices, claims := string(readTestdata(t, "shared.yaml")), string(readTestdata(t, "shared-claims.yaml"))
	b := bounds(t, fit.DriverLlmfit, 8, 1000, 1)
	for _, c := range []struct{ name, slices, claims, want string }{
		{"allow not a bool", strings.Replace(slices, "allowMultipleAllocations: true", "allowMultipleAllocations: yes please", 1), "",
			`slices: ResourceSlice "node-s-llmfit.ai-q1w2e" (items[0]): spec.devices[0] ("shared-0").allowMultipleAllocations: is a string; want true or false`},
		{"bad default", strings.Replace(slices, "default: 16Gi", "default: lots", 1), "",
			`slices: ResourceSlice "node-s-llmfit.ai-q1w2e" (items[0]): spec.devices[0] ("shared-0").capacity.memory.requestPolicy.default: "lots" is not a Kubernetes quantity (such as 81559Mi, 80Gi or 85899345920)`},
		{"policy a list", strings.Replace(slices, "          requestPolicy:\n            default: 16Gi\n            validRange: {min: 1Gi, step: 1Gi}\n", "          requestPolicy: [16Gi]\n", 1), "",
			`slices: ResourceSlice "node-s-llmfit.ai-q1w2e" (items[0]): spec.devices[0] ("shared-0").capacity.memory.requestPolicy: is a list; want a mapping`},
		{"shareID a number", slices, strings.Replace(claims, "shareID: 0f3a1c52-9b7e-4d21-8c6a-5e4f3b2a1d09", "shareID: 7", 1),
			`claims: ResourceClaim "ml/big-0" (items[0]): status.allocation.devices.results[0].shareID: is a number; want a string`},
		{"consumed not a quantity", slices, strings.Replace(claims, "consumedCapacity: {memory: 48Gi}", "consumedCapacity: {memory: much}", 1),
			`claims: ResourceClaim "ml/big-0" (items[0]): status.allocation.devices.results[0].consumedCapacity.memory: "much" is not a Kubernetes quantity (such as 81559Mi, 80Gi or 85899345920)`},
	} {
		in := Inputs{Slices: []byte(c.slices)}
		if c.claims != "" {
			in.Claims = []byte(c.claims)
		}
		_, err := CheckInputs(b, in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %s", c.name, err, c.want)
		}
	}
}
