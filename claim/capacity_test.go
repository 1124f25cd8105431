package claim

import (
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// capacityRequest asks each device's memory floor as capacity.requests.memory, in every
// alternative, says why in the header and JSON; and off (the default) nothing of it is written.
func TestCapacityRequest(t *testing.T) {
	// 7B F16: 14.0 GB of weights, a 17 Gi floor (the header's llmfit line, "memory: ≥ 17 Gi"):
	// the request asks that floor, the figure the selector compares the device's memory with.
	tg := target.Default()
	tg.ParamsB, tg.Quant, tg.MinTps = 7, "F16", 10
	off, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	tg.CapacityRequest = true
	on, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if on.Bounds.MemoryGi != 17 {
		t.Fatalf("memory floor %d Gi, want 17", on.Bounds.MemoryGi)
	}
	block := "          capacity:\n            requests:\n              memory: 17Gi\n"
	if strings.Contains(off.YAML, "capacity:\n") || strings.Contains(off.YAML, "share:  ") || strings.Contains(off.JSON, "capacityRequest") {
		t.Errorf("off, the claim asks for capacity:\n%s\n%s", off.YAML, off.JSON)
	}
	if !strings.HasSuffix(on.YAML, block) {
		t.Errorf("on, no capacity request:\n%s", on.YAML)
	}
	if !strings.Contains(on.YAML, "\n# share:  capacity.requests memory: 17Gi a device (KEP-5075), so a shared device\n") ||
		!strings.Contains(on.JSON, "\"capacityRequest\": true,\n") {
		t.Errorf("on, no provenance:\n%s\n%s", on.YAML, on.JSON)
	}
	// Without the request's lines, the same claim.
	strip := strings.Replace(on.YAML, block, "", 1)
	if i := strings.Index(strip, "# share:  "); i >= 0 {
		j := strings.Index(strip, "apiVersion:")
		strip = strip[:i] + strip[j:]
	}
	if strip != off.YAML {
		t.Errorf("the request changes more than its lines:\n%s\nwant\n%s", strip, off.YAML)
	}
	// Every alternative of driver any asks it, at its own indentation.
	tg.Driver, tg.Count = fit.DriverAny, 2
	anyR, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(anyR.YAML, "            capacity:\n              requests:\n                memory: "+anyR.Bounds.MemoryQuantity()+"\n")
	if n != len(fit.AnyAlternatives()) || n < 2 {
		t.Errorf("driver any: %d alternatives ask capacity:\n%s", n, anyR.YAML)
	}
}
