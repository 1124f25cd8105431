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
		if modelLine(i) != line || modelName(i) != name || modelNames[i] != name {
			t.Fatalf("entry %d: index gives line %.40q name %q (Names %q), the table %.40q name %q: run go generate ./catalog", i, modelLine(i), modelName(i), modelNames[i], line, name)
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
	// modelByName: every entry once, in name order; an exact name finds its first entry.
	seen := make([]bool, modelCount)
	for k, e := range modelByName {
		if seen[e] {
			t.Fatalf("modelByName lists entry %d twice", e)
		}
		seen[e] = true
		if k > 0 {
			if p := modelByName[k-1]; modelNames[p] > modelNames[e] || modelNames[p] == modelNames[e] && p > e {
				t.Fatalf("modelByName out of order at %d: %q (%d) before %q (%d)", k, modelNames[p], p, modelNames[e], e)
			}
		}
	}
	first := map[string]int{}
	for i, n := range modelNames {
		if _, ok := first[n]; !ok {
			first[n] = i
		}
	}
	for n, want := range first {
		if got, ok := exactName(n); !ok || got != want {
			t.Errorf("exactName(%q) = %d, %v; want %d", n, got, ok, want)
		}
	}
	for _, q := range []string{"", "nousresearch/llama-2-7b-chat-hf", "NousResearch/Llama-2-7b-chat-hf ", "zzz"} {
		if i, ok := exactName(q); ok {
			t.Errorf("exactName(%q) found entry %d (%q)", q, i, modelNames[i])
		}
	}
}
