//go:build catalogext

package catalog

import (
	"slices"
	"strings"
)

// Built with the tag catalogext (the page's engine, wasm/page), the package holds no model
// table: the page gives it the table's text at run time (LoadText), or first one shard of it
// (LoadShard), and its index is computed from the text (source.go). Until then every use of the
// catalog panics with an *IncompleteError.
var (
	loaded       = loadedNone
	modelsTSV    string
	modelStart   [modelCount + 1]uint32
	modelNameLen [modelCount]uint8
	modelByName  [modelCount]uint16
)

// setTable makes text, whose lines start at starts and whose names are lens long, the table,
// and sorts its names for exactName (equal names in catalog order), as catalog/gen does for a
// build with the table.
func setTable(text string, starts *[modelCount + 1]uint32, lens *[modelCount]uint8) {
	modelsTSV, modelStart, modelNameLen = text, *starts, *lens
	for i := range modelByName {
		modelByName[i] = uint16(i)
	}
	slices.SortStableFunc(modelByName[:], func(a, b uint16) int { return strings.Compare(modelName(int(a)), modelName(int(b))) })
	loaded = loadedFull
}
