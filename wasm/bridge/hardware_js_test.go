//go:build js && wasm

package bridge

import "testing"

// In the browser, devices() lists the catalog's accelerators and the seven families.
func TestDevicesInBrowser(t *testing.T) {
	g := api(t)
	d, rej := await(g.Call("devices"))
	if !rej.IsUndefined() || d.Get("families").Length() != 7 || d.Get("devices").Length() == 0 {
		t.Fatal("devices() is incomplete")
	}
}
