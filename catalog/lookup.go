package catalog

import (
	"cmp"
	"slices"
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

// maxListed is how many of an ambiguous name's matches its error offers: the top ten.
const maxListed = 10

// Lookup resolves a model name as llmfit does, made stricter: the exact spelling first (two
// catalog names differ only in case), then the name ignoring case, then the part after the
// publisher's slash ignoring case ("qwen3-8b" is Qwen/Qwen3-8B or unsloth/Qwen3-8B, not the 20
// other names that contain it, such as nvidia/Qwen3-8B-NVFP4: the most downloaded of them,
// Resolve), then a unique case-insensitive substring. Several matches are an *AmbiguousError
// listing the first ten the type-ahead lists for it; none is a *NotFoundError suggesting the closest names.
//
// It reads the names only and decodes the entries it weighs (see model).
func Lookup(name string) (*Model, error) {
	m, _, err := Resolve(name)
	return m, err
}

// Resolve is Lookup, also saying which models a name without its publisher stood for: when
// it is the whole repository name of several catalog models ("llama-3.1-8b-instruct":
// meta-llama's, unsloth's, DeSTA-ntu's), it resolves to the most downloaded of them, as the
// type-ahead lists it first (issue 12: "a name without its org resolves to the
// most-downloaded exact match and says which"), and others holds the rest, most downloaded
// first; else others is nil.
func Resolve(name string) (m *Model, others []string, err error) {
	query := strings.TrimSpace(name)
	if query == "" {
		return nil, nil, &NotFoundError{Query: name}
	}
	if id, ok := hubID(query); ok {
		return Resolve(id)
	}
	if i, ok := exactName(query); ok {
		return model(i), nil, nil
	}
	lower := strings.ToLower(query)
	if loaded != loadedFull {
		return resolveInShard(query, lower)
	}
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
	for k, set := range [][]int{same, repo, contains} {
		switch {
		case len(set) == 1:
			return model(set[0]), nil, nil
		case len(set) > 1 && k == 1: // the repository's whole name, without its publisher
			return mostPopular(set)
		case len(set) > 1:
			return nil, nil, ambiguous(query, set)
		}
	}
	return nil, nil, &NotFoundError{Query: query, Suggestions: closest(lower, 3)}
}

// mostPopular is Resolve's answer for a name that is the whole repository name of several
// entries: the most downloaded, and the others' names, most downloaded first.
func mostPopular(set []int) (m *Model, others []string, err error) {
	byPopularity(set)
	for _, i := range set[1:] {
		others = append(others, nameOf(i))
	}
	return model(set[0]), others, nil
}

// resolveInShard is Resolve in shard mode (source.go), for a query that is no exact name: the
// entries of the name in any case, else of the repository's name without its publisher, are
// all in the query's shard (ShardKey); an ambiguous name and a substring need the whole table,
// as the closest names of one that matches nothing do, so they panic with an *IncompleteError.
func resolveInShard(query, lower string) (*Model, []string, error) {
	covers(query)
	var same, repo []int
	for _, i := range shard.order {
		n := strings.ToLower(nameOf(i))
		switch {
		case n == lower:
			same = append(same, i)
		case strings.HasSuffix(n, lower) && n[len(n)-len(lower)-1] == '/':
			repo = append(repo, i)
		}
	}
	switch {
	case len(same) == 1:
		return model(same[0]), nil, nil
	case len(same) == 0 && len(repo) == 1:
		return model(repo[0]), nil, nil
	case len(same) == 0 && len(repo) > 1:
		return mostPopular(repo)
	}
	panic(&IncompleteError{What: "resolving " + strconv.Quote(query), Entry: -1})
}

// byPopularity sorts catalog indexes as Search ranks equals: most downloaded first, then by
// name. It decodes the entries it sorts (a name's whole-repository matches are a few; a
// substring's at most the catalog, on an error's path).
func byPopularity(idx []int) {
	downloads := make(map[int]int64, len(idx))
	for _, i := range idx {
		downloads[i] = model(i).Downloads
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		if d := cmp.Compare(downloads[y], downloads[x]); d != 0 {
			return d
		}
		return strings.Compare(nameOf(x), nameOf(y))
	})
}

