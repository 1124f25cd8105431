//go:build js && wasm

package bridge

import (
	"testing"

	"github.com/fitclaim/fitclaim/estimate"
)

// In the browser, hardware(query) holds the engine's estimate (6.57 GiB of 24, 105.1 tok/s,
// fit's hand-computed case) and rejects a bad device naming its field; devices() lists the
// catalog's accelerators and the seven families.
func TestHardwareInBrowser(t *testing.T) {
	g := api(t)
	q := "p=8&L=32&kvh=8&hd=128&memory=24&bandwidth=1000&family=nvidia"
	v, rej := await(g.Call("hardware", q))
	if !rej.IsUndefined() {
		t.Fatalf("rejected: %s", rej.Get("message").String())
	}
	e, err := estimate.RunRaw(q)
	if err != nil {
		t.Fatal(err)
	}
	est := v.Get("estimate")
	if !est.Get("fits").Bool() || est.Get("needGiB").Float() != 6.57 || est.Get("tokensPerSecond").Float() != 105.1 ||
		v.Get("text").String() != estimate.Text(e) || v.Get("fitting").Length() != HardwareFitting {
		t.Fatalf("hardware: needGiB %v, tok/s %v, %d fitting", est.Get("needGiB"), est.Get("tokensPerSecond"), v.Get("fitting").Length())
	}
	_, rej = await(g.Call("hardware", "p=8&memory=24&bandwidth=1000&family=tpu"))
	if rej.IsUndefined() || rej.Get("field").String() != "family" {
		t.Fatalf("a bad family: %v", rej)
	}
	d, rej := await(g.Call("devices"))
	if !rej.IsUndefined() || d.Get("families").Length() != 7 || d.Get("devices").Length() == 0 {
		t.Fatal("devices() is incomplete")
	}
}
