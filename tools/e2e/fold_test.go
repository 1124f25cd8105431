package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/target"
)

// A link whose choices are in another case (s=KV, drv=NVIDIA, engine=VLLM, family=NVIDIA) opens
// the form on those choices and the claim of their own spelling, with nothing dropped; the
// bridge reads a target's choices so too. Before, the link's s=KV and drv=NVIDIA were dropped
// ("must be one of llmfit, kv") and the claim was llmfit's.
func TestLinkChoicesInAnotherCase(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model = exampleModel
		x.Sizing, x.Driver, x.Engine, x.Context = "kv", "nvidia", "vllm", 4096
		x.MemoryGiB, x.BandwidthGBs, x.Family = 24, 900, "nvidia"
	})
	want := render(t, tg)
	frag := strings.NewReplacer("s=kv", "s=KV", "drv=nvidia", "drv=NVIDIA", "engine=vllm", "engine=VLLM", "family=nvidia", "family=NVIDIA").Replace(target.Permalink(tg))
	if !strings.Contains(frag, "s=KV") || !strings.Contains(frag, "drv=NVIDIA") || !strings.Contains(frag, "engine=VLLM") {
		t.Fatalf("the link %q does not spell the choices in upper case", frag)
	}
	p.open(frag)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim of the choices' own spelling")
	if p.visible("link-error") {
		t.Errorf("the link's parts were dropped: %q", p.text("link-error"))
	}
	var form struct{ Sizing, Driver, Family string }
	p.eval(`({sizing: document.getElementById("sizing").value, driver: document.getElementById("driver").value, family: document.getElementById("hw-family").value})`, &form)
	if form.Sizing != "kv" || form.Driver != "nvidia" || form.Family != "nvidia" {
		t.Errorf("the form shows sizing %q, driver %q, family %q; want kv, nvidia, nvidia", form.Sizing, form.Driver, form.Family)
	}
	var link string
	p.run(chromedp.Evaluate(`fitclaim.permalink({model: "x", sizing: "KV", driver: "Amd", attention: "MLA", capacityRequest: true, capacityName: "QUALIFIED"})`, &link, awaitPromise))
	if link != "m=x&s=kv&drv=amd&att=mla&cap=1&capn=qualified" {
		t.Errorf("the bridge's permalink of choices in another case: %q", link)
	}
	p.noProblems()
}