// ambiguous lists the top ten of the names a query matches (issue 12: "an ambiguous link offers
// the top ten"): the first ten the type-ahead lists for it (Search's order: exact, prefix, word
// start, substring, each most downloaded first; every name Lookup matches is in those ranks,
// ahead of Search's all-words rank), so the page can offer the type-ahead's own ten.
func ambiguous(query string, idx []int) *AmbiguousError {
	names := Names()
	e := &AmbiguousError{Query: query, Total: len(idx)}
	in := make(map[int]bool, len(idx))
	for _, i := range idx {
		in[i] = true
	}
	for _, i := range SearchIndexes(query, MaxSearchResults) {
		if len(e.Matches) == maxListed {
			break
		}
		if in[i] {
			e.Matches = append(e.Matches, names[i])
			delete(in, i)
		}
	}
	if len(e.Matches) < min(len(idx), maxListed) { // not expected (Search ranks them all first); most downloaded then
		rest := make([]int, 0, len(in))
		for _, i := range idx {
			if in[i] {
				rest = append(rest, i)
			}
		}
		byPopularity(rest)
		for _, i := range rest[:min(len(rest), maxListed-len(e.Matches))] {
			e.Matches = append(e.Matches, names[i])
		}
	}
	return e
}

// maxSuggestQuery is the longest query that closest ranks names for: longer than every catalog
// name (83 characters; TestLongestNameGetsSuggestions), so a whole name with a typo still finds
// it, while a pasted paragraph costs no edit distances at all.
const maxSuggestQuery = 100

