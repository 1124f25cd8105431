package catalog

import (
	"slices"
	"testing"
)

// TestByDownloads: both orders hold every entry once, most downloaded first; ties keep the
// catalog's order (ByDownloads) or go by name (Search's order).
func TestByDownloads(t *testing.T) {
	all := Models()
	for name, c := range map[string]struct {
		order []int
		tie   func(x, y int) bool // x may come before y when their downloads are equal
	}{
		"ByDownloads":         {ByDownloads(), func(x, y int) bool { return x < y }},
		"byDownloadsThenName": {byDownloadsThenName(), func(x, y int) bool { return all[x].Name < all[y].Name }},
	} {
		if got := slices.Sorted(slices.Values(c.order)); !slices.Equal(got, indexes(len(all))) {
			t.Fatalf("%s: not a permutation of the catalog's %d indexes", name, len(all))
		}
		for k := 1; k < len(c.order); k++ {
			x, y := c.order[k-1], c.order[k]
			dx, dy := all[x].Downloads, all[y].Downloads
			if dx < dy || dx == dy && !c.tie(x, y) {
				t.Fatalf("%s: %s (%d downloads) before %s (%d)", name, all[x].Name, dx, all[y].Name, dy)
			}
		}
	}
}
