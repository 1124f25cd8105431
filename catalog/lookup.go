package catalog

import (
	"strconv"
	"strings"
)

// NotFoundError says no catalog name matches; Suggestions holds the closest names.
type NotFoundError struct {
	Query       string
	Suggestions []string
}

func (e *NotFoundError) Error() string {
	msg := "no model in the catalog matches " + strconv.Quote(e.Query)
	if len(e.Suggestions) > 0 {
		msg += "; closest: " + strings.Join(e.Suggestions, ", ")
	}
	return msg
}

// AmbiguousError says several catalog names match; Matches lists some of them, Total counts all.
type AmbiguousError struct {
	Query   string
	Matches []string
	Total   int
}

func (e *AmbiguousError) Error() string {
	msg := strconv.Quote(e.Query) + " matches " + strconv.Itoa(e.Total) + " models: " + strings.Join(e.Matches, ", ")
	if e.Total > len(e.Matches) {
		msg += ", …"
	}
	return msg + "; give the full name"
}

const maxListed = 8

// Lookup resolves a model name as llmfit does, made stricter: the exact spelling first (two
// catalog names differ only in case), then the name ignoring case, then the part after the
// publisher's slash ignoring case ("qwen3-8b" is Qwen/Qwen3-8B or unsloth/Qwen3-8B, not the 20
// other names that contain it, such as nvidia/Qwen3-8B-NVFP4), then a unique case-insensitive
// substring. Several matches are an *AmbiguousError listing them; none is a *NotFoundError
// suggesting the closest names.
//
// It reads the names only and decodes the one entry it returns (see model).
func Lookup(name string) (*Model, error) {
	query := strings.TrimSpace(name)
	if query == "" {
		return nil, &NotFoundError{Query: name}
	}
	if i, ok := exactName(query); ok {
		return model(i), nil
	}
	lower := strings.ToLower(query)
	var same, repo, contains []int
	for i, n := range lowerNames() {
		switch {
		case n == lower:
			same = append(same, i)
		case strings.HasSuffix(n, lower) && n[len(n)-len(lower)-1] == '/':
			repo = append(repo, i)
		case strings.Contains(n, lower):
			contains = append(contains, i)
		}
	}
	for _, set := range [][]int{same, repo, contains} {
		switch {
		case len(set) == 1:
			return model(set[0]), nil
		case len(set) > 1:
			return nil, ambiguous(query, set)
		}
	}
	return nil, &NotFoundError{Query: query, Suggestions: closest(lower, 3)}
}

func ambiguous(query string, idx []int) *AmbiguousError {
	names := Names()
	e := &AmbiguousError{Query: query, Total: len(idx)}
	for _, i := range idx {
		if len(e.Matches) == maxListed {
			break
		}
		e.Matches = append(e.Matches, names[i])
	}
	return e
}

// maxSuggestQuery is the longest query that closest ranks names for: longer than every catalog
// name (83 characters; TestLongestNameGetsSuggestions), so a whole name with a typo still finds
// it, while a pasted paragraph costs no edit distances at all.
const maxSuggestQuery = 100

// closest ranks catalog names by edit distance to the query, comparing against both the full
// name and the part after the provider's slash, so "lama-2-7b-chat" finds "meta-llama/Llama-2-7b-chat-hf".
// Names whose length alone puts them too far away are skipped before any distance is computed.
func closest(lower string, n int) []string {
	if len(lower) > maxSuggestQuery {
		return nil
	}
	type scored struct {
		name string
		d    int
	}
	names := Names()
	limit := len(lower)/2 + 2 // farther is not a useful suggestion
	var rows [2][]int
	best := make([]scored, 0, n+1)
	for i, full := range lowerNames() {
		d := limit + 1
		if abs(len(full)-len(lower)) <= limit {
			d = boundedLevenshtein(lower, full, &rows, limit)
		}
		if slash := strings.LastIndexByte(full, '/'); slash >= 0 && abs(len(full)-slash-1-len(lower)) <= limit {
			if d2 := boundedLevenshtein(lower, full[slash+1:], &rows, limit); d2 < d {
				d = d2
			}
		}
		if d > limit {
			continue
		}
		pos := len(best)
		for pos > 0 && best[pos-1].d > d {
			pos--
		}
		if pos >= n {
			continue
		}
		best = append(best, scored{})
		copy(best[pos+1:], best[pos:])
		best[pos] = scored{names[i], d}
		if len(best) > n {
			best = best[:n]
		}
	}
	out := make([]string, len(best))
	for i, s := range best {
		out[i] = s.name
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// boundedLevenshtein is the edit distance of a and b; rows are reused buffers. It stops early,
// with a value above bound, once every entry of a row exceeds bound: the distance can only grow.
func boundedLevenshtein(a, b string, rows *[2][]int, bound int) int {
	if cap(rows[0]) < len(b)+1 {
		rows[0], rows[1] = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > bound {
			return bound + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
