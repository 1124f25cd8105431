package wire

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestAppendHead(t *testing.T) {
	h := http.Header{"Content-Type": {"text/plain"}, "Vary": {"a", "b"}}
	got, ok := AppendHead([]byte("x"), 404, h)
	if !ok {
		t.Fatal("refused a good head")
	}
	// The map's order is not fixed: compare the lines after the status as a set.
	lines := strings.Split(string(got), "\n")
	if lines[0] != "x404" || lines[1] != "Not Found" {
		t.Fatalf("head %q", got)
	}
	var pairs []string
	for i := 2; i+1 < len(lines); i += 2 {
		pairs = append(pairs, lines[i]+": "+lines[i+1])
	}
	slices.Sort(pairs)
	if want := []string{"Content-Type: text/plain", "Vary: a", "Vary: b"}; !slices.Equal(pairs, want) {
		t.Fatalf("headers %q, want %q", pairs, want)
	}
	for _, bad := range []http.Header{{"A\nB": {"v"}}, {"A": {"v\r"}}, {"A": {"ok", "v\x00"}}} {
		if got, ok := AppendHead([]byte("x"), 200, bad); ok || string(got) != "x" {
			t.Errorf("%q: ok %v, %q; want false and dst unchanged", bad, ok, got)
		}
	}
}