// closest ranks catalog names by edit distance to the query, comparing against both the full
// name and the part after the provider's slash, so "lama-2-7b-chat" finds "meta-llama/Llama-2-7b-chat-hf".
// Ties keep the catalog's order. A name is skipped before its edit distance is computed when its
// length puts it farther than the names already listed, and the distance itself is computed a
// column of bits at a time (myers): a misspelt name cost 16 ms of CPU in wasm (the edge's
// budget is 10 ms), every name paying a whole table. (A filter on the bytes' counts, which
// skipped most names' banded tables, cost more than Myers' distance it would skip: dropped.)
func closest(lower string, n int) []string {
	if len(lower) > maxSuggestQuery || n <= 0 {
		return nil
	}
	type scored struct {
		name string
		d    int
	}
	names := Names()
	limit := len(lower)/2 + 2 // farther is not a useful suggestion
	best := make([]scored, 0, n+1)
	mq := newMyers(lower)
	for i, full := range lowerNames() {
		// bound is the largest distance that can still make the list: once it holds n names,
		// a name must be strictly closer than the last of them (ties keep the earlier name).
		bound := limit
		if len(best) == n {
			bound = min(bound, best[n-1].d-1)
		}
		if bound < 0 {
			break // n names at distance 0: nothing can enter
		}
		slash := strings.LastIndexByte(full, '/')
		wholeNear := abs(len(full)-len(lower)) <= bound
		repoNear := slash >= 0 && abs(len(full)-slash-1-len(lower)) <= bound
		if !wholeNear && !repoNear {
			continue // the lengths alone are too far apart
		}
		d := bound + 1
		if wholeNear {
			d = mq.distance(full, bound)
		}
		if repoNear {
			if d2 := mq.distance(full[slash+1:], bound); d2 < d {
				d = d2
			}
		}
		if d > bound {
			continue
		}
		pos := len(best)
		for pos > 0 && best[pos-1].d > d {
			pos--
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

// maxMyers is the longest query a myers holds: two 64-bit words, above maxSuggestQuery.
const maxMyers = 128

// myers is a query (at most maxMyers bytes) prepared for Myers' bit-parallel edit distance
// (G. Myers, "A fast bit-vector algorithm for approximate string matching based on dynamic
// programming", 1999, in H. Hyyrö's formulation for the global distance, blocks of 64 rows as
// in edlib): a column of the edit-distance table is two bit vectors of its vertical
// differences (+1, -1), so a name costs a few word operations per byte whatever the bound.
// It replaced a table banded at the bound: a 60-byte misspelt name, whose bound (32) left the
// band the whole table for every name near its length, cost 3 ms natively and 7.5 ms in wasm.
type myers struct {
	peq [256][2]uint64 // peq[c] has bit i set where the query's byte i is c
	m   int            // the query's length
	nb  int            // words in use: 1, or 2 past 64 bytes
}

func newMyers(query string) *myers {
	q := &myers{m: len(query), nb: 1}
	if len(query) > 64 {
		q.nb = 2
	}
	for i := 0; i < len(query); i++ {
		q.peq[query[i]][i/64] |= 1 << (i % 64)
	}
	return q
}

// distance is the edit distance of the query and b when it is at most bound, and bound+1 when
// it is more. It stops once the last row's value, less the columns left, is past bound (a
// column lowers it by at most one).
func (q *myers) distance(b string, bound int) int {
	m := q.m
	if abs(m-len(b)) > bound {
		return bound + 1
	}
	if m == 0 || len(b) == 0 {
		return max(m, len(b)) // within bound: checked above
	}
	high := uint64(1) << ((m - 1) % 64) // the last row's bit in the last word
	score := m
	if q.nb == 1 { // the loop below with one word, carrying in row 0's +1 alone
		pv, mv := ^uint64(0), uint64(0)
		for j := 0; j < len(b); j++ {
			eq := q.peq[b[j]][0]
			xv := eq | mv
			xh := (((eq & pv) + pv) ^ pv) | eq
			ph := mv | ^(xh | pv)
			mh := pv & xh
			if ph&high != 0 {
				score++
			} else if mh&high != 0 {
				score--
			}
			ph = ph<<1 | 1
			mh <<= 1
			pv = mh | ^(xv | ph)
			mv = ph & xv
			if score-(len(b)-1-j) > bound {
				return bound + 1
			}
		}
		return min(score, bound+1)
	}
	pv := [2]uint64{^uint64(0), ^uint64(0)} // column 0: every row one more than the one above
	var mv [2]uint64
	for j := 0; j < len(b); j++ {
		eqs := &q.peq[b[j]]
		hin := 1 // row 0 of column j+1 is one more than column j's
		for k := 0; k < q.nb; k++ {
			eq, p, mm := eqs[k], pv[k], mv[k]
			xv := eq | mm
			if hin < 0 {
				eq |= 1
			}
			xh := (((eq & p) + p) ^ p) | eq
			ph := mm | ^(xh | p)
			mh := p & xh
			hb := uint64(1) << 63
			if k == q.nb-1 {
				hb = high
			}
			hout := 0
			if ph&hb != 0 {
				hout = 1
			} else if mh&hb != 0 {
				hout = -1
			}
			ph <<= 1
			mh <<= 1
			if hin < 0 {
				mh |= 1
			} else if hin > 0 {
				ph |= 1
			}
			pv[k] = mh | ^(xv | ph)
			mv[k] = ph & xv
			hin = hout
		}
		score += hin
		if score-(len(b)-1-j) > bound {
			return bound + 1
		}
	}
	return min(score, bound+1)
}

// hubID is the model a Hugging Face address names ("https://huggingface.co/Qwen/Qwen3-8B",
// "hf.co/Qwen/Qwen3-8B/tree/main"): its owner/name, which the catalog's names are. A pasted address
// was "no model in the catalog matches"; the closest names offered for the whole address were
// unrelated (HuggingFaceM4/idefics2-8b for Qwen/Qwen3-8B).
func hubID(query string) (string, bool) {
	lower := strings.ToLower(query)
	for _, p := range [...]string{"https://huggingface.co/", "http://huggingface.co/", "huggingface.co/", "https://hf.co/", "http://hf.co/", "hf.co/"} {
		if strings.HasPrefix(lower, p) {
			rest, _, _ := strings.Cut(query[len(p):], "?")
			rest, _, _ = strings.Cut(rest, "#")
			parts := strings.SplitN(rest, "/", 3)
			if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
				return "", false
			}
			return parts[0] + "/" + parts[1], true
		}
	}
	return "", false
}
