package target

import (
	"cmp"
	"strconv"
	"strings"
	"sync"

	"github.com/fitclaim/fitclaim/internal/smallsort"
)

// FormatVersion is the permalink format this fitclaim writes; it reads every version up to it.
const FormatVersion = 1

// FormatKey carries the format version in links that need it.
const FormatKey = "v"

// maxValueLen bounds every value: the longest catalog name is 83 characters and a claim name
// at most 253, so anything past this is a mistake or an attack. No field takes more
// characters (TestNoFieldTakesMoreThanMaxValueLen).
const maxValueLen = 512

// maxValueBytes is the most bytes a value of maxValueLen characters takes in UTF-8; a longer
// value is refused before it is read. The cut was maxValueLen bytes, which refused a name of
// 200 Chinese characters (600 bytes) as "at most 512 characters (got 600)", a name the page
// took (its limit, 300, counts characters), and named 512 for a model whose limit is 300.
const maxValueBytes = 4 * maxValueLen

// ParseQuery reads a target from query-string or permalink pairs; absent keys keep llmfit's
// defaults. It stops at the first error; ParseQueryPartial collects them all.
func ParseQuery(v Values) (Target, error) { return firstError(parseQuery(v, false, nil)) }

// firstError is a partial parse's target and its first error.
func firstError(t Target, errs []error) (Target, error) {
	if len(errs) > 0 {
		return t, errs[0]
	}
	return t, nil
}

// ParseQueryPartial reads every valid pair and returns the errors of the others, so a broken
// link still fills what it can.
//
// The query's keys are looked up in the field table, not the table's forty keys in the query:
// a query holds a few pairs, and the forty map reads (a string hash each, in wasm a loop over
// the bytes) were about half of this function's time on every request of the edge worker. The
// fields found are read in the table's order, as the walk of the table read them, so the
// target and the errors are the same (TestParseQueryPartialIsTableWalk).
func ParseQueryPartial(v Values) (Target, []error) { return parseQuery(v, true, nil) }

