package target_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// One rule for a 0, the table's, on every surface: a link's KEY=0 is the link without it where
// the field's 0 means "absent" (ZeroMeansDerived: README's "absent or 0: …"), and is refused,
// naming the field and its range, everywhere else (no range holds 0: tps, seq, n; eff refuses a
// given 0). The page reads a typed 0 by the same flag of fields() (web/form.js; e2e
// TestZeroReadsAsEmpty), the API and the command line by this codec (edge/api, cmd/fitclaim
// TestZeroIsTheTableRule*).
func TestZeroIsTheTableRule(t *testing.T) {
	bases := []string{"m=x&s=kv", "p=70&L=80&kvh=8&hd=128&s=kv", "m=x&memory=24&bandwidth=900&family=nvidia"}
	for i := range target.Fields {
		f := &target.Fields[i]
		if k := f.Kind(); k != target.KindNumber && k != target.KindInteger {
			continue
		}
		for _, base := range bases {
			want, err := target.ParsePermalink(base)
			if err != nil {
				t.Fatal(err)
			}
			if f.Get(&want) != "0" {
				continue // the base gives it: KEY=0 would be given twice
			}
			got, err := target.ParsePermalink(base + "&" + f.Key + "=0")
			if err == nil {
				err = got.Validate()
			}
			var fe *target.FieldError
			switch {
			case f.ZeroMeansDerived():
				if err != nil || target.Permalink(got) != target.Permalink(want) {
					t.Errorf("%s&%s=0: %v, link %q; want the link without it, %q (its 0 is %q)", base, f.Key, err, target.Permalink(got), target.Permalink(want), f.DerivedText())
				}
			case !errors.As(err, &fe) || fe.Field != f.Name || !strings.Contains(fe.Msg, f.Allowed()):
				t.Errorf("%s&%s=0: %v; want it refused by %s with its range %q", base, f.Key, err, f.Name, f.Allowed())
			}
		}
		if f.ZeroMeansDerived() && f.Min >= 1 && !strings.HasPrefix(f.DerivedText(), "absent or 0: ") {
			t.Errorf("%s: its 0 means absent, but the docs say %q", f.Name, f.DerivedText())
		}
	}
}
