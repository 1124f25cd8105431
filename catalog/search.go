package catalog

import (
	"math/bits"
	"strings"
	"sync"
)

// MaxSearchResults is the most models one Search returns. It is the list limit every surface
// checks before it searches (target.MaxListLimit, the same number: a test in target holds them
// together, as catalog imports no other package of ours); the clamp keeps a caller that did not
// check from asking for a huge result.
const MaxSearchResults = 100

// Search ranks catalog entries for a type-ahead picker: exact name, then names that start with
// the query (with or without the provider), then names where it starts a word, then any
// substring, then names holding every word of the query; more downloaded models first within a
// rank. An empty query lists the most downloaded models. limit is clamped to 1..MaxSearchResults.
func Search(query string, limit int) []Model {
	all := Models()
	found := SearchIndexes(query, limit)
	out := make([]Model, len(found))
	for k, i := range found {
		out[k] = all[i]
	}
	return out
}

// SearchIndexes is Search's result as indexes into Models(), for a caller that reads a few
// fields of each: the API's models route copied every whole entry (some 350 bytes each) to
// print five of its fields.
func SearchIndexes(query string, limit int) []int {
	limit = min(max(limit, 1), MaxSearchResults)
	q := strings.ToLower(strings.TrimSpace(query))
	words := strings.Fields(q)
	names := lowerNames()
	ix := searchIndexOnce()
	// A name that ranks holds every word of the query (all of q, or each word), so it holds
	// every byte and byte pair of the words: only names whose signature holds those bits are
	// ranked (cand: the AND of those bits' bitmaps, in ix.order's positions), and only names
	// that also hold q's bits (candQ) can rank 0-3. In the edge worker's wasm, where
	// strings.Index has no vector code, ranking every name was most of a search, and looking
	// at each name's signature in turn most of what was left.
	var need, needQ signature
	for _, w := range words {
		need.add(w)
	}
	needQ.add(q) // ranks 0-3 need all of q in the name (its spaces too), rank 4 only its words
	cand, candQ := ix.holding(&need), ix.holding(&needQ)
	// Walking the candidates in the within-rank order (byDownloadsThenName) and keeping each
	// rank's hits apart orders the result without sorting the hits. Once the hits of ranks up
	// to r number limit, a later hit of rank r or worse cannot be among the first limit (limit
	// hits precede it): bound, the worst rank still worth finding, is then r-1. With bound < 4
	// only names that may hold q can rank (candQ); with bound < 2 the substring searches of
	// ranks 2-4, the costly part in wasm, are skipped; with bound 0 only a name equal to q (or
	// whose part after the last '/' is) can rank, and those are looked up (ix.exact) instead
	// of walked to.
	var buckets [maxRank + 1][]int
	bound := maxRank
walk:
	for k := range cand {
		for w := cand[k]; w != 0; w &= w - 1 {
			p := k*64 + bits.TrailingZeros64(w)
			if bound < maxRank && candQ[k]&(1<<(p&63)) == 0 {
				continue
			}
			if bound == 0 {
				for _, e := range ix.exact[q] {
					if int(e) >= p && len(buckets[0]) < limit {
						buckets[0] = append(buckets[0], ix.order[e])
					}
				}
				break walk
			}
			i := ix.order[p]
			r := rankAtMost(names[i], q, words, bound, candQ[k]&(1<<(p&63)) != 0)
			if r < 0 {
				continue
			}
			if buckets[r] == nil {
				buckets[r] = make([]int, 0, limit)
			}
			buckets[r] = append(buckets[r], i)
			for n, b := 0, 0; b <= bound; b++ {
				if n += len(buckets[b]); n >= limit {
					bound = b - 1
					break
				}
			}
			if bound < 0 {
				break walk // nothing ranks better (an empty query ranks every model 0)
			}
		}
	}
	out := make([]int, 0, limit)
	for _, b := range buckets {
		for _, i := range b {
			if len(out) == limit {
				return out
			}
			out = append(out, i)
		}
	}
	return out
}

