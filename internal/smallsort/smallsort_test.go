package smallsort

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

func TestStrings(t *testing.T) {
	s := []string{"minTps", "model", "count", "", "Model", "model"}
	Strings(s)
	// byte order: "" first, upper case before lower case, equal strings together
	want := []string{"", "Model", "count", "minTps", "model", "model"}
	if !slices.Equal(s, want) {
		t.Errorf("Strings = %q, want %q", s, want)
	}
}

// Long lists (merged halves) and short ones (insertion) sort as slices.Sort does.
func TestStringsIsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 2, 31, 32, 33, 64, 65, 100, 1000, 2345} {
		for range 5 {
			s := make([]string, n)
			for i := range s {
				s[i] = strconv.Itoa(r.IntN(n + 1)) // duplicates too
			}
			want := slices.Clone(s)
			slices.Sort(want)
			if Strings(s); !slices.Equal(s, want) {
				t.Fatalf("Strings of %d: %q, want %q", n, s, want)
			}
		}
	}
}

func TestFuncStable(t *testing.T) {
	type cand struct {
		name string
		tps  float64
	}
	s := []cand{{"a", 10}, {"b", 30}, {"c", 10}, {"d", 20}, {"e", 30}}
	Func(s, func(x, y cand) int { return cmp.Compare(y.tps, x.tps) }) // fastest first
	// 30: b then e (their order kept), 20: d, 10: a then c
	var got string
	for _, c := range s {
		got += c.name
	}
	if got != "bedac" {
		t.Errorf("order %q, want %q", got, "bedac")
	}
	Func([]cand(nil), func(x, y cand) int { return 0 }) // empty: nothing to do, no panic
}
