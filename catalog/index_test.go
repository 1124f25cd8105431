package catalog

import (
	"strings"
	"testing"
)

// The generated index (tables_index.go) is the tables' own: each entry's line and name as rows
// reads them, and both counts.
func TestIndexIsTheTables(t *testing.T) {
	indexModels()
	i := 0
	for line := range rows(modelsTSV) {
		if i >= modelCount {
			t.Fatalf("modelsTSV has more than modelCount (%d) lines: run go generate ./catalog", modelCount)
		}
		name, _, _ := strings.Cut(line, "\t")
		if modelLines[i] != line || modelNames[i] != name {
			t.Fatalf("entry %d: index gives line %.40q name %q, the table %.40q name %q: run go generate ./catalog", i, modelLines[i], modelNames[i], line, name)
		}
		i++
	}
	if i != modelCount {
		t.Errorf("modelsTSV has %d lines, modelCount %d: run go generate ./catalog", i, modelCount)
	}
	n := 0
	for range rows(acceleratorsTSV) {
		n++
	}
	if n != acceleratorCount {
		t.Errorf("acceleratorsTSV has %d lines, acceleratorCount %d: run go generate ./catalog", n, acceleratorCount)
	}
}
