package target

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParsePermalinkMessages: any fragment (a page's link, an API query, a --permalink) is read
// without a panic; every error is a *FieldError about a field of the table, the format key or
// the query as a whole, whose message is one line of UTF-8 under a kilobyte that names the
// field as the table does; ParsePermalink's error is the partial parse's first, and its target
// the same.
func FuzzParsePermalinkMessages(f *testing.F) {
	values := []string{"", "%20", "-1", "0", "-0", "NaN", "Inf", "1e308", "1e-400", "2147483648", "99999999999999999999", "0x10",
		"1_000", "%2B5", "+5", "5abc", "1e3", "1.0", "%D9%A3", "%00", "%FF%FE", "%zz", "%", "kv", "nvidia", strings.Repeat("x", 600),
		strings.Repeat("%E6%A8%A1", 700)}
	keys := []string{"v", "TPS", "minTps", "l", "zz", ""}
	for i := range Fields {
		keys = append(keys, Fields[i].Key)
	}
	for i, k := range keys {
		for j, v := range values {
			if (i+j)%2 == 0 {
				f.Add(k + "=" + v + "&m=x&" + k + "=" + values[(i+j)%len(values)])
			} else {
				f.Add("#p=7&" + k + "=" + v)
			}
		}
	}
	f.Fuzz(func(t *testing.T, frag string) {
		pt, perrs := ParsePermalinkPartial(frag)
		ft, ferr := ParsePermalink(frag)
		if (ferr == nil) != (len(perrs) == 0) || ferr != nil && ferr.Error() != perrs[0].Error() || ferr == nil && ft != pt {
			t.Fatalf("%q: ParsePermalink %v; partial %v", frag, ferr, perrs)
		}
		for _, err := range perrs {
			checkFieldError(t, frag, err)
		}
		if ferr == nil {
			if err := pt.Validate(); err != nil {
				checkFieldError(t, frag, err)
			}
		}
	})
}

func checkFieldError(t *testing.T, frag string, err error) {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("%q: %v is not a *FieldError", frag, err)
	}
	msg := err.Error()
	if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\n\r\x00") || len(msg) > 1024 {
		t.Fatalf("%q: the message is not one short line of UTF-8: %q", frag, msg)
	}
	if f, ok := ByName(fe.Field); ok {
		if fe.Key != f.Key || fe.Label != f.Label || !strings.HasPrefix(msg, f.Label+" ("+f.Name) {
			t.Fatalf("%q: %q does not name %s as the table does", frag, msg, f.Name)
		}
		return
	}
	if fe.Field != "query" && fe.Field != FormatKey {
		t.Fatalf("%q: an error about %q, no field", frag, fe.Field)
	}
}

// FuzzRepairLink: the page reads every link through RepairLink. Any fragment is repaired
// without a panic; each dropped part has a field error as the codec's; what is kept is a link
// that reads back to the same target; and the kept target breaks no rule of the table about a
// pair it kept (Validate's remaining error, if any, is about a field the link did not give or
// whose pair was dropped: the model to choose, an architecture to complete).
func FuzzRepairLink(f *testing.F) {
	for _, s := range []string{"m=x&eff=500&tps=fast&zz=1&n=2&n=3", "#garbage", "m=x&p=7&tps=30", "p=7&L=32", "p=7&L=32&kvh=8&hd=128&sl=40",
		"m=x&capn=qualified", "m=x&engine=llama.cpp&gmu=0.5", "m=x&name=Bad_Name&image=a%20b&dc=GPU", "p=7&ap=9", "v=2&m=x", "%zz&tps=%zz",
		"m=x&ne=8&nept=9", "m=x&att=mla&klr=0", "p=1e-400&m=x", "m=" + strings.Repeat("%E6%A8%A1", 700)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, frag string) {
		r := RepairLink(frag)
		kept := map[string]bool{} // the keys of the pairs kept (a dropped pair is as if not given)
		v, _ := readPairs(Permalink(r.Target), nil, nil)
		for k := range v {
			kept[k] = true
		}
		for _, d := range r.Dropped {
			if d.Err == nil {
				t.Fatalf("%q: a drop without an error", frag)
			}
			checkFieldError(t, frag, d.Err)
		}
		_ = r.Message()
		back, err := ParsePermalink(Permalink(r.Target))
		if err != nil || back != r.Target && !hasNaN(r.Target) {
			t.Fatalf("%q: the kept target's link %q reads back as %+v, %v", frag, Permalink(r.Target), back, err)
		}
		if err := r.Target.Validate(); err != nil {
			fe, _ := errors.AsType[*FieldError](err)
			if f, ok := ByName(fe.Field); ok && kept[f.Key] && f.Name != "model" && f.Name != "paramsB" {
				t.Fatalf("%q: kept %q, which still breaks a rule of a pair the link gave: %v", frag, Permalink(r.Target), err)
			}
		}
	})
}

// hasNaN: a target with a NaN reads back unequal to itself.
func hasNaN(t Target) bool {
	for i := range Fields {
		if f := &Fields[i]; f.Kind() == KindNumber && f.Get(&t) == "NaN" {
			return true
		}
	}
	return false
}
