package target

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/internal/smallsort"
)

// oldParseQueryPartial is ParseQueryPartial as it was, walking the whole field table and
// looking each field's key up in the query, which ParseQueryPartial must agree with.
func oldParseQueryPartial(v Values) (Target, []error) {
	t := Default()
	var errs []error
	if vals, ok := v[FormatKey]; ok {
		if err := checkFormat(vals); err != nil {
			errs = append(errs, err)
		}
	}
	for i := range Fields {
		f := &Fields[i]
		vals, ok := v[f.Key]
		switch {
		case !ok:
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
	var unknown []string
	for k := range v {
		if _, ok := ByKey(k); !ok && k != FormatKey {
			unknown = append(unknown, k)
		}
	}
	smallsort.Strings(unknown)
	for _, k := range unknown {
		errs = append(errs, unknownKeyError(k))
	}
	return t, errs
}

// queryWalkCorpus: every key of the table with values of each kind (empty, numbers in and out
// of range, words, a value over the length limit), keys given twice, unknown keys, the format
// key, an empty key, and several keys at once.
func queryWalkCorpus() []string {
	values := []string{"", "0", "1", "-1", "2.5", "40", "32768", "1e400", "nan", "kv", "llmfit", "nvidia", "any", "amd", "fp8", "q4_0", "vllm", "Qwen%2FQwen2.5-7B-Instruct", "x%zz", strings.Repeat("a", 600)}
	var qs []string
	for i := range Fields {
		k := Fields[i].Key
		for _, val := range values {
			qs = append(qs, k+"="+val)
		}
		qs = append(qs, k+"=1&"+k+"=2", k, k+"=1&zz=3&"+FormatKey+"=1")
	}
	qs = append(qs, "", "=x", "v=2", "v=0&v=1", "zz=1&aa=2", "m=Qwen%2FQwen2.5-7B-Instruct&tps=40&drv=nvidia&s=kv&ctx=32768&seq=4&n=2&kv=fp8",
		"p=70&drv=any&L=80&kvh=8&hd=128&ap=10", "tpl=1&name=phi-claim&drv=amd&dc=gpu.example.com", "s=kv&s=llmfit&m=a&zz=1&v=1&q=Q8_0")
	return qs
}

func TestParseQueryPartialIsTableWalk(t *testing.T) {
	withErrors, several, withoutErrors := 0, 0, 0
	for _, q := range queryWalkCorpus() {
		checkQueryWalk(t, q)
		if v, err := url.ParseQuery(q); err == nil {
			switch _, errs := ParseQueryPartial(Values(v)); {
			case len(errs) == 0:
				withoutErrors++
			case len(errs) > 1:
				several++
				fallthrough
			default:
				withErrors++
			}
		}
	}
	// Both kinds must be compared, some with several errors at once.
	if withErrors < 50 || several < 2 || withoutErrors < 50 {
		t.Errorf("the corpus gave %d queries with errors (%d with several) and %d without any: too few to compare", withErrors, several, withoutErrors)
	}
}

func FuzzParseQueryPartialIsTableWalk(f *testing.F) {
	for _, q := range queryWalkCorpus() {
		f.Add(q)
	}
	f.Fuzz(checkQueryWalk)
}

func checkQueryWalk(t *testing.T, q string) {
	v, err := url.ParseQuery(q)
	if err != nil {
		return // not a query the comparison can read; ParseQueryPartial gets Values
	}
	got, gotErrs := ParseQueryPartial(Values(v))
	want, wantErrs := oldParseQueryPartial(Values(v))
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErrs, wantErrs) {
		t.Fatalf("%q:\n got %+v %v\nwant %+v %v", q, got, gotErrs, want, wantErrs)
	}
}

// ParsePermalink and ParseQuery, which spell only the first error, give the target and the
// error the partial parse gives first: bad escapes, repeated and invalid fields, many unknown
// keys (in any order), the format key.
func TestParsePermalinkIsFirstOfPartial(t *testing.T) {
	var many strings.Builder
	for i := 300; i > 0; i-- {
		many.WriteString("k" + strconv.Itoa(i*7919%1000) + "=1&")
	}
	for _, q := range []string{
		"", "m=Qwen%2FQwen3-8B", "zz=1", "zz=1&aa=2&m=x", "zz=1&tps=fast", "tps=fast&tps=9&zz=1&%zz=1", "v=9&zz=1",
		"v=1&yy&xx=&ctx=99999999999", "%zz&zz=1", "p=7&" + many.String(), many.String() + "n=99", many.String() + "&%g0=1",
		"#zz=1&ZZ=1&Zz=2&m=1", "tps=1&" + many.String() + "tps=2", many.String() + "=1", many.String() + "v=2&p=7",
		many.String() + "a=1&k0=1&k0=2&p=7", "k999=1&" + many.String() + "%zz", "v=x&v=y&q=" + strings.Repeat("x", 600), "p=7&s=kv&ctx=5&name=A_B&drv=nvidia&aa=1",
	} {
		got, gerr := ParsePermalink(q)
		want, werr := firstError(ParsePermalinkPartial(q))
		if got != want || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Errorf("ParsePermalink(%.60q) = %v; the partial parse's first: %v", q, gerr, werr)
		}
		v, _ := readPairs(q, nil, nil)
		got, gerr = ParseQuery(v)
		want, werr = firstError(ParseQueryPartial(v))
		if got != want || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Errorf("ParseQuery(%.60q) = %v; the partial parse's first: %v", q, gerr, werr)
		}
	}
}
