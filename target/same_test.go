package target

import (
	"math"
	"testing"
)

// TestSameIsGetEqual: Field.Same(a, b) is f.Get(a) == f.Get(b) for every field of the table,
// over the defaults and values set on either side: numbers at 0, -0, NaN, ±Inf and ordinary
// values, integers, booleans and strings, equal and not.
func TestSameIsGetEqual(t *testing.T) {
	numbers := []float64{0, math.Copysign(0, -1), 1, 1.5, -2, math.NaN(), math.Inf(1), math.Inf(-1), 1e300}
	for i := range Fields {
		f := &Fields[i]
		var values []func(*Target)
		switch f.Kind() {
		case KindNumber:
			for _, x := range numbers {
				values = append(values, func(t *Target) { *f.number(t) = x })
			}
		case KindInteger:
			for _, n := range []int{0, 1, -1, 4096} {
				values = append(values, func(t *Target) { *f.integer(t) = n })
			}
		case KindBool:
			for _, b := range []bool{false, true} {
				values = append(values, func(t *Target) { *f.boolean(t) = b })
			}
		default:
			for _, s := range []string{"", "a", "A", "llmfit", "kv"} {
				values = append(values, func(t *Target) { *f.str(t) = s })
			}
		}
		values = append(values, func(*Target) {}) // the default
		for _, setA := range values {
			for _, setB := range values {
				a, b := Default(), Default()
				setA(&a)
				setB(&b)
				if got, want := f.Same(&a, &b), f.Get(&a) == f.Get(&b); got != want {
					t.Errorf("%s: Same(%s, %s) = %v, Get equal %v", f.Name, f.Get(&a), f.Get(&b), got, want)
				}
			}
		}
	}
}
