package fit

import (
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// TestEngineFloorByName: Engine.floor, which calls each engine's floor by name (so the Bounds
// it is given stays on the stack), knows every engine of the table and gives what its Floor
// gives, for a catalog model sized for each engine, at several weights and KV-cache sizes.
func TestEngineFloorByName(t *testing.T) {
	for _, e := range engines {
		b := resolve(t, func(tg *target.Target) {
			tg.Model, tg.Sizing, tg.Engine = "Qwen/Qwen3-8B", target.SizingKV, e.Name
		})
		for _, gib := range [][2]float64{{0.5, 0}, {15.26, 4}, {60, 30.5}} {
			m1, r1 := e.floor(&b, gib[0], gib[1])
			m2, r2 := e.Floor(&b, gib[0], gib[1])
			if m1 != m2 || r1 != r2 {
				t.Errorf("%s at %v GiB: floor gives %v %q, Floor %v %q", e.Name, gib, m1, r1, m2, r2)
			}
		}
	}
}
