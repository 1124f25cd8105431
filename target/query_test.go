package target

import (
	"errors"
	"math"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func def(mut func(*Target)) Target {
	t := Default()
	if mut != nil {
		mut(&t)
	}
	return t
}

// roundTripTargets covers every field with non-default values, awkward strings and numbers.
var roundTripTargets = []Target{
	def(nil),
	def(func(t *Target) { t.Model = "NousResearch/Llama-2-7b-chat-hf" }),
	def(func(t *Target) { t.Model, t.MinTps, t.EfficiencyPct = "NousResearch/Llama-2-7b-chat-hf", 30, 60 }),
	def(func(t *Target) { t.Model = "a b+c&d=e#f%g?h/i'j\"k\\l" }),
	def(func(t *Target) { t.Model = "模型 ≈ é\u2028\n\x00" }),
	def(func(t *Target) { t.ParamsB, t.Quant = 7.25, "Q8_0" }),
	def(func(t *Target) { t.ParamsB = 0.000123 }),
	def(func(t *Target) { t.ParamsB = 1e-300 }),
	def(func(t *Target) { t.ParamsB = math.MaxFloat64 }),
	def(func(t *Target) { t.ParamsB = 5e-324 }),
	def(func(t *Target) { t.ParamsB = -0.5 }),
	def(func(t *Target) { t.MinTps = 22.5 }),
	def(func(t *Target) { t.MinTps = 0.30000000000000004 }),
	def(func(t *Target) { t.MinTps = 0 }),
	def(func(t *Target) { t.EfficiencyPct = -3 }),
	def(func(t *Target) { t.Template = true }),
	def(func(t *Target) { t.Name, t.DeviceClass = "my-claim.v1", "gpu.example.com" }),
	def(func(t *Target) { t.Sizing, t.Context, t.Sequences, t.KVCache = "kv", 32768, 4, "q4_0" }),
	def(func(t *Target) { t.Driver, t.Count = "nvidia", 8 }),
	def(func(t *Target) { t.Driver = "any" }),
	def(func(t *Target) {
		t.ParamsB, t.Layers, t.KVHeads, t.HeadDim, t.ActiveParamsB = 100, 48, 8, 128, 10
	}),
	def(func(t *Target) { t.Sizing, t.KVCache, t.Driver = "", "", "" }), // empties differ from the defaults
	def(func(t *Target) { t.Sequences, t.Count, t.Context = 0, -1, math.MaxInt32 }),
}

func TestPermalinkRoundTrip(t *testing.T) {
	for _, tg := range roundTripTargets {
		link := Permalink(tg)
		back, err := ParsePermalink(link)
		if err != nil {
			t.Errorf("%+v → %q: %v", tg, link, err)
			continue
		}
		if !reflect.DeepEqual(back, tg) {
			t.Errorf("round trip of %q:\n got %+v\nwant %+v", link, back, tg)
		}
		// With the '#', and via the raw-query and url.Values spellings.
		if b2, err := ParsePermalink("#" + link); err != nil || !reflect.DeepEqual(b2, tg) {
			t.Errorf("#%s: %+v, %v", link, b2, err)
		}
		if b3, err := ParsePermalink(link); err != nil || !reflect.DeepEqual(b3, tg) {
			t.Errorf("raw %s: %+v, %v", link, b3, err)
		}
		if b4, err := ParseQuery(Query(tg)); err != nil || !reflect.DeepEqual(b4, tg) {
			t.Errorf("Query(%+v) = %v: %+v, %v", tg, Query(tg), b4, err)
		}
		// Query and Permalink agree, and url.ParseQuery reads a permalink as the same pairs.
		q, err := url.ParseQuery(link)
		if err != nil || !reflect.DeepEqual(map[string][]string(q), Query(tg)) && !(len(q) == 0 && len(Query(tg)) == 0) {
			t.Errorf("url.ParseQuery(%q) = %v, Query = %v (%v)", link, q, Query(tg), err)
		}
		// Equal targets, equal links.
		if Permalink(back) != link {
			t.Errorf("Permalink not stable: %q vs %q", Permalink(back), link)
		}
	}
}

func TestPermalinkOnlyNonDefault(t *testing.T) {
	if got := Permalink(Default()); got != "" {
		t.Errorf("default permalink = %q", got)
	}
	if got := Query(Default()); len(got) != 0 {
		t.Errorf("default query = %v", got)
	}
	// The example.
	tg := def(func(t *Target) { t.Model, t.MinTps, t.EfficiencyPct = "NousResearch/Llama-2-7b-chat-hf", 30, 60 })
	if got := Permalink(tg); got != "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60" {
		t.Errorf("permalink = %q", got)
	}
	back, err := ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60")
	if err != nil || back != tg {
		t.Errorf("parse = %+v, %v", back, err)
	}
	// Unescaped slash, any order, '#', '+' as space, v=1: the same target.
	for _, s := range []string{"#eff=60&m=NousResearch/Llama-2-7b-chat-hf&tps=30", "v=1&tps=30.0&eff=060&m=NousResearch%2fLlama-2-7b-chat-hf&&", "tps=+30&eff=60&m=NousResearch/Llama-2-7b-chat-hf"} {
		if b, err := ParsePermalink(s); err != nil || b != tg {
			t.Errorf("%q: %+v, %v", s, b, err)
		}
	}
	// Every key, in the order of Fields.
	all := def(func(t *Target) {
		t.Model, t.ParamsB, t.Quant, t.MinTps, t.EfficiencyPct, t.Template, t.Name, t.DeviceClass = "m x", 1.5, "F16", 21, 54, true, "n", "d.c"
		t.Sizing, t.Context, t.Sequences, t.KVCache, t.Driver, t.Count = "kv", 100, 2, "fp8", "amd", 3
		t.Layers, t.KVHeads, t.HeadDim, t.ActiveParamsB = 4, 5, 6, 0.5
	})
	want := "m=m+x&p=1.5&q=F16&tps=21&eff=54&tpl=1&name=n&dc=d.c&s=kv&ctx=100&seq=2&kv=fp8&drv=amd&n=3&L=4&kvh=5&hd=6&ap=0.5"
	if got := Permalink(all); got != want {
		t.Errorf("all keys:\n got %s\nwant %s", got, want)
	}
	// Spaces in a model are '+', '+' itself %2B.
	if got := Permalink(def(func(t *Target) { t.Model = "a+b c" })); got != "m=a%2Bb+c" {
		t.Errorf("a+b c → %q", got)
	}
}

func TestFieldsCoverTarget(t *testing.T) {
	typ := reflect.TypeOf(Target{})
	if len(Fields) != typ.NumField() {
		t.Errorf("%d Fields, Target has %d fields", len(Fields), typ.NumField())
	}
	seen := map[string]bool{}
	for i := range Fields {
		f := &Fields[i]
		for _, s := range []string{"name " + f.Name, "key " + f.Key, "label " + f.Label, "flag " + f.Flag} {
			if seen[s] && s != "flag " {
				t.Errorf("two fields have %s", s)
			}
			seen[s] = true
		}
		if f.Key == "" || f.Label == "" || f.Help == "" {
			t.Errorf("field %s lacks a key, label or help", f.Name)
		}
		if g, ok := ByName(f.Name); !ok || g != f {
			t.Errorf("ByName(%s)", f.Name)
		}
		if g, ok := ByKey(f.Key); !ok || g != f {
			t.Errorf("ByKey(%s)", f.Key)
		}
		if _, ok := typ.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, f.Name) }); !ok {
			t.Errorf("field %s is not a Target field", f.Name)
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Error("ByName(nope)")
	}
	f, ok := ByName("minTps")
	if !ok {
		t.Fatal("ByName(minTps): no such field")
	}
	tg := Default()
	if err := f.Set(&tg, "12.5"); err != nil || tg.MinTps != 12.5 || f.Kind() != KindNumber {
		t.Errorf("Set: %v %v", err, tg.MinTps)
	}
	kinds := map[string]Kind{"model": KindString, "paramsB": KindNumber, "efficiencyPct": KindInteger, "template": KindBool, "count": KindInteger, "activeParamsB": KindNumber}
	for name, k := range kinds {
		if f, ok := ByName(name); !ok {
			t.Errorf("ByName(%s): no such field", name)
		} else if f.Kind() != k {
			t.Errorf("%s kind %v, want %v", name, f.Kind(), k)
		}
	}
}

