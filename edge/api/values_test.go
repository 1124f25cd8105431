package api

import (
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// valuesBefore is values as it was before it looked for the least bad key instead of sorting
// every key.
func valuesBefore(raw string, keys ...string) (url.Values, error) {
	v := url.Values{}
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		key, err1 := url.QueryUnescape(k)
		value, err2 := url.QueryUnescape(val)
		if err1 != nil || err2 != nil {
			about := "query" // since 2026-12-03: the route's key the pair spells, when it decodes
			for _, want := range keys {
				if err1 == nil && key == want {
					about = key
				}
			}
			return nil, &paramError{about, "invalid percent-encoding in " + strconv.Quote(clip(pair))}
		}
		v[key] = append(v[key], value)
	}
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		known := false
		for _, want := range keys {
			known = known || k == want
		}
		if !known {
			// since the fourteenth session: the key meant, for one in another case
			return nil, &paramError{"query", "unknown key " + strconv.Quote(clip(k)) + target.MeantKey(k, keys, nil) + "; this route takes " + takes(keys)}
		}
		if n := len(v[k]); n > 1 {
			return nil, &paramError{k, "given " + strconv.Itoa(n) + " times; give it once"}
		}
	}
	return v, nil
}

func TestValuesAsBefore(t *testing.T) {
	var many strings.Builder
	for i := 500; i > 0; i-- {
		many.WriteString("k" + strconv.Itoa(i*7919%1000) + "=1&")
	}
	for _, raw := range []string{
		"", "&&", "q=a", "q=a&limit=5", "q=a&q=b", "limit=1&limit=2&q=a&q=b", "q=a&zz=1", "aa=1&q=a&q=b", "q=%zz", "limit=%", "%zz=1", "zz=%zz",
		"q=a&limit=5&limit=6&m=1", "Q=1&q=1", "q=1&limit=2&%7A=1", many.String(), "limit=1&limit=1&" + many.String(),
		"q=" + strings.Repeat("x", 100) + "&" + strings.Repeat("y", 60) + "=1",
	} {
		for _, keys := range [][]string{{"q", "limit"}, nil} {
			got, gerr := values(raw, keys...)
			want, werr := valuesBefore(raw, keys...)
			if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Errorf("values(%.60q, %q) = %v; before: %v", raw, keys, gerr, werr)
			}
		}
	}
}
