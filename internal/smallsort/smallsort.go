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

// Strings sorts s in increasing byte order, as slices.Sort does. A long list (a query's unknown
// keys: a 16 KiB query holds 1,800, which insertion took 1.6 million comparisons and ~13 ms to
// sort natively) is sorted by halves and merged, O(n log n), in a few lines more.
func Strings(s []string) {
	if len(s) <= 32 {
		Func(s, strings.Compare)
		return
	}
	mergeStrings(s, make([]string, len(s)))
}

// mergeStrings sorts s, a long list, by its sorted halves merged through buf (as long as s).
func mergeStrings(s, buf []string) {
	if len(s) <= 32 {
		Func(s, strings.Compare)
		return
	}
	mid := len(s) / 2
	mergeStrings(s[:mid], buf[:mid])
	mergeStrings(s[mid:], buf[mid:])
	i, j, k := 0, mid, 0
	for ; i < mid && j < len(s); k++ {
		if s[j] < s[i] { // equal strings: the left first, as insertion keeps them
			buf[k], j = s[j], j+1
		} else {
			buf[k], i = s[i], i+1
		}
	}
	k += copy(buf[k:], s[i:mid])
	copy(buf[k:], s[j:])
	copy(s, buf[:len(s)])
}
