//go:build js && wasm

package bridge

import (
	"runtime"
	"testing"
)

// collect returns undefined at once, with one more of Go's collections done.
func TestCollectRunsTheCollector(t *testing.T) {
	g := api(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if v := g.Call("collect"); !v.IsUndefined() {
		t.Fatalf("collect() = %v, want undefined", v)
	}
	runtime.ReadMemStats(&after)
	if after.NumGC <= before.NumGC {
		t.Fatalf("collections %d before collect(), %d after: want at least one more", before.NumGC, after.NumGC)
	}
}
