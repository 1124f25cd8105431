package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A 0 typed into a number field is refused by that field, with its range, as -5 is: no number
// field's range holds 0, and the engine reads a 0 as "not given". Before, a context of 0 silently
// drew the claim for the model's own context, active parameters of 0 a dense model (no message,
// nothing marked stale), and layers of 0 said "give all three or none" of three given fields.
// What the user typed elsewhere stays, and the field recovers when fixed.
func TestZeroIsRefusedByItsField(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	good := targetWith(func(x *target.Target) {
		x.Model = ""
		x.ParamsB = 70
		x.ActiveParamsB = 12
		x.Layers, x.KVHeads, x.HeadDim = 80, 8, 128
		x.Sizing = "kv"
		x.Context = 8192
		x.Sequences = 4
	})
	frag := target.Permalink(good)
	p.open(frag)
	want := render(t, good)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the link's claim")
	form := func() string {
		var s string
		p.eval(`JSON.stringify(Array.from(document.querySelectorAll("#form input:not([type=radio]), #form select")).map((n) => n.id + "=" + n.value))`, &s)
		return s
	}
	before := form()
	for _, f := range []struct{ id, words string }{
		{"context", "Context (context, ctx): must be a whole number from 1 to 16777216 tokens"},
		{"activeParamsB", "Active parameters (activeParamsB, ap): must be a decimal number greater than 0"},
		{"layers", "Layers (layers, L): must be a whole number from 1 to 1000"},
		{"sequences", "Concurrent sequences (sequences, seq): must be a whole number from 1 to 4096"},
	} {
		var old string
		p.eval(fmt.Sprintf(`document.getElementById(%q).value`, f.id), &old)
		p.setField(f.id, "0")
		msg := p.waitText(f.id+"-err", nonEmpty, "a message by the "+f.id+" field")
		if !strings.Contains(msg, f.words) {
			t.Errorf("%s=0: message %q, want it to say %q", f.id, msg, f.words)
		}
		if !p.visible("stale") {
			t.Errorf("%s=0: the last claim is not marked as not updated", f.id)
		}
		if got := p.text("yaml"); got != want.YAML {
			t.Errorf("%s=0: the claim changed: %s", f.id, diff(want.YAML, got))
		}
		p.setField(f.id, old)
		p.waitText("yaml", func(s string) bool { return s == want.YAML && !p.visible("stale") }, "the claim again after "+f.id+" is fixed")
		if p.visible(f.id + "-err") {
			t.Errorf("%s fixed: its message is still shown", f.id)
		}
		if got := form(); got != before {
			t.Errorf("%s=0 and back: the form changed:\n got %s\nwant %s", f.id, got, before)
		}
	}
	p.noProblems()
}
