package e2e

import (
	"errors"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Issue 12 § 4: "an ambiguous link offers the top ten". #m=qwen matches 527 catalog names: the
// message lists ten (the type-ahead's first ten for "qwen") and the page offers the same ten as
// buttons; one click picks that model, renders its claim and puts it in the address bar. A name
// without its org (#m=qwen3-8b) "resolves to the most-downloaded exact match and says which".
func TestAmbiguousLinkOffersTopTen(t *testing.T) {
	_, err := catalog.Lookup("qwen")
	var amb *catalog.AmbiguousError
	if !errors.As(err, &amb) || len(amb.Matches) != 10 {
		t.Fatalf("catalog.Lookup(qwen) = %v; want an ambiguity listing ten", err)
	}
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	p.open("m=qwen")
	p.waitText("result-error", func(s string) bool { return strings.Contains(s, "matches 527 models") }, "the ambiguity's message")
	var offered []string
	p.run(chromedp.Poll(`(() => { const o = document.getElementById("model-offer");
		return o ? [...o.querySelectorAll("button")].map((b) => b.textContent) : null; })()`, &offered,
		chromedp.WithPollingTimeout(patient(30e9))))
	if strings.Join(offered, "|") != strings.Join(amb.Matches, "|") {
		t.Fatalf("the page offers %q; the message's ten are %q", offered, amb.Matches)
	}
	if msg := p.text("result-error"); !strings.Contains(msg, strings.Join(amb.Matches, ", ")) {
		t.Errorf("the message %q does not list the ten offered", msg)
	}
	p.run(chromedp.Click(`#model-offer button:nth-of-type(2)`, chromedp.ByQuery))
	want := render(t, targetWith(func(x *target.Target) { x.Model = amb.Matches[1] }))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim of the second model offered")
	var hash string
	p.eval(`location.hash`, &hash)
	if hash != "#"+target.Permalink(targetWith(func(x *target.Target) { x.Model = amb.Matches[1] })) {
		t.Errorf("address %q after picking %s", hash, amb.Matches[1])
	}
	if p.visible("result-error") {
		t.Errorf("the message stays after a model is picked")
	}

	p.open("m=qwen3-8b")
	full := render(t, targetWith(func(x *target.Target) { x.Model = "Qwen/Qwen3-8B" }))
	p.waitText("yaml", func(s string) bool { return s == full.YAML }, "Qwen/Qwen3-8B's claim for m=qwen3-8b")
	p.waitText("warnings", func(s string) bool { return strings.Contains(s, "took Qwen/Qwen3-8B, the most downloaded") }, "the warning saying which")
	p.noProblems()
}
