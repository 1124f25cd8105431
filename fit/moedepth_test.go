package fit

import (
	"slices"
	"sort"
	"testing"
)

// A mixture of experts of unknown depth counts the median depth of the catalog's mixtures of
// experts of known depth within a factor of 2 of its size: deeper as they grow (the catalog's
// 30 B class, Qwen3-30B-A3B 48, Qwen3.5-35B-A3B 40, GLM-4.7-Flash 47, Nemotron-3-Nano 52 …: 40;
// 50–200 B, Qwen3-Next, Qwen3.5-122B, gpt-oss-120b 36 …: 48; 500 B–2 T, DeepSeek-V3/R1 and
// Kimi-K2 61 …: 61). A size with none near it counts all of them (median 48).
func TestMoEDepth(t *testing.T) {
	for _, c := range []struct {
		paramsB float64
		want    int
	}{{30, 40}, {100, 48}, {1000, 61}, {1e6, 48}} {
		if got := MoEDepth(c.paramsB); got != c.want {
			t.Errorf("MoEDepth(%v) = %d, want %d", c.paramsB, got, c.want)
		}
	}
	if got := MoELayers(24, 30); got != 24 {
		t.Errorf("known layers: %d, want 24", got)
	}
}

// MoEDepth's median by counting is the middle of the sorted depths, as a sort would give it, at
// every size and for every window of the table (medianBySort, the fallback for deep rows).
func TestMoEDepthCountsAsASortWould(t *testing.T) {
	sorted := func(rows []moeDepthRow) int {
		l := make([]int, len(rows))
		for i, d := range rows {
			l[i] = d.layers
		}
		slices.Sort(l)
		return l[len(l)/2]
	}
	all := moeDepths()
	for p := 0.0005; p < 5000; p *= 1.01 {
		lo := sort.Search(len(all), func(i int) bool { return all[i].paramsB >= p/2 })
		hi := sort.Search(len(all), func(i int) bool { return all[i].paramsB > p*2 })
		near := all[lo:hi]
		if len(near) == 0 {
			near = all
		}
		if got, want := MoEDepth(p), sorted(near); got != want {
			t.Fatalf("MoEDepth(%g) = %d, the sorted median %d", p, got, want)
		}
	}
	for i := range all {
		for j := i + 1; j <= len(all) && j <= i+40; j++ {
			if got, want := medianBySort(all[i:j]), sorted(all[i:j]); got != want {
				t.Fatalf("medianBySort(rows %d..%d) = %d, want %d", i, j, got, want)
			}
		}
	}
}
