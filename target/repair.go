package target

import (
	"errors"
	"strconv"
	"strings"
)

// Repair is what can be kept of a link: the target from its good pairs, and each pair that
// could not be used with the one reason it was dropped.
type Repair struct {
	Target  Target
	Dropped []Drop
}

// Drop is a part of a link that was left out, as the link spelled it (decoded where it could be),
// and why.
type Drop struct {
	Pair string
	Err  *FieldError
}

// RepairLink reads a permalink fragment (or API query) keeping every pair it can: a pair that
// does not decode, an unknown key, a repeated key, a value that does not parse, is out of its
// range or not of its form (a claim name that is no DNS-1123 subdomain: Field.CheckForm), and a
// custom size beside a catalog model are each dropped with one message, and the rest of the
// link is kept. Rules that need the catalog (is the model in it?) are the render's.
func RepairLink(fragment string) Repair {
	var r Repair
	v, given, bad := splitPairs(fragment) // given: key → the pairs that spell it
	for _, pair := range bad {
		r.drop(pair, badEscape(pair))
	}
	t, errs := ParseQueryPartial(v)
	for _, err := range errs {
		fe, _ := errors.AsType[*FieldError](err)
		r.drop(pairOf(fe, given), fe)
	}
	model, params := field("model"), field("paramsB")
	if t.Model != "" && t.ParamsB != 0 {
		r.drop(strings.Join(given[params.Key], "&"), params.Err("a link names either a catalog model or a custom size; the catalog model "+
			QuoteShort(t.Model)+" was kept"))
		t.ParamsB = 0
	}
	// A value that parses but is out of range: leave it out too, one field at a time.
	for range Fields {
		fe, ok := errors.AsType[*FieldError](t.Validate())
		if !ok {
			break
		}
		f, ok := ByName(fe.Field)
		if !ok || f == model || len(given[f.Key]) == 0 {
			break // not a pair of the link (no model chosen yet): the page asks for one
		}
		r.drop(strings.Join(given[f.Key], "&"), fe)
		f.Reset(&t)
		delete(given, f.Key)
	}
	// A value of the wrong form (a claim name that is not a DNS-1123 subdomain, an image with a
	// space): Validate leaves it to the package that uses it, which would refuse the whole claim
	// or Deployment; the message is that package's.
	for i := range Fields {
		f := &Fields[i]
		fe, ok := errors.AsType[*FieldError](f.CheckForm(&t))
		if !ok || len(given[f.Key]) == 0 {
			continue
		}
		r.drop(strings.Join(given[f.Key], "&"), fe)
		f.Reset(&t)
		delete(given, f.Key)
	}
	r.Target = t
	return r
}

// pairOf finds the pair an error of the codec is about.
func pairOf(fe *FieldError, given map[string][]string) string {
	if f, ok := ByName(fe.Field); ok {
		return strings.Join(given[f.Key], "&")
	}
	if fe.Field == FormatKey {
		return strings.Join(given[FormatKey], "&")
	}
	// An unknown key: the message quotes it; find its pair.
	for key, pairs := range given {
		if _, known := ByKey(key); !known && key != FormatKey && strings.Contains(fe.Msg, QuoteShort(key)) {
			return strings.Join(pairs, "&")
		}
	}
	return ""
}

func (r *Repair) drop(pair string, fe *FieldError) {
	r.Dropped = append(r.Dropped, Drop{Pair: pair, Err: fe})
}

// Message says in words what was dropped and why, one line a problem; "" when nothing was.
func (r *Repair) Message() string {
	if len(r.Dropped) == 0 {
		return ""
	}
	parts := "a part"
	if n := len(r.Dropped); n > 1 {
		parts = strconv.Itoa(n) + " parts"
	}
	lines := []string{"This link has " + parts + " that could not be used; the rest of it was kept."}
	for _, d := range r.Dropped {
		line := "• "
		if d.Pair != "" {
			shown, cut := clip(d.Pair)
			if cut {
				shown += "…"
			}
			line += "“" + shown + "”: "
		}
		lines = append(lines, line+d.Err.Error())
	}
	return strings.Join(lines, "\n")
}
