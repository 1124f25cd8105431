package conformance

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// The checks must catch a wrong claim: each case alters a correct rendering
// the way a plausible bug would, and the Checker must refuse it with the
// reason given.
func TestCheckerCatchesWrongClaims(t *testing.T) {
	ctx := context.Background()
	c := newChecker(t)
	render := func(driver string) (target.Target, claim.Result) {
		tg := target.Default()
		tg.Model, tg.MinTps, tg.Driver = "Qwen/Qwen2.5-7B-Instruct", 150, driver
		r, err := claim.Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.CheckResult(ctx, tg, &r); err != nil {
			t.Fatalf("unaltered %s claim: %v", driver, err)
		}
		return tg, r
	}
	lt, lr := render(fit.DriverLlmfit)
	nt, nr := render(fit.DriverNVIDIA)
	at, ar := render(fit.DriverAny)
	gi, bw := lr.Bounds.MemoryGi, lr.Bounds.MinBandwidthGBs
	ngi := nr.Bounds.MemoryGi
	for _, tc := range []struct {
		name   string
		target target.Target
		r      claim.Result
		old    string
		new    string
		alter  func(*claim.Result)
		want   string
	}{
		{name: "bandwidth floor one lower", target: lt, r: lr, old: fmt.Sprintf(">= %d &&", bw), new: fmt.Sprintf(">= %d &&", bw-1), want: "boundary-bandwidth-below"},
		{name: "memory floor one higher", target: lt, r: lr, old: fmt.Sprintf("quantity('%dGi')", gi), new: fmt.Sprintf("quantity('%dGi')", gi+1), want: "matched"},
		{name: "> instead of >=", target: lt, r: lr, old: fmt.Sprintf(">= %d &&", bw), new: fmt.Sprintf("> %d &&", bw), want: "boundary-at-floors"},
		{name: "health not required", target: lt, r: lr, old: "device.attributes['llmfit.ai'].healthy\n", new: "true\n", want: "unhealthy"},
		{name: "memory unguarded", target: lt, r: lr, old: "'memory' in device.capacity['llmfit.ai'] &&", new: "", want: "CEL evaluation error"},
		{name: "bandwidth unguarded", target: lt, r: lr, old: "'memoryBandwidthGBs' in device.attributes['llmfit.ai'] &&", new: "", want: "CEL evaluation error"},
		{name: "GiB is no quantity", target: lt, r: lr, old: "Gi')", new: "GiB')", want: "CEL evaluation error"},
		{name: "quantities with >=", target: lt, r: lr, old: fmt.Sprintf(".memory.compareTo(quantity('%dGi')) >= 0", gi), new: fmt.Sprintf(".memory >= quantity('%dGi')", gi), want: "compilation failed"},
		{name: "unknown field", target: lt, r: lr, old: "deviceClassName:", new: "deviceClass:", want: "unknown field"},
		{name: "name differs from Result.Name", target: lt, r: lr, old: "name: " + lr.Name, new: "name: other-fit", want: "metadata.name"},
		{name: "count not asked for", target: lt, r: lr, old: "deviceClassName: llmfit.ai\n", new: "deviceClassName: llmfit.ai\n          count: 2\n", want: "count 2"},
		{name: "wrong class", target: lt, r: lr, old: "deviceClassName: llmfit.ai", new: "deviceClassName: gpu.nvidia.com", want: "class"},
		{name: "matching table says selected", target: lt, r: lr, alter: func(r *claim.Result) {
			r.Matches = append([]fit.Match(nil), r.Matches...)
			r.Matches[len(r.Matches)-1].Selected = !r.Matches[len(r.Matches)-1].Selected
		}, want: "Selected"},
		{name: "JSON memoryGi differs", target: lt, r: lr, alter: func(r *claim.Result) {
			r.JSON = strings.Replace(r.JSON, fmt.Sprintf(`"memoryGi": %d,`, gi), fmt.Sprintf(`"memoryGi": %d,`, gi+1), 1)
		}, want: "JSON memoryGi"},
		{name: "nvidia: JSON count missing", target: nt, r: nr, alter: func(r *claim.Result) {
			r.JSON = strings.Replace(r.JSON, `"count": 1,`, ``, 1)
		}, want: "JSON count"},
		{name: "nvidia: product dropped from the allow-list", target: nt, r: nr, old: "'NVIDIA H200',", new: "'NVIDIA Other',", want: "matched"},
		{name: "nvidia: memory floor lower", target: nt, r: nr, old: fmt.Sprintf("quantity('%dGi')", ngi), new: fmt.Sprintf("quantity('%dGi')", ngi-1), want: "boundary-nvidia-below-floor"},
		{name: "nvidia: productName unguarded", target: nt, r: nr, old: "'productName' in device.attributes['gpu.nvidia.com'] &&", new: "", want: "CEL evaluation error"},
		{name: "nvidia: Bounds.Products short", target: nt, r: nr, alter: func(r *claim.Result) { r.Bounds.Products = r.Bounds.Products[1:] }, want: "Bounds.Products"},
		{name: "any: alternatives swapped", target: at, r: ar, old: "- name: llmfit", new: "- name: nvidia-first", want: "sub-request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			if tc.alter != nil {
				tc.alter(&r)
			} else {
				if !strings.Contains(r.YAML, tc.old) {
					t.Fatalf("%q is not in the YAML:\n%s", tc.old, r.YAML)
				}
				r.YAML = strings.Replace(r.YAML, tc.old, tc.new, 1)
			}
			_, err := c.CheckResult(ctx, tc.target, &r)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant it to mention %q", err, tc.want)
			}
		})
	}
}