func TestParsePermalinkErrors(t *testing.T) {
	long := strings.Repeat("a", 10000)
	cases := []struct{ in, want string }{
		{"TPS=30", `query: unknown key "TPS" (did you mean tps?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"minTps=30", `query: unknown key "minTps" (did you mean tps?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"min-tps=30", `query: unknown key "min-tps" (did you mean tps?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"device-class=x", `query: unknown key "device-class" (did you mean dc?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"l=32", `query: unknown key "l" (did you mean L?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"model=x", `query: unknown key "model" (did you mean m?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"foo=1", `query: unknown key "foo"; known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"M=x", `query: unknown key "M" (did you mean m?); known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`},
		{"tps=1&tps=2", "Target decode speed (minTps, tps): given 2 times; give it once"},
		{"m=a&m=a&m=a", "Model (model, m): given 3 times; give it once"},
		{"m=%zz", `Model (model, m): invalid percent-encoding in "m=%zz"`},
		{"m=abc%", `Model (model, m): invalid percent-encoding in "m=abc%"`},
		{"tps=%2", `Target decode speed (minTps, tps): invalid percent-encoding in "tps=%2"`},
		{"t%70s=%zz", `Target decode speed (minTps, tps): invalid percent-encoding in "t%70s=%zz"`},
		{"zz=%zz", `query: invalid percent-encoding in "zz=%zz"`},
		{"%g1=2", `query: invalid percent-encoding in "%g1=2"`},
		{"m=" + long, "Model (model, m): must be at most 300 characters (got 10000)"},
		{"name=" + long, "Claim name (name): must be at most 253 characters (got 10000)"},
		{"v=2", "v: this link was made by a newer fitclaim (format 2); this one reads formats up to 1"},
		{"v=0", `v: the link format version must be a whole number of at least 1 (got "0")`},
		{"v=x", `v: the link format version must be a whole number of at least 1 (got "x")`},
		{"v=1&v=1", "v: given 2 times; give it once"},
		{"tps=abc", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "abc")`},
		{"tps=NaN", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "NaN")`},
		{"tps=Inf", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "Inf")`},
		{"tps=1e999", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "1e999")`},
		{"tps=0x14", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "0x14")`},
		{"tps=2_0", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "2_0")`},
		{"tps=", `Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "")`},
		{"eff=55.5", `Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got "55.5")`},
		{"eff=99999999999", `Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got "99999999999")`},
		{"n=two", `Devices (count, n): must be a whole number from 1 to 8 devices (got "two")`},
		{"tpl=maybe", `Template (template, tpl): must be 1 or 0 (got "maybe")`},
	}
	for _, c := range cases {
		_, err := ParsePermalink(c.in)
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%.40q: %v, want *FieldError", c.in, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%.40q:\n got %s\nwant %s", c.in, err, c.want)
		}
	}
	// A long bad value is quoted short in the message.
	_, err := ParsePermalink("tps=" + strings.Repeat("9", 100) + "x")
	if err == nil || !strings.HasSuffix(err.Error(), `(got "`+strings.Repeat("9", 60)+`"…)`) {
		t.Errorf("long bad number: %v", err)
	}
	// Accepted spellings of booleans.
	for s, want := range map[string]bool{"1": true, "true": true, "YES": true, "on": true, "0": false, "false": false, "no": false, "off": false, "": false} {
		tg, err := ParsePermalink("tpl=" + s)
		if err != nil || tg.Template != want {
			t.Errorf("tpl=%s: %v %v", s, tg.Template, err)
		}
	}
}

func TestParsePermalinkPartial(t *testing.T) {
	tg, errs := ParsePermalinkPartial("#m=NousResearch%2FLlama-2-7b-chat-hf&tps=abc&eff=60&zz=1&q=%zz&kv=fp8&n=2&n=3")
	want := def(func(t *Target) {
		t.Model, t.EfficiencyPct, t.KVCache = "NousResearch/Llama-2-7b-chat-hf", 60, "fp8"
	})
	if tg != want {
		t.Errorf("partial target:\n got %+v\nwant %+v", tg, want)
	}
	var msgs []string
	for _, e := range errs {
		var fe *FieldError
		if !errors.As(e, &fe) {
			t.Errorf("%v is not a FieldError", e)
		}
		msgs = append(msgs, e.Error())
	}
	wantMsgs := []string{
		`Quantization (quant, q): invalid percent-encoding in "q=%zz"`,
		`Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got "abc")`,
		"Devices (count, n): given 2 times; give it once",
		`query: unknown key "zz"; known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem`,
	}
	if !reflect.DeepEqual(msgs, wantMsgs) {
		t.Errorf("errors:\n got %q\nwant %q", msgs, wantMsgs)
	}
	// ParsePermalink reports the first of them and the same partial target.
	tg2, err := ParsePermalink("#m=NousResearch%2FLlama-2-7b-chat-hf&tps=abc&eff=60&zz=1&q=%zz&kv=fp8&n=2&n=3")
	if err == nil || err.Error() != wantMsgs[0] || tg2 != want {
		t.Errorf("ParsePermalink: %+v, %v", tg2, err)
	}
	// Empty fragments.
	for _, s := range []string{"", "#", "&&&", "#&"} {
		tg, errs := ParsePermalinkPartial(s)
		if len(errs) != 0 || tg != Default() {
			t.Errorf("%q: %+v %v", s, tg, errs)
		}
	}
}

// An efficiency given as 55 is given: it stays in the link (the KV-aware mode then uses it
// instead of the calibrated one), while an absent one stays absent; both round-trip unchanged,
// and the default target's link stays empty.
func TestEfficiencyGivenVersusAbsent(t *testing.T) {
	if got := Permalink(Default()); got != "" {
		t.Errorf("default target's link %q, want empty", got)
	}
	for _, link := range []string{"m=x&s=kv", "m=x&eff=55&s=kv", "m=x&eff=60&s=kv"} {
		tg, err := ParsePermalink(link)
		if err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		if got := Permalink(tg); got != link {
			t.Errorf("%s → %q", link, got)
		}
	}
	absent, err := ParsePermalink("m=x")
	if err != nil || absent.EfficiencyPct != 0 {
		t.Errorf("absent: %d, %v", absent.EfficiencyPct, err)
	}
	given, err := ParsePermalink("m=x&eff=55")
	if err != nil || given.EfficiencyPct != 55 {
		t.Errorf("given 55: %d, %v", given.EfficiencyPct, err)
	}
}

// ByName and ByKey (maps made once) find what a walk of the table finds, for every field's
// name, key and flag and a few strings no field has.
func TestByNameByKeyAreTheWalk(t *testing.T) {
	names := []string{"", "nope", "M", "model "}
	for i := range Fields {
		names = append(names, Fields[i].Name, Fields[i].Key, Fields[i].Flag)
	}
	for _, s := range names {
		f, ok := ByName(s)
		g, gok := find(func(f *Field) bool { return f.Name == s })
		if f != g || ok != gok {
			t.Errorf("ByName(%q) = %p, %v; the walk %p, %v", s, f, ok, g, gok)
		}
		f, ok = ByKey(s)
		g, gok = find(func(f *Field) bool { return f.Key == s })
		if f != g || ok != gok {
			t.Errorf("ByKey(%q) = %p, %v; the walk %p, %v", s, f, ok, g, gok)
		}
	}
}

// Permalink, written into one buffer (AppendPermalink), is the link built as before: each
// non-default pair as key=url.QueryEscape(value), joined with '&'.
func TestPermalinkIsThePairsJoined(t *testing.T) {
	for _, tg := range roundTripTargets {
		var parts []string
		for _, p := range pairs(&tg) {
			parts = append(parts, p[0]+"="+url.QueryEscape(p[1]))
		}
		want := strings.Join(parts, "&")
		if got := Permalink(tg); got != want {
			t.Errorf("Permalink = %q, want %q", got, want)
		}
		if got := string(AppendPermalink([]byte("kept&"), &tg)); got != "kept&"+want {
			t.Errorf("AppendPermalink = %q, want %q", got, "kept&"+want)
		}
	}
}

// TestNoFieldTakesMoreThanMaxValueLen: a value over maxValueBytes is refused before it is read,
// which is right only when no field takes that many characters.
func TestNoFieldTakesMoreThanMaxValueLen(t *testing.T) {
	for i := range Fields {
		if f := &Fields[i]; f.Kind() == KindString && f.MaxLen > maxValueLen {
			t.Errorf("%s takes %d characters, more than maxValueLen (%d)", f.Name, f.MaxLen, maxValueLen)
		}
	}
}
