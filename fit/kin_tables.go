package fit

import (
	"slices"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
)

// The kin of a catalog entry (the row of its stem, the verified context of its stem, the unpacked
// release of its stem, the 16-bit entries of its parameter count) are found in tables generated
// from the catalog (kin_gen.go: `go generate ./fit`, checked by TestKinTablesCurrent), not in maps
// built on first use: each map read every entry of the catalog, so the first claim of a page or
// of an edge instance decoded all 1,852 entries (in the page's wasm, most of the first render's
// time; issue 10 §2). A table names an entry by its index (catalog.Entry), which decodes that one.
//
// Two passes: moeDepthTable is read through ArchitectureOf, which reads rowsByStemTable.
//go:generate go test -run ^TestKinTablesCurrent$ . -args -update
//go:generate go test -run ^TestKinTablesCurrent$ . -args -update

// stemEntry is one row of a stem table: a stem and the index of its catalog entry.
type stemEntry struct {
	stem  string
	entry uint16
}

// countBase is one row of activeBySameCountTable: a parameter count and its architectures.csv base.
type countBase struct {
	count int64
	base  string
}

// entryOfStem is the entry a stem table (sorted by stem) gives s, or nil.
func entryOfStem(table []stemEntry, s string) *catalog.Model {
	i, ok := slices.BinarySearchFunc(table, s, func(e stemEntry, s string) int { return strings.Compare(e.stem, s) })
	if !ok {
		return nil
	}
	return catalog.Entry(int(table[i].entry))
}
