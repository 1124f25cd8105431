package tsv

import (
	"reflect"
	"testing"
)

func TestRows(t *testing.T) {
	// line 1 a comment, 2 the header, 3 empty, 4 and 5 rows (5 ends in "\r\n")
	rows, err := Rows("# c\nmodel\tgpu\n\nqwen\tH100\nllama\tL4\r\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{{4, map[string]string{"model": "qwen", "gpu": "H100"}}, {5, map[string]string{"model": "llama", "gpu": "L4"}}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("Rows = %v, want %v", rows, want)
	}
	if _, err := Rows("a\tb\n1\n"); err == nil || err.Error() != "line 2: 1 cells, the header has 2" {
		t.Errorf("short row: %v", err)
	}
}
