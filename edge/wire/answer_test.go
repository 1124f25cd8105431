package wire

import (
	"net/http"
	"slices"
	"strconv"
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
	for _, bad := range []http.Header{{"A\nB": {"v"}}, {"A": {"v\r"}}, {"A": {"ok", "v\x00"}}, {"B": {"ok"}, "A": {"\n"}, "C": {"ok"}}, {"\x00": {"v"}}} {
		if got, ok := AppendHead([]byte("x"), 200, bad); ok || string(got) != "x" {
			t.Errorf("%q: ok %v, %q; want false and dst unchanged", bad, ok, got)
		}
	}
}

// oldAppendHead is AppendHead before its single pass (strings.ContainsAny over every name and
// value first, then the head written), which AppendHead must agree with.
func oldAppendHead(dst []byte, status int, header http.Header) ([]byte, bool) {
	for name, values := range header {
		if strings.ContainsAny(name, "\n\r\x00") {
			return dst, false
		}
		for _, v := range values {
			if strings.ContainsAny(v, "\n\r\x00") {
				return dst, false
			}
		}
	}
	out := strconv.AppendInt(dst, int64(status), 10)
	out = append(out, '\n')
	out = append(out, http.StatusText(status)...)
	for name, values := range header {
		for _, v := range values {
			out = append(out, '\n')
			out = append(out, name...)
			out = append(out, '\n')
			out = append(out, v...)
		}
	}
	return out, true
}

// TestAppendHeadIsOld: for heads of one header (the map's order is not fixed beyond that),
// each name and value made of the bytes that matter (the three refused, others around them),
// AppendHead gives oldAppendHead's bytes and verdict.
func TestAppendHeadIsOld(t *testing.T) {
	texts := []string{"", "a", "\n", "\r", "\x00", "a\nb", "ab\r", "\x00b", "é", "a b", "x\x7f"}
	for _, status := range []int{200, 304, 404, 500, 299} {
		for _, name := range texts {
			for _, v1 := range texts {
				for _, v2 := range append(texts, "-") {
					values := []string{v1}
					if v2 != "-" {
						values = append(values, v2)
					}
					h := http.Header{name: values}
					got, gotOK := AppendHead([]byte("pre"), status, h)
					want, wantOK := oldAppendHead([]byte("pre"), status, h)
					if gotOK != wantOK || string(got) != string(want) {
						t.Fatalf("%d %q: %q %v, want %q %v", status, h, got, gotOK, want, wantOK)
					}
				}
			}
		}
	}
}
