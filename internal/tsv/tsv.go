// Package tsv reads the repository's tab-separated data files (data/truth-train.tsv, the vLLM
// training tables): '#' comment lines and empty lines are skipped, the first other line is the
// header, and every later line is a row with exactly the header's cells.
package tsv

import (
	"fmt"
	"strings"
)

// Row is one data line: its cells by the header's names, and its line number (from 1) for
// messages.
type Row struct {
	Line  int
	Cells map[string]string
}

// Rows reads text's rows (a "\r" before a line's end is dropped); a row whose cell count differs
// from the header's is an error naming its line.
func Rows(text string) ([]Row, error) {
	var header []string
	var out []Row
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		n++
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "\t")
		if header == nil {
			header = cells
			continue
		}
		if len(cells) != len(header) {
			return nil, fmt.Errorf("line %d: %d cells, the header has %d", n, len(cells), len(header))
		}
		row := make(map[string]string, len(header))
		for i, h := range header {
			row[h] = cells[i]
		}
		out = append(out, Row{Line: n, Cells: row})
	}
	return out, nil
}
