package catalog

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// ByDownloads returns the indexes of Models(), most downloaded first; entries with as many
// downloads keep the catalog's order. It is made once per process and shared: the caller must
// not change it. The list of popular models that fit a device walks it instead of sorting the
// whole catalog per request (in the edge worker's wasm that sort was most of the request).
func ByDownloads() []int {
	needFull("ByDownloads") // before the Once reads the whole table
	return byDownloads()
}

var byDownloads = sync.OnceValue(func() []int {
	all := Models()
	order := indexes(len(all))
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(all[y].Downloads, all[x].Downloads) })
	return order
})

// byDownloadsThenName is Search's order within a rank: most downloaded first, then by name
// (names are unique in the catalog).
var byDownloadsThenName = sync.OnceValue(func() []int {
	all := Models()
	order := indexes(len(all))
	slices.SortStableFunc(order, func(x, y int) int {
		if d := cmp.Compare(all[y].Downloads, all[x].Downloads); d != 0 {
			return d
		}
		return strings.Compare(all[x].Name, all[y].Name)
	})
	return order
})

func indexes(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}
