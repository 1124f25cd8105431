package claim

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:generate go test -run ^TestSharedStemsCurrent$ . -args -update

const (
	stemMax      = 48
	nameSuffix   = "-fit"
	fallbackStem = "model"
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
// catalog are counted cheaply (sharedStemsSource). Leading
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

// sharedCount is how many catalog entries derive the claim name name when more than one does,
// else 0. The stems shared by several entries are counted when the catalog is generated
// (sharedStems, stems_gen.go: `go generate ./claim`, checked by TestSharedStemsCurrent), not
// at run time: counting every stem of the catalog was a map of 1,852 stems built on the first
// render, one-time work on the page's path to its first claim (about 2 ms natively, tens of
// milliseconds in the browser's first, baseline-compiled wasm; issue 10 §2), and a scan of the
// names per render before that was most of a render's time.
func sharedCount(name string) int {
	stem, ok := strings.CutSuffix(name, nameSuffix)
	if !ok {
		return 0
	}
	if i, found := slices.BinarySearchFunc(sharedStems[:], stem, func(s stemCount, stem string) int { return strings.Compare(s.stem, stem) }); found {
		return sharedStems[i].n
	}
	return 0
}

// stemCount is a claim-name stem and how many catalog entries derive it.
type stemCount struct {
	stem string
	n    int
}
