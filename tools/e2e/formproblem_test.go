package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/target"
)

// setField puts text into a field as a paste does (no key-by-key intermediate values) and
// fires its input event.
func (p *page) setField(id, text string) {
	p.t.Helper()
	p.eval(`(() => { const n = document.getElementById(`+jsString(id)+`); n.focus(); n.value = `+jsString(text)+`;
		n.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, nil)
}

func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// A number the form itself refuses (one that is not a finite number, as a number input can hold:
// "e") gets the engine's kind of message, naming the field, its link key and its range; and
// the address keeps the last link, not one that silently drops the field (shared, it would have
// given another claim than the one the form shows is wrong). A custom size of 0 is refused by
// the Parameters field, not by the hidden Model field.
func TestFormRefusalNamesRangeAndKeepsAddress(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	good := targetWith(func(x *target.Target) { x.Model = exampleModel; x.Sizing = "kv"; x.Context = 8192 })
	frag := target.Permalink(good)
	p.open(frag)
	want := render(t, good)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the link's claim")

	// Select all and type "e": one input event, and the number input holds no number.
	p.run(chromedp.Focus("#context", chromedp.ByQuery))
	p.key("a", chromedp.KeyModifiers(input.ModifierCtrl))
	p.typeText("e")
	msg := p.waitText("context-err", nonEmpty, "a message by the Context field")
	for _, w := range []string{"Context (context, ctx)", "from 1 to 16777216"} {
		if !strings.Contains(msg, w) {
			t.Errorf("context=e: message %q does not say %q", msg, w)
		}
	}
	if got := p.fragment(); got != frag {
		t.Errorf("context=e: the address changed to %q (want the last link, %q)", got, frag)
	}
	if !p.visible("stale") {
		t.Errorf("context=e: the last claim is not marked as not updated")
	}
	p.setField("context", "4096")
	want = render(t, targetWith(func(x *target.Target) { x.Model = exampleModel; x.Sizing = "kv"; x.Context = 4096 }))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim after a good context")

	p.run(chromedp.Click("#source-custom", chromedp.ByQuery))
	p.setField("paramsB", "0")
	msg = p.waitText("paramsB-err", nonEmpty, "a message by the Parameters field")
	if !strings.Contains(msg, "Parameters (paramsB, p)") || !strings.Contains(msg, "greater than 0") {
		t.Errorf("paramsB=0: message %q does not name the field and its range", msg)
	}
	var modelInvalid bool
	p.eval(`document.getElementById("model").getAttribute("aria-invalid") === "true"`, &modelInvalid)
	if modelInvalid {
		t.Errorf("paramsB=0: the error sits on the hidden Model field")
	}
	p.noProblems()
}

// A 10 KB paste into the model field (it has no maxlength: the combobox searches what is typed)
// is refused by the field's own range, not the bridge's 4096-character bound.
func TestLongPasteNamesTheFieldsRange(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	good := targetWith(func(x *target.Target) { x.Model = exampleModel })
	p.open(target.Permalink(good))
	want := render(t, good)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the link's claim")
	p.run(chromedp.Focus("#model", chromedp.ByQuery))
	p.eval(`document.execCommand("selectAll"); document.execCommand("insertText", false, "z".repeat(10240))`, nil)
	p.key(kb.Enter)
	msg := p.waitText("model-err", nonEmpty, "a message by the Model field")
	if !strings.Contains(msg, "Model (model, m)") || !strings.Contains(msg, "at most 300 characters") {
		t.Errorf("10 KB model: message %q does not name the field's range (at most 300 characters)", msg)
	}
	p.noProblems()
}
