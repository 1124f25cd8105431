package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/internal/vllmtrain"
)

// docs/VLLM.md's accuracy table is what this command prints, row count for row count.
func TestDocsAreTheFigures(t *testing.T) {
	rows, err := vllmtrain.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := vllmtrain.Table(vllmtrain.Evaluate(rows)) + vllmtrain.ChainTable(vllmtrain.EndToEnd(rows)) + vllmtrain.FloorTable(vllmtrain.Floors(rows))
	printed := map[string]string{} // the printed line's words → "X of Y"
	for _, m := range regexp.MustCompile(`(?m)^(.*?):\s+([0-9]+ of [0-9]+) rows`).FindAllStringSubmatch(out, -1) {
		printed[strings.TrimSpace(m[1])] = m[2]
	}
	doc, err := os.ReadFile("../../docs/VLLM.md")
	if err != nil {
		t.Fatal(err)
	}
	// docs/VLLM.md's row → the line vllmacc prints
	for docRow, line := range map[string][]string{
		"available KV within ±10 % or ±0.75 GiB of the log":          {"available KV within ±10 % or ±0.75 GiB of the log"},
		"KV tokens from the logged KV, within the log's rounding":    {"KV tokens from the logged KV, within the log's rounding"},
		"concurrency from the logged KV, within the log's rounding":  {"concurrency from the logged KV, within the log's rounding"},
		"KV tokens / concurrency from the modelled KV, within ±10 %": {"KV tokens from the modelled KV, within ±10 %", "concurrency from the modelled KV, within ±10 %"},
		"starts or fails as logged":                                  {"starts / fails as logged (from the logged KV)"},
		"available KV from the catalog alone":                        {"available KV from the catalog within ±10 % or ±0.75 GiB"},
		"memory floor on the side of the log":                        {"floor on the side of the log (started: floor ≤ device; failed: floor > device)"},
	} {
		m := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(docRow) + `[^|]* \| ([^|]+) \|$`).FindStringSubmatch(string(doc))
		if m == nil {
			t.Errorf("docs/VLLM.md has no accuracy row %q", docRow)
			continue
		}
		var want []string
		for _, l := range line {
			p, ok := printed[l]
			if !ok {
				t.Fatalf("vllmacc prints no line %q (it prints %q)", l, printed)
			}
			want = append(want, p)
		}
		if got := strings.TrimSpace(m[1]); !strings.HasPrefix(got, strings.Join(want, " / ")) {
			t.Errorf("docs/VLLM.md: %s: %q; vllmacc prints %s", docRow, got, strings.Join(want, " / "))
		}
	}
}
