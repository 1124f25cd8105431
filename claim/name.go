package claim

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

const (
	stemMax      = 48
	nameSuffix   = "-fit"
	fallbackStem = "model"
	maxSubdomain = 253
	maxLabel     = 63
)

// DeriveName is llmfit's claim name: lower-case, every character that is not an ASCII letter or
// digit becomes '-', runs of '-' collapse, '-' is trimmed, the first 48 characters are kept,
// trimmed again, and "-fit" appended. Where llmfit would produce "-fit" (a name with no letter or
// digit), fitclaim uses "model-fit", so the result is always a valid DNS-1123 label.
func DeriveName(model string) string {
	var buf [stemMax]byte
	return string(deriveStem(model, &buf)) + nameSuffix
}

// deriveStem writes DeriveName's stem into buf without allocating, so the stems of the whole
// catalog are counted cheaply (countStems, once per process). Leading
// dashes are never written and it stops at 48 characters, which gives the same stem as llmfit's
// trim, cut, trim.
func deriveStem(model string, buf *[stemMax]byte) []byte {
	n, dash := 0, false
	for _, r := range model {
		r = unicode.ToLower(r) // what strings.ToLower does to each rune
		alnum := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		if !alnum && (dash || n == 0) {
			continue
		}
		if n == stemMax {
			break
		}
		if alnum {
			buf[n] = byte(r)
		} else {
			buf[n] = '-'
		}
		n++
		dash = !alnum
	}
	for n > 0 && buf[n-1] == '-' {
		n--
	}
	if n == 0 {
		return append(buf[:0], fallbackStem...)
	}
	return buf[:n]
}

// sharedCount is how many catalog entries derive the claim name name. Every stem of the
// catalog is counted once per process (countStems), on first use: scanning the catalog's names
// for each render was most of a render's time (80 % of BenchmarkRender), paid on every request
// of the edge worker and on every keystroke of the page. (A per-name scan was cheaper while the
// edge worker started a new Go instance for every request; it keeps one now.)
func sharedCount(name string) int {
	stem, ok := strings.CutSuffix(name, nameSuffix)
	if !ok {
		return 0
	}
	stemCountsOnce.Do(countStems)
	return stemCounts[stem]
}

var (
	stemCountsOnce sync.Once
	stemCounts     map[string]int // derived stem → catalog entries that derive it
)

func countStems() {
	names := catalog.Names() // the names alone: the first claim need not decode the catalog
	stemCounts = make(map[string]int, len(names))
	var buf [stemMax]byte
	for _, n := range names {
		stemCounts[string(deriveStem(n, &buf))]++
	}
}

// checkSubdomain validates a DNS-1123 subdomain (≤ 253 characters of lower-case letters,
// digits, '-' and '.', each dot-separated part starting and ending with a letter or digit),
// exactly as Kubernetes' IsDNS1123Subdomain applies it to object and DeviceClass names: unlike
// RFC 1123 it sets no 63-character limit on a part, so neither does fitclaim.
func checkSubdomain(field, s string) error {
	if s == "" {
		return target.NewFieldError(field, "must not be empty")
	}
	if len(s) > maxSubdomain {
		return target.NewFieldError(field, "must be at most 253 characters (got "+strconv.Itoa(len(s))+")")
	}
	for _, part := range strings.Split(s, ".") {
		if !isLabelChars(part) {
			return target.NewFieldError(field, "must be a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', "+
				"starting and ending with a letter or digit, at most 253 characters (got "+target.QuoteShort(s)+")")
		}
	}
	return nil
}

// isLabel reports whether s is a DNS-1123 label (at most 63 characters).
func isLabel(s string) bool { return len(s) <= maxLabel && isLabelChars(s) }

// isLabelChars reports whether s is made like a DNS-1123 label, whatever its length: letters
// and digits, with '-' inside.
func isLabelChars(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}
