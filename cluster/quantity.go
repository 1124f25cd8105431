package cluster

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// Quantity is a Kubernetes resource quantity as a slice writes it, with its value.
type Quantity struct {
	Text  string
	value *big.Rat
}

// AtLeastMi reports whether the quantity, read as bytes, is at least mi × 2^20: the comparison
// `capacity.compareTo(quantity('<mi>Mi')) >= 0` makes, exactly (no rounding), and
// quantity('<gi>Gi')'s for mi = gi × 1024.
func (q Quantity) AtLeastMi(mi int64) bool {
	floor := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(mi), 20))
	return q.value.Cmp(floor) >= 0
}

// Mi writes the quantity in whole Mi, cut (not rounded), with commas ("24,564 Mi"), for a reason
// beside a floor in Mi: a value below the floor never prints as the floor.
func (q Quantity) Mi() string {
	mi := new(big.Rat).Quo(q.value, big.NewRat(1<<20, 1))
	n := new(big.Int).Quo(mi.Num(), mi.Denom()) // truncates toward zero
	if !n.IsInt64() {
		return n.String() + " Mi"
	}
	return string(fit.AppendGrouped(nil, n.Int64())) + " Mi"
}

// Gi writes the quantity in Gi for a reason: whole numbers as they are, others cut (not rounded)
// to one decimal so that a value below a floor never prints as the floor ("79.9 Gi < 80 Gi").
func (q Quantity) Gi() string {
	gi := new(big.Rat).Quo(q.value, big.NewRat(1<<30, 1))
	if gi.IsInt() {
		return gi.Num().String() + " Gi"
	}
	tenths := new(big.Int).Quo(new(big.Int).Mul(gi.Num(), big.NewInt(10)), gi.Denom()) // truncates toward zero
	s := tenths.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) < 2 {
		s = "0" + s
	}
	s = s[:len(s)-1] + "." + s[len(s)-1:]
	if neg {
		s = "-" + s
	}
	return s + " Gi"
}

// suffixes are the quantity suffixes as powers: binary (base 2) and decimal SI (base 10).
var suffixes = map[string]struct{ base, exp int }{
	"Ki": {2, 10}, "Mi": {2, 20}, "Gi": {2, 30}, "Ti": {2, 40}, "Pi": {2, 50}, "Ei": {2, 60},
	"n": {10, -9}, "u": {10, -6}, "m": {10, -3}, "": {10, 0},
	"k": {10, 3}, "M": {10, 6}, "G": {10, 9}, "T": {10, 12}, "P": {10, 15}, "E": {10, 18},
}

// maxQuantityText bounds the text read as a quantity; the API's own limit is far below it.
const maxQuantityText = 64

// ParseQuantity reads a quantity in Kubernetes' grammar (resource.ParseQuantity): an optional
// sign, a decimal number, then a binary suffix (Ki … Ei), a decimal SI suffix (n u m k M G T P E)
// or a decimal exponent (e3, E-2).
func ParseQuantity(s string) (Quantity, bool) {
	if s == "" || len(s) > maxQuantityText {
		return Quantity{}, false
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
	}
	if digits == 0 {
		return Quantity{}, false
	}
	num, suffix := s[:i], s[i:]
	v, ok := new(big.Rat).SetString(strings.TrimPrefix(num, "+"))
	if !ok {
		return Quantity{}, false
	}
	base, exp := 10, 0
	if p, known := suffixes[suffix]; known {
		base, exp = p.base, p.exp
	} else if suffix[0] == 'e' || suffix[0] == 'E' {
		e, err := strconv.Atoi(suffix[1:])
		if err != nil || suffix[1:] == "" || strings.HasPrefix(suffix[1:], "+") && len(suffix) == 2 || e > 100 || e < -100 {
			return Quantity{}, false
		}
		exp = e
	} else {
		return Quantity{}, false
	}
	if exp != 0 {
		pow := new(big.Int).Exp(big.NewInt(int64(base)), big.NewInt(int64(abs(exp))), nil)
		if exp > 0 {
			v.Mul(v, new(big.Rat).SetInt(pow))
		} else {
			v.Quo(v, new(big.Rat).SetInt(pow))
		}
	}
	return Quantity{Text: s, value: v}, true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Float is the value as a float64, for display and sorting only.
func (q Quantity) Float() float64 {
	if q.value == nil {
		return math.NaN()
	}
	f, _ := q.value.Float64()
	return f
}
