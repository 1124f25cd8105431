package smallsort

import (
	"cmp"
	"slices"
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
