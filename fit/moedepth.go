package fit

import (
	"cmp"
	"sort"

	"github.com/fitclaim/fitclaim/internal/smallsort"
)

// MoEDepth is the decoder layers assumed for a mixture of experts of paramsB (billions) whose
// depth is unknown (a custom model without layers; a run the catalog does not know), for its
// per-layer time (speed.go): the median depth of the catalog's mixtures of experts of known
// depth between half and twice its size, or of all of them when there are none. Depth grows
// with size: the catalog's mixtures of experts under 10 B have a median of 24 layers, 25–60 B 40,
// over 200 B 62, so one depth for all would misjudge the small and the huge ones.
func MoEDepth(paramsB float64) int {
	all := moeDepths()
	lo := sort.Search(len(all), func(i int) bool { return all[i].paramsB >= paramsB/2 })
	hi := sort.Search(len(all), func(i int) bool { return all[i].paramsB > paramsB*2 })
	near := all[lo:hi]
	if len(near) == 0 {
		near = all
	}
	if len(near) == 0 {
		return 0
	}
	// The median (the middle of the sorted depths, the upper one of an even count) by counting:
	// a depth is a small number (the table's deepest has 94 layers), so no sort is needed, nor its
	// code in the page's engine (slices.Sort's pdqsort for ints, ~11 KB of wasm), and no
	// allocation: it runs in every render of a mixture of experts whose depth is unknown.
	var count [256]int32
	for _, d := range near {
		if d.layers < 0 || d.layers >= len(count) {
			return medianBySort(near)
		}
		count[d.layers]++
	}
	k := int32(len(near) / 2)
	for depth, n := range count {
		if k < n {
			return depth
		}
		k -= n
	}
	return 0 // not reached: the counts add up to len(near)
}

// medianBySort is MoEDepth's median for depths beyond its count (none in the table today).
func medianBySort(near []moeDepthRow) int {
	layers := make([]int, len(near))
	for i, d := range near {
		layers[i] = d.layers
	}
	smallsort.Func(layers, cmp.Compare[int])
	return layers[len(layers)/2]
}

// MoELayers is a mixture of experts' layers for its per-layer time: those known, else MoEDepth.
func MoELayers(layers int, paramsB float64) int {
	if layers > 0 {
		return layers
	}
	return MoEDepth(paramsB)
}

type moeDepthRow struct {
	paramsB float64
	layers  int
}

// moeDepths is the catalog's mixtures of experts of known depth, by size: a table generated from
// the catalog (kin_gen.go; kin_tables_test.go says how it is made), so a custom mixture of experts'
// first claim does not decode the whole catalog.
func moeDepths() []moeDepthRow { return moeDepthTable[:] }
