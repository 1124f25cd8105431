//go:build !catalogext

package catalog

// The model table and its index are compiled in (models_tsv.go, tables_index.go): the catalog
// is whole from the start. A test may still put it in shard mode (source.go) to compare a
// shard's answers with the whole table's.
var loaded = loadedFull

// setTable: the table compiled in is the one LoadText checked the text against.
func setTable(string, *[modelCount + 1]uint32, *[modelCount]uint8) { loaded = loadedFull }
