package api

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// models answers /models?q=&limit= with claim.SearchModels as a JSON array.
func models(raw string) (string, string, error) {
	q, err := values(raw, "q", "limit")
	if err != nil {
		return "", "", err
	}
	limit := target.DefaultListLimit
	if v, ok := q["limit"]; ok {
		if limit, err = claim.ParseModelsLimit(v[0]); err != nil {
			return "", "", err
		}
	}
	query := q.Get("q")
	if msg := claim.ModelsQueryError(query); msg != "" { // characters, as the model's own limit counts them
		return "", "", &paramError{"q", msg}
	}
	found := claim.SearchModels(query, limit)
	if text, ok := modelsJSON(found); ok {
		return text, TypeJSON, nil
	}
	return marshal(found)
}

// version answers /version: fitclaim's version (the catalog date is its build metadata), the
// permalink format it writes and the API's version. It does not touch the catalog's entries,
// so it stays cheap enough for a health check even as the first request of a fresh worker
// instance (the catalog is parsed once per instance, by the first request that needs it).
func version(raw string) (string, string, error) {
	if _, err := values(raw); err != nil {
		return "", "", err
	}
	text, err := versionJSON()
	return text, TypeJSON, err
}

// versionJSON is the version's answer, the same for every request: marshalled once.
var versionJSON = sync.OnceValues(func() (string, error) {
	text, _, err := marshal(claim.AboutThis())
	return text, err
})

func marshal(v any) (string, string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", "", err
	}
	return string(append(b, '\n')), TypeJSON, nil
}

// paramError is a bad parameter of a route that takes no target (models, version); it reads
// like the engine's field errors ("field: message").
type paramError struct{ key, msg string }

func (e *paramError) Error() string { return e.key + ": " + e.msg }

// values splits a raw query the way the permalink codec does ('&'-separated, each side
// percent-decoded, '+' is a space) and accepts only the given keys, each at most once.
func values(raw string, keys ...string) (url.Values, error) {
	v := url.Values{}
	bad, found := "", false
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(val)
		if err1 != nil || err2 != nil {
			about := "query" // the route's key the pair spells, when it decodes, as the permalink codec says it
			if err1 == nil && slices.Contains(keys, key) {
				about = key
			}
			return nil, &paramError{about, "invalid percent-encoding in " + strconv.Quote(clip(pair))}
		}
		if !slices.Contains(keys, key) {
			// An unknown key is only named, the least of them: not kept (a 16 KiB query
			// holds 1,800, a map of them 420 KB).
			if !found || key < bad {
				bad, found = key, true
			}
			continue
		}
		v[key] = append(v[key], value)
	}
	// The error is the first bad key's in byte order (unknown, or given more than once): the
	// least of them, not a sort of every key.
	for k, vals := range v {
		if len(vals) > 1 && (!found || k < bad) {
			bad, found = k, true
		}
	}
	switch {
	case !found:
		return v, nil
	case !slices.Contains(keys, bad):
		return nil, &paramError{"query", "unknown key " + strconv.Quote(clip(bad)) + target.MeantKey(bad, keys, nil) + "; this route takes " + takes(keys)}
	default:
		return nil, &paramError{bad, "given " + strconv.Itoa(len(v[bad])) + " times; give it once"}
	}
}

func takes(keys []string) string {
	if len(keys) == 0 {
		return "no keys"
	}
	return strings.Join(keys, ", ")
}

// clip shortens user text quoted back in a message, at a character boundary.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
