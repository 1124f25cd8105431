// Package smallsort sorts the short lists of the page's engine (a claim's JSON fields, a target's
// keys, the candidates an error names) by insertion: a few lines of code, where slices.Sort and
// slices.SortFunc bring pdqsort, 9–10 functions and 10–24 KB of wasm for each element type,
// which the page downloads and V8 compiles on its thread (issue 10 §2). The sort is stable and
// O(n²): for lists of tens, not the catalog.
package smallsort

import "strings"

// Func sorts s in place by cmp, equal elements in their order: for a strict weak order, the one
// order slices.SortStableFunc gives, and slices.SortFunc's when no two elements are equal.
func Func[E any](s []E, cmp func(a, b E) int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && cmp(s[j-1], s[j]) > 0; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

// Strings sorts s in increasing byte order, as slices.Sort does.
func Strings(s []string) { Func(s, strings.Compare) }
