package catalog

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// levenshtein is the plain edit distance, every cell of the table computed.
func levenshtein(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// closestByFullTables is closest as it was before the bag bound and the band: every name within
// the length limit pays the whole table. The new closest must list the same names in the same
// order.
func closestByFullTables(lower string, n int) []string {
	if len(lower) > maxSuggestQuery {
		return nil
	}
	type scored struct {
		name string
		d    int
	}
	limit := len(lower)/2 + 2
	var best []scored
	for i, full := range lowerNames() {
		d := limit + 1
		if abs(len(full)-len(lower)) <= limit {
			d = levenshtein(lower, full)
		}
		if slash := strings.LastIndexByte(full, '/'); slash >= 0 && abs(len(full)-slash-1-len(lower)) <= limit {
			d = min(d, levenshtein(lower, full[slash+1:]))
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
		best = slices.Insert(best, pos, scored{Names()[i], d})
		if len(best) > n {
			best = best[:n]
		}
	}
	var out []string
	for _, s := range best {
		out = append(out, s.name)
	}
	return out
}

// randomWord is up to maxLen-1 bytes drawn from alphabet (its bytes, so "é" is two of them).
func randomWord(r *rand.Rand, alphabet string, maxLen int) string {
	b := make([]byte, r.IntN(maxLen))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// Short words over a small alphabet (many matches), and long ones across the two words of a
// myers (64 and 128 bytes), against the full table.
func TestMyersIsTheDistanceOrAboveBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		alphabet      string
		maxLen, bound int
		pairs         int
	}{{"ab-/1q", 12, 8, 200000}, {"abc", 70, 40, 20000}, {"ab-/1qé", maxMyers + 1, 80, 20000}, {"abcdefghijklmnopqrstuvwxyz0123456789-./", maxMyers + 1, 140, 20000}} {
		for range c.pairs {
			a, b, bound := randomWord(r, c.alphabet, c.maxLen), randomWord(r, c.alphabet, c.maxLen), r.IntN(c.bound)
			if r.IntN(2) == 0 { // a near word, as closest mostly meets
				b = a[:r.IntN(len(a)+1)] + randomWord(r, c.alphabet, 4) + a[r.IntN(len(a)+1):]
			}
			want := levenshtein(a, b)
			got := newMyers(a).distance(b, bound)
			if (want <= bound && got != want) || (want > bound && got != bound+1) {
				t.Fatalf("myers(%q).distance(%q, bound %d) = %d, the distance is %d", a, b, bound, got, want)
			}
		}
	}
}

// The suggestions for misspelt catalog names, their repository parts, other strings and the
// longest queries are the names the full tables gave, in the same order.
func TestClosestListsWhatFullTablesListed(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	edit := func(s string) string {
		b := []byte(s)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(b) + 1)
			switch r.IntN(3) {
			case 0: // insert
				b = slices.Insert(b, i, "abcdefghijklmnopqrstuvwxyz0123456789-./"[r.IntN(39)])
			case 1: // delete
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			default: // substitute
				if i < len(b) {
					b[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(36)]
				}
			}
		}
		return string(b)
	}
	queries := []string{"x", "qwen", "lama", "llama-3-8b", strings.Repeat("qwenllamaz", 10),
		strings.Repeat("z", maxSuggestQuery), "ünïcødé-modél", "nousresearch/lama-2-7b-chat-hf"}
	lower := lowerNames()
	for i := 0; i < len(lower); i += 23 {
		queries = append(queries, edit(lower[i]))
		if slash := strings.LastIndexByte(lower[i], '/'); slash >= 0 {
			queries = append(queries, edit(lower[i][slash+1:]))
		}
	}
	// Two names run together, cut at 30, 60 and 100 bytes: bounds of 17 to 52 that few names
	// come within (the hostile mix of edge/bench/wasmapi).
	for i := 0; i+1 < len(lower); i += 199 {
		two := edit(lower[i]) + "-" + lower[i+1]
		for _, n := range []int{30, 60, 100} {
			queries = append(queries, (two + strings.Repeat("-x", 50))[:n])
		}
	}
	for range 100 {
		queries = append(queries, "q"+randomWord(r, "abcdefghijklmnopqrstuvwxyz0123456789-./", 40))
	}
	for _, q := range queries {
		for _, n := range []int{3} {
			if got, want := closest(q, n), closestByFullTables(q, n); !slices.Equal(got, want) {
				t.Errorf("closest(%q, %d) = %q, the full tables gave %q", q, n, got, want)
			}
		}
	}
	t.Logf("%d queries", len(queries))
}