// parseQuery is ParseQueryPartial; with all false, the errors past the first may be left out
// (ParseQuery and ParsePermalink read only the first): the unknown keys then give only the
// first one's message, not one each in sorted order (a 16 KiB query of 1,800 distinct unknown
// keys sorted them and spelled 1,800 messages to answer one). more, when not nil, is the least
// of the unknown keys readPairs left out of v.
func parseQuery(v Values, all bool, more *leastKey) (Target, []error) {
	t := Default()
	var errs []error
	if vals, ok := v[FormatKey]; ok {
		if err := checkFormat(vals); err != nil {
			errs = append(errs, err)
		}
	}
	var found [8]int
	given := found[:0] // the indexes in Fields of the fields whose key the query holds
	var unknown []string
	byKey := fieldIndexesByKey()
	for k := range v {
		if is, ok := byKey[k]; ok {
			given = append(given, is...)
		} else if k != FormatKey {
			unknown = append(unknown, k)
		}
	}
	smallsort.Func(given, cmp.Compare[int])
	for _, i := range given {
		f := &Fields[i]
		vals := v[f.Key]
		switch {
		case len(vals) != 1:
			errs = append(errs, f.Err("given "+strconv.Itoa(len(vals))+" times; give it once"))
		case len(vals[0]) > maxValueBytes:
			errs = append(errs, f.TooLong(vals[0]))
		default:
			if err := f.Set(&t, vals[0]); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if more != nil && more.found {
		unknown = append(unknown, more.key)
	}
	if !all && len(unknown) > 0 {
		if len(errs) > 0 {
			return t, errs
		}
		first := unknown[0]
		for _, k := range unknown[1:] {
			first = min(first, k)
		}
		unknown = unknown[:1]
		unknown[0] = first
	}
	smallsort.Strings(unknown)
	for _, k := range unknown {
		errs = append(errs, unknownKeyError(k))
	}
	return t, errs
}

// unknownKeyError is the error about a key no field has; a key that is a field's in another
// case (TPS) or the field's JSON name or flag (minTps, min-tps) says which key is meant.
func unknownKeyError(k string) *FieldError {
	msg := "unknown key " + QuoteShort(k)
	if f, ok := NearKey(k); ok {
		msg += " (did you mean " + f.Key + "?)"
	}
	return &FieldError{Field: "query", Msg: msg + "; known keys: " + knownKeys()}
}

// MeantKey is what an unknown key's message adds for a route with keys of its own (the models
// route's q and limit, the fitting route's limit): " (did you mean KEY?)" when k is one of keys
// in another case (LIMIT), or, when fields holds the keys that are a field's (the fitting
// route's device keys and n), a field's JSON name or flag whose key is one of them (count is n),
// as a link's unknown key says; "" otherwise. (The models route's q is no field's: quant is not it.)
func MeantKey(k string, keys, fields []string) string {
	for _, key := range keys {
		if strings.EqualFold(k, key) {
			return " (did you mean " + key + "?)"
		}
	}
	if f, ok := NearKey(k); ok {
		for _, key := range fields {
			if f.Key == key {
				return " (did you mean " + key + "?)"
			}
		}
	}
	return ""
}

// NearKey is the field a key that is not one means, when it is a field's key, JSON name or
// flag in any case ("TPS", "minTps", "min-tps", "--min-tps" are tps): what an unknown key's
// or an unknown flag's message suggests.
func NearKey(k string) (*Field, bool) {
	f, ok := nearKeys()[strings.ToLower(strings.TrimPrefix(k, "--"))]
	return f, ok
}

// nearKeys maps every field's key, name and flag, in lower case, to the field (made once; the
// first field of a spelling keeps it).
var nearKeys = sync.OnceValue(func() map[string]*Field {
	m := map[string]*Field{}
	for i := range Fields {
		f := &Fields[i]
		for _, s := range []string{f.Key, f.Name, f.Flag} {
			if s = strings.ToLower(s); s != "" && m[s] == nil {
				m[s] = f
			}
		}
	}
	return m
})

// fieldIndexesByKey maps each key of the field table to the indexes in Fields of every field
// that has it (made once).
var fieldIndexesByKey = sync.OnceValue(func() map[string][]int {
	m := make(map[string][]int, len(Fields))
	for i := range Fields {
		m[Fields[i].Key] = append(m[Fields[i].Key], i)
	}
	return m
})

func checkFormat(vals []string) error {
	formatErr := func(msg string) error { return &FieldError{Field: FormatKey, Key: FormatKey, Msg: msg} }
	if len(vals) != 1 {
		return formatErr("given " + strconv.Itoa(len(vals)) + " times; give it once")
	}
	n, ok := ParseWhole(vals[0]) // as every whole number of a link: v=1.0 is 1
	if !ok || n < 1 {
		return formatErr("the link format version must be a whole number of at least 1 (got " + QuoteShort(vals[0]) + ")")
	}
	if n > FormatVersion {
		return formatErr("this link was made by a newer fitclaim (format " + strconv.Itoa(n) + "); this one reads formats up to " + strconv.Itoa(FormatVersion))
	}
	return nil
}

// knownKeys is the format key and the table's keys, for the unknown-key message (made once: a
// query of many unknown keys joined them again for each).
var knownKeys = sync.OnceValue(func() string {
	keys := []string{FormatKey}
	for i := range Fields {
		keys = append(keys, Fields[i].Key)
	}
	return strings.Join(keys, ", ")
})

// Query spells a target as pairs, leaving out every value that equals the default.
func Query(t Target) Values {
	v := Values{}
	for _, p := range pairs(&t) {
		v[p[0]] = []string{p[1]}
	}
	return v
}

// Permalink is the URL fragment (without '#') for a target, which is also the API's query
// string: only non-default pairs, in the table's order, so equal targets give equal links.
func Permalink(t Target) string { return string(AppendPermalink(nil, &t)) }

// AppendPermalink appends Permalink(*t) to dst: the page's every render writes its target's
// link, and building it as pairs, parts and a join was some 0.9 of the ~9 KB a render allocated
// (issue 10 §3: the fewer bytes a render allocates, the fewer of Go's collections fall in a
// fresh page's first edits).
func AppendPermalink(dst []byte, t *Target) []byte {
	def := Default()
	n := 0
	for i := range Fields {
		f := &Fields[i]
		if f.Same(t, &def) {
			continue
		}
		if n++; n > 1 {
			dst = append(dst, '&')
		}
		dst = append(dst, f.Key...)
		dst = append(dst, '=')
		dst = appendQueryEscape(dst, f.Get(t))
	}
	return dst
}

// pairs are the target's non-default (key, value) pairs in the table's order.
func pairs(t *Target) [][2]string {
	def := Default()
	var out [][2]string
	for i := range Fields {
		f := &Fields[i]
		if !f.Same(t, &def) {
			out = append(out, [2]string{f.Key, f.Get(t)})
		}
	}
	return out
}

// ParsePermalink reads a fragment (with or without its '#') or a raw API query string.
func ParsePermalink(fragment string) (Target, error) {
	var more leastKey
	v, bad := readPairs(fragment, nil, &more)
	t, errs := parseQuery(v, false, &more)
	if len(bad) > 0 {
		return t, badEscape(bad[0])
	}
	return firstError(t, errs)
}

// ParsePermalinkPartial reads what it can of a fragment: the target from the valid pairs, and an
// error for each pair it could not read.
func ParsePermalinkPartial(fragment string) (Target, []error) {
	v, bad := readPairs(fragment, nil, nil)
	var errs []error
	for _, pair := range bad {
		errs = append(errs, badEscape(pair))
	}
	t, more := ParseQueryPartial(v)
	return t, append(errs, more...)
}

// splitPairs reads a fragment's key=value pairs (percent-decoded, '+' a space); shown holds each
// key's pairs as the user reads them (decoded; the key alone when it had no '='), bad the pairs
// that do not decode.
func splitPairs(fragment string) (v Values, shown map[string][]string, bad []string) {
	shown = map[string][]string{}
	v, bad = readPairs(fragment, shown, nil)
	return v, shown, bad
}

// readPairs is splitPairs, filling shown only when it is not nil: ParsePermalinkPartial, which
// every claim request of the API goes through, does not read it, and spelling each pair again
// was a third of the parse's allocations.
//
// With more not nil, once v holds more keys than the table has, a new key that is not the
// table's (nor the format key) is left out of v and only the least of them kept in more: a
// 16 KiB query of 1,800 distinct unknown keys built a map of them all (600 KB) to name one.
func readPairs(fragment string, shown map[string][]string, more *leastKey) (v Values, bad []string) {
	fragment = strings.TrimPrefix(fragment, "#")
	// Room for every pair, but no more keys than the table has (and the version): 16 KiB of
	// '&' (the API's longest query) sized the map for 16,385 keys, 1.8 MB allocated to refuse it.
	// The map and the array grow past the hint as they need.
	pairs := min(strings.Count(fragment, "&")+1, len(Fields)+1)
	v = make(Values, pairs)
	// One array for every key's first value, each key's values a slice of it with no spare
	// capacity (a repeated key's append copies): a slice per key was the query's most frequent
	// allocation in the edge worker. A first value past the array's capacity moves it; the keys
	// before keep theirs in the old one.
	firsts := make([]string, 0, pairs)
	for pair := range strings.SplitSeq(fragment, "&") {
		if pair == "" {
			continue
		}
		k, val, hasValue := strings.Cut(pair, "=")
		key, err1 := queryUnescape(k)
		value, err2 := queryUnescape(val)
		if err1 != nil || err2 != nil {
			bad = append(bad, pair)
			continue
		}
		if vs, ok := v[key]; ok {
			v[key] = append(vs, value)
		} else if more != nil && len(v) > len(Fields) && !isKey(key) {
			more.add(key)
			continue
		} else {
			firsts = append(firsts, value)
			v[key] = firsts[len(firsts)-1 : len(firsts) : len(firsts)]
		}
		if shown == nil {
			continue
		}
		spelled := key
		if hasValue {
			spelled += "=" + value
		}
		shown[key] = append(shown[key], spelled)
	}
	return v, bad
}

// leastKey is the least of the keys added to it.
type leastKey struct {
	key   string
	found bool
}

func (l *leastKey) add(k string) {
	if !l.found || k < l.key {
		l.key, l.found = k, true
	}
}

// isKey reports whether k is the format key or a key of the field table.
func isKey(k string) bool {
	_, ok := fieldIndexesByKey()[k]
	return ok || k == FormatKey
}

// BadEscapeError is the error about a pair whose percent-encoding does not decode.
func BadEscapeError(pair string) *FieldError { return badEscape(pair) }

// badEscape is about the field whose key the pair spells, when its key decodes ("Target decode
// speed (minTps, tps): invalid percent-encoding in "tps=%zz"", so the page can point at the
// field), else about the query.
func badEscape(pair string) *FieldError {
	msg := "invalid percent-encoding in " + QuoteShort(pair)
	k, _, _ := strings.Cut(pair, "=")
	if key, err := queryUnescape(k); err == nil {
		if f, ok := ByKey(key); ok {
			return f.Err(msg)
		}
	}
	return &FieldError{Field: "query", Msg: msg}
}
