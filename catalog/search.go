package catalog

import (
	"cmp"
	"slices"
	"strings"
)

// Search ranks catalog entries for a type-ahead picker: exact name, then names that start with
// the query (with or without the provider), then names where it starts a word, then any
// substring, then names holding every word of the query; more downloaded models first within a
// rank. An empty query lists the most downloaded models. limit is clamped to 1..100 (every
// caller has checked it against target.MaxListLimit; catalog imports no other package of ours).
func Search(query string, limit int) []Model {
	if limit < 1 {
		limit = 1
	}
	if limit > 100 {
		limit = 100
	}
	q := strings.ToLower(strings.TrimSpace(query))
	words := strings.Fields(q)
	type hit struct {
		i    int
		rank int
	}
	all := Models()
	hits := make([]hit, 0, 64)
	for i, name := range lowerNames() {
		if r := rank(name, q, words); r >= 0 {
			hits = append(hits, hit{i, r})
		}
	}
	slices.SortFunc(hits, func(ha, hb hit) int {
		if ha.rank != hb.rank {
			return cmp.Compare(ha.rank, hb.rank)
		}
		if d := cmp.Compare(all[hb.i].Downloads, all[ha.i].Downloads); d != 0 {
			return d
		}
		return strings.Compare(all[ha.i].Name, all[hb.i].Name)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Model, len(hits))
	for k, h := range hits {
		out[k] = all[h.i]
	}
	return out
}

// rank is lower for better matches and -1 for no match.
func rank(name, q string, words []string) int {
	if q == "" {
		return 0
	}
	short := name
	if slash := strings.LastIndexByte(name, '/'); slash >= 0 {
		short = name[slash+1:]
	}
	switch {
	case name == q || short == q:
		return 0
	case strings.HasPrefix(short, q) || strings.HasPrefix(name, q):
		return 1
	}
	if at := strings.Index(name, q); at >= 0 {
		if isWordStart(name, at) {
			return 2
		}
		return 3
	}
	if len(words) > 1 {
		for _, w := range words {
			if !strings.Contains(name, w) {
				return -1
			}
		}
		return 4
	}
	return -1
}

func isWordStart(s string, at int) bool {
	if at == 0 {
		return true
	}
	c := s[at-1]
	return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
}
