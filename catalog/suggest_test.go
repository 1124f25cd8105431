package catalog

import (
	"errors"
	"slices"
	"testing"
)

// The longest catalog name with one character too many is no name and no substring of one, so
// Lookup refuses it, and suggests that name: maxSuggestQuery leaves room for every whole name.
func TestLongestNameGetsSuggestions(t *testing.T) {
	longest := ""
	for _, n := range Names() {
		if len(n) > len(longest) {
			longest = n
		}
	}
	if len(longest) >= maxSuggestQuery {
		t.Fatalf("%q is %d characters: maxSuggestQuery %d leaves no room for a typo", longest, len(longest), maxSuggestQuery)
	}
	_, err := Lookup(longest + "x")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !slices.Contains(nf.Suggestions, longest) {
		t.Fatalf("Lookup(%q) = %v; want a *NotFoundError suggesting %q", longest+"x", err, longest)
	}
}
