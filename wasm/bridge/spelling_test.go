package bridge

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// htmlNumber is what the page's number inputs (<input type=number>) send: a valid
// floating-point number (HTML, 2.3.4.3), which form.js reads with Number(); anything else is
// the input's badInput and the form's own refusal.
var htmlNumber = regexp.MustCompile(`^-?([0-9]+(\.[0-9]+)?|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// TestNumberSpellingsAgree: a spelling the page's number input sends is accepted by the page
// (the bridge, as a JS number) exactly when a link, the API and a flag accept it (the target's
// text), with the same value and the same message when refused. Integer fields refused "1e3",
// "1.0" and "1e-400" as text, which the page sends as 1000, 1 and 0.
func TestNumberSpellingsAgree(t *testing.T) {
	spellings := []string{"0", "-0", "1", "-1", "5", "1e3", "1E3", "1.0", "10.000", "1e1", "1.5", ".5", "0.0", "1e-400", "4096",
		"4097", "2147483647", "2147483648", "-2147483648", "1e10", "1e308", "1e309", "16777216", "1.6777216e7", "0.99", "100", "100.0"}
	checked := 0
	for i := range target.Fields {
		f := &target.Fields[i]
		if k := f.Kind(); k != target.KindNumber && k != target.KindInteger {
			continue
		}
		for _, s := range spellings {
			if !htmlNumber.MatchString(s) {
				t.Fatalf("%q is not what a number input sends", s)
			}
			x, _ := strconv.ParseFloat(s, 64) // JS's Number(s) for these spellings
			page, perr := TargetFromObject(map[string]Value{f.Name: {Type: "number", Num: x}})
			if perr == nil {
				perr = page.Validate()
			}
			link, lerr := target.ParsePermalink(f.Key + "=" + s)
			if lerr == nil {
				lerr = link.Validate()
			}
			checked++
			switch {
			case (perr == nil) != (lerr == nil):
				t.Errorf("%s=%s: the page says %v, a link %v", f.Key, s, perr, lerr)
			case perr == nil && f.Get(&page) != f.Get(&link):
				t.Errorf("%s=%s: the page reads %s, a link %s", f.Key, s, f.Get(&page), f.Get(&link))
			case perr != nil && msgOf(perr) != msgOf(lerr):
				t.Errorf("%s=%s: the page says %q, a link %q", f.Key, s, msgOf(perr), msgOf(lerr))
			}
		}
	}
	if checked < 300 {
		t.Errorf("only %d cases", checked)
	}
}

// msgOf is an error without the value it quotes back ("(got 1e+308)" from the page's number,
// "(got "1e308")" from a link's text): the field and the rule must agree.
func msgOf(err error) string {
	fe, ok := err.(*target.FieldError)
	if !ok {
		return err.Error()
	}
	msg := fe.Msg
	if i := regexp.MustCompile(` \(got [^)]*\)$`).FindStringIndex(msg); i != nil {
		msg = msg[:i[0]]
	}
	return fe.Field + ": " + msg
}

// TestLongTextAgrees: a text field's value of any length is refused by a link (the API, a flag)
// exactly when the page refuses it, with the same words, naming the field's own limit in
// characters. A link cut every value at 512 bytes: a model name of 200 Chinese characters (600
// bytes, under the model's 300) was refused as "at most 512 characters (got 600)", and a
// 10,000-byte name was told 512 where the page said 300.
func TestLongTextAgrees(t *testing.T) {
	checked := 0
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.Kind() != target.KindString {
			continue
		}
		for _, unit := range []string{"a", "模", "😀"} {
			for _, n := range []int{f.MaxLen, f.MaxLen + 1, 200, 513, 600, 1000, 3000, 10000} {
				v := strings.Repeat(unit, n)
				page, perr := TargetFromObject(map[string]Value{f.Name: {Type: "string", Str: v}})
				if perr == nil {
					perr = page.Validate()
				}
				link, lerr := target.ParsePermalink(f.Key + "=" + url.QueryEscape(v))
				if lerr == nil {
					lerr = link.Validate()
				}
				checked++
				long := n > f.MaxLen
				pl := perr != nil && strings.Contains(perr.Error(), "characters (got")
				ll := lerr != nil && strings.Contains(lerr.Error(), "characters (got")
				want := "must be at most " + strconv.Itoa(f.MaxLen) + " characters (got " + strconv.Itoa(n) + ")"
				switch {
				case pl != long || ll != long:
					t.Errorf("%s = %d × %q: the page says %v, a link %v", f.Key, n, unit, perr, lerr)
				case long && (perr.Error() != lerr.Error() || !strings.HasSuffix(perr.Error(), want)):
					t.Errorf("%s = %d × %q: the page says %q, a link %q; want %q", f.Key, n, unit, perr, lerr, want)
				}
			}
		}
	}
	t.Logf("%d cases", checked)
}
