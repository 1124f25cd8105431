package target

import (
	"errors"
	"strings"
	"testing"
)

func TestRepairLink(t *testing.T) {
	for _, c := range []struct {
		link string
		keep string // the permalink of what is kept
		msg  string // Message()
	}{
		{"m=NousResearch%2FLlama-2-7b-chat-hf&tps=30", "m=NousResearch%2FLlama-2-7b-chat-hf&tps=30", ""},
		// One message per problem; the good pairs stay.
		{"#m=x&eff=500&tps=fast&zz=1&n=2&n=3", "m=x",
			"This link has 4 parts that could not be used; the rest of it was kept.\n" +
				"• “tps=fast”: Target decode speed (minTps, tps): must be a decimal number greater than 0 and at most 100000 tokens/s (got \"fast\")\n" +
				"• “n=2&n=3”: Devices (count, n): given 2 times; give it once\n" +
				"• “zz=1”: query: unknown key \"zz\"; known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem\n" +
				"• “eff=500”: Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100 percent (got 500)"},
		// Garbage is not pinned to a field.
		{"#garbage", "",
			"This link has a part that could not be used; the rest of it was kept.\n" +
				"• “garbage”: query: unknown key \"garbage\"; known keys: v, m, p, q, tps, eff, tpl, name, dc, s, ctx, seq, kv, drv, n, L, kvh, hd, ap, on, memory, bandwidth, family, unified, engine, image, att, sw, sl, fal, csal, hcal, klr, qkr, ne, nept, gmu, mns, mbt, cap, capn, trc, cpu, mem"},
		// A catalog model and a custom size: the model is kept, the size refused in words.
		{"m=x&p=7&tps=30", "m=x&tps=30",
			"This link has a part that could not be used; the rest of it was kept.\n" +
				"• “p=7”: Parameters (paramsB, p): a link names either a catalog model or a custom size; the catalog model \"x\" was kept"},
		{"p=7&m=%zz", "p=7",
			"This link has a part that could not be used; the rest of it was kept.\n" +
				"• “m=%zz”: Model (model, m): invalid percent-encoding in \"m=%zz\""},
		// Out of range, one after the other.
		{"p=7&s=KVV&seq=0", "p=7",
			"This link has 2 parts that could not be used; the rest of it was kept.\n" +
				"• “s=KVV”: Sizing mode (sizing, s): must be one of llmfit, kv (got \"KVV\")\n" +
				"• “seq=0”: Concurrent sequences (sequences, seq): must be a whole number from 1 to 4096 (got 0)"},
		// No model at all: nothing of the link is wrong, the page asks for one.
		{"tps=30", "tps=30", ""},
	} {
		r := RepairLink(c.link)
		if got := Permalink(r.Target); got != c.keep {
			t.Errorf("%s: kept %q, want %q", c.link, got, c.keep)
		}
		if got := r.Message(); got != c.msg {
			t.Errorf("%s: message\n got %s\nwant %s", c.link, got, c.msg)
		}
	}
}

func TestRepairLinkClipsLongPairs(t *testing.T) {
	r := RepairLink("zz=" + strings.Repeat("é", 40))
	// 3 bytes of "zz=" and 40 two-byte "é": cut at 60 bytes is "zz=" and 28 "é" (59 bytes).
	if len(r.Dropped) != 1 || !strings.Contains(r.Message(), "“zz="+strings.Repeat("é", 28)+"…”") {
		t.Errorf("%q", r.Message())
	}
}

// A model name of spaces names nothing: the same message as no model at all, by the label of
// the custom size.
func TestBlankModelIsNoModel(t *testing.T) {
	for _, q := range []string{"m=%20%20%20", "m=%09"} {
		tg, err := ParsePermalink(q)
		if err == nil {
			err = tg.Validate()
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "model" || !strings.Contains(err.Error(), "choose a catalog model, or give Parameters") {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// A text's limit counts characters, as its message and the page's input (maxLength) do: 101
// Chinese characters (303 bytes) were refused as "must be at most 300 characters (got 303)".
func TestTextLimitCountsCharacters(t *testing.T) {
	tg := Default()
	tg.Model = strings.Repeat("模", 101)
	if err := tg.Validate(); err != nil {
		t.Errorf("101 characters: %v", err)
	}
	tg.Model = strings.Repeat("模", 301)
	if err := tg.Validate(); err == nil || !strings.HasSuffix(err.Error(), "must be at most 300 characters (got 301)") {
		t.Errorf("301 characters: %v", err)
	}
	tg.Model = strings.Repeat("m", 301)
	if err := tg.Validate(); err == nil || !strings.HasSuffix(err.Error(), "must be at most 300 characters (got 301)") {
		t.Errorf("301 ASCII characters: %v", err)
	}
}
