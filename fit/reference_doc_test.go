package fit

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docs/REFERENCE-llmfit-claim.md's tables of llmfit's bytes per parameter and of the KV-cache
// element sizes are the ones fit computes with.
func TestReferenceDocTables(t *testing.T) {
	b, err := os.ReadFile("../docs/REFERENCE-llmfit-claim.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var names, sizes []string
	for _, l := range strings.Split(doc, "\n") {
		cells := strings.Split(strings.Trim(l, "| "), " | ")
		switch {
		case len(cells) > 1 && cells[0] == "quant" && cells[1] == "F32":
			names = cells[1:]
		case len(cells) > 1 && cells[0] == "bytes/param":
			sizes = cells[1:]
		}
	}
	if len(names) == 0 || len(names) != len(sizes) {
		t.Fatalf("no bytes-per-parameter table (%q, %q)", names, sizes)
	}
	seen := 0
	for i, cell := range names {
		want, _ := strconv.ParseFloat(sizes[i], 64)
		for _, q := range strings.Split(cell, ", ") {
			_, bpp, ok := canonicalQuant(q)
			if !ok || bpp != want {
				t.Errorf("REFERENCE: %s is %v bytes a parameter; fit's llmfit table has %v (known %v)", q, want, bpp, ok)
			}
			seen++
		}
	}
	if seen != len(quants) {
		t.Errorf("REFERENCE's table names %d quantizations; llmfit's table in fit has %d", seen, len(quants))
	}
	// "… × bytes_per_elem` (fp16 2, fp8 1, q8_0 1.0625, q4_0 0.5625: …)"
	m := regexp.MustCompile("bytes_per_elem`\\s*\\(([^:)]*)").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("REFERENCE no longer states the KV element sizes")
	}
	for _, part := range strings.Split(m[1], ", ") {
		f := strings.Fields(part)
		if len(f) < 2 {
			t.Fatalf("REFERENCE: %q", part)
		}
		want, _ := strconv.ParseFloat(f[len(f)-1], 64)
		if _, got, ok := kvElementBytes(f[0]); !ok || got != want {
			t.Errorf("REFERENCE: a %s KV element is %v bytes; fit has %v", f[0], want, got)
		}
	}
}