// searchIndex is what Search looks names up by, made once: the catalog's indexes in the
// within-rank order (byDownloadsThenName), a bitmap per signature bit of the positions in that
// order whose name's signature holds the bit, and the positions of each lower-case name and
// of its part after the last '/' (ascending).
type searchIndex struct {
	order []int
	bits  [256][]uint64
	exact map[string][]int32
}

var searchIndexOnce = sync.OnceValue(func() *searchIndex {
	ix := &searchIndex{order: byDownloadsThenName(), exact: map[string][]int32{}}
	names, sigs := lowerNames(), signatures()
	words := (len(ix.order) + 63) / 64
	for b := range ix.bits {
		ix.bits[b] = make([]uint64, words)
	}
	for p, i := range ix.order {
		for b := range ix.bits {
			if sigs[i][b>>6]&(1<<(b&63)) != 0 {
				ix.bits[b][p>>6] |= 1 << (p & 63)
			}
		}
		name := names[i]
		ix.exact[name] = append(ix.exact[name], int32(p))
		if slash := strings.LastIndexByte(name, '/'); slash >= 0 && name[slash+1:] != name {
			ix.exact[name[slash+1:]] = append(ix.exact[name[slash+1:]], int32(p))
		}
	}
	return ix
})

// holding is the bitmap of the positions whose name's signature holds every bit of q.
func (ix *searchIndex) holding(q *signature) []uint64 {
	n := len(ix.order)
	out := make([]uint64, (n+63)/64)
	for k := range out {
		out[k] = ^uint64(0)
	}
	if n%64 != 0 {
		out[len(out)-1] = 1<<(n%64) - 1
	}
	for b := range ix.bits {
		if q[b>>6]&(1<<(b&63)) != 0 {
			for k, m := range ix.bits[b] {
				out[k] &= m
			}
		}
	}
	return out
}

// maxRank is the worst rank a match has.
const maxRank = 4

// rank is lower for better matches and -1 for no match.
func rank(name, q string, words []string) int {
	return rankAtMost(name, q, words, maxRank, true)
}

// rankAtMost is rank, or -1 when that is worse than worst. mayHoldQ false says the name cannot
// contain q (its signature lacks q's bits), so only rank 4 is possible.
func rankAtMost(name, q string, words []string, worst int, mayHoldQ bool) int {
	if q == "" {
		return 0
	}
	if mayHoldQ {
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
		if worst < 2 {
			return -1
		}
		if at := strings.Index(name, q); at >= 0 {
			if isWordStart(name, at) {
				return 2
			}
			if worst < 3 {
				return -1
			}
			return 3
		}
	}
	if len(words) > 1 && worst >= 4 {
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

// A signature is a 256-bit Bloom filter of the bytes and pairs of adjacent bytes a text holds:
// a text that contains another holds all of the other's bits. A catalog name sets about a
// fifth of the bits, so a query word of a few letters rules out nearly every name that lacks it.
type signature [4]uint64

// add sets the bits of text's bytes and byte pairs.
func (s *signature) add(text string) {
	for i := 0; i < len(text); i++ {
		s.set(uint32(text[i]))
		if i+1 < len(text) {
			s.set(0x10000 | uint32(text[i])<<8 | uint32(text[i+1]))
		}
	}
}

// set sets the bit of a byte (below 0x100) or a pair (0x10000 and above), spread by a multiplicative hash.
func (s *signature) set(v uint32) {
	h := (v * 0x9e3779b1) >> 24
	s[h>>6] |= 1 << (h & 63)
}

// holds reports whether every bit of q is set in s.
func (s *signature) holds(q *signature) bool {
	return s[0]&q[0] == q[0] && s[1]&q[1] == q[1] && s[2]&q[2] == q[2] && s[3]&q[3] == q[3]
}

// signatures holds each lower-case name's signature, index for index with Models(); made once.
var signatures = sync.OnceValue(func() []signature {
	names := lowerNames()
	sigs := make([]signature, len(names))
	for i, n := range names {
		sigs[i].add(n)
	}
	return sigs
})
