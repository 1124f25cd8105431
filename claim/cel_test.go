package claim

import (
	"strings"
	"testing"
)

// celEscape is the Replacer it replaced, byte for byte.
func TestCelEscapeIsTheReplacer(t *testing.T) {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	for _, s := range []string{"", "H100", `a'b`, `a\b`, `'\'`, `\\''`, "émoji ☃ '", "\xff'\\"} {
		if got, want := celEscape(s), r.Replace(s); got != want {
			t.Errorf("celEscape(%q) = %q, want %q", s, got, want)
		}
	}
}
