package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// watchLive records every change of what the result's live regions say (the polite and
// assertive ones inside #result, but the copy's and the hardware panel's own), as a screen reader
// hears them: window.said, a list of texts.
const watchLive = `(() => {
	window.said = [];
	const skip = new Set(["copied", "hw-status", "model-status"]);
	const live = () => Array.from(document.querySelectorAll("#result [aria-live], #result [role=status], #result [role=alert]"))
		.filter((n) => !skip.has(n.id) && n.getAttribute("aria-live") !== "off");
	const last = new Map(live().map((n) => [n, n.textContent]));
	new MutationObserver(() => {
		for (const n of live()) {
			if (n.closest("[hidden]") || last.get(n) === n.textContent) continue;
			last.set(n, n.textContent);
			if (n.textContent.trim()) window.said.push(n.id + ": " + n.textContent.trim());
		}
	}).observe(document.getElementById("result"), { subtree: true, childList: true, characterData: true, attributes: true });
	return true; })()`

// A new claim is said once the edit is done, not on every keystroke: typing "35" into the target
// speed (a render per key) is said once, a second after the last key, with the claim for 35; a
// refused value ("500" efficiency) is said once, naming the field; a choice is said at once.
// Before, the summary was the polite live region and was rewritten, so read out, for "3" and
// again for "35" (and the error box for "5", "50" and "500").
func TestClaimAnnouncedOnceTypingPauses(t *testing.T) {
	tg := targetWith(func(x *target.Target) { x.Model = exampleModel })
	p, _ := showClaim(t, tg)
	p.eval(watchLive, nil)
	said := func() []string {
		var s []string
		p.eval(`window.said`, &s)
		return s
	}

	p.run(chromedp.Focus("#minTps", chromedp.ByQuery))
	p.clearFocused()
	p.typeText("35")
	tg.MinTps = 35
	want := render(t, tg)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim for 35 tok/s")
	time.Sleep(patient(1500 * time.Millisecond))
	got := said()
	if len(got) != 1 || !strings.Contains(got[0], claim.Explain(&want).Summary) {
		t.Errorf("typing 35 (and clearing the field first) said %d times: %q; want once, the claim for 35: %q", len(got), got, claim.Explain(&want).Summary)
	}

	p.eval(`window.said = []; true`, nil)
	p.run(chromedp.Focus("#efficiencyPct", chromedp.ByQuery))
	p.typeText("500")
	p.waitText("efficiencyPct-err", nonEmpty, "the refusal of 500")
	time.Sleep(patient(1500 * time.Millisecond))
	got = said()
	if len(got) != 1 || !strings.Contains(got[0], "Bandwidth efficiency") {
		t.Errorf("typing 500 into the efficiency said %d times: %q; want once, naming the field", len(got), got)
	}
	p.clearFocused()
	p.waitText("yaml", func(s string) bool { return s == want.YAML && !p.visible("stale") }, "the claim again")

	p.eval(`window.said = []; true`, nil)
	p.eval(`(() => { const s = document.getElementById("driver"); s.value = "nvidia"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
	tg.Driver = "nvidia"
	want = render(t, tg)
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the claim for NVIDIA")
	p.waitEval(`window.said.length > 0`, "the choice's claim said at once")
	if got := said(); len(got) != 1 || !strings.Contains(got[0], claim.Explain(&want).Summary) {
		t.Errorf("a choice said %q; want once, the claim: %q", got, claim.Explain(&want).Summary)
	}

	// The Deployment tab shown: its verdict is said with the claim, once, when typing pauses.
	// Before, its own polite line was read out for 4, 40, 409, 4096 and 40960 tokens.
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitEval(`document.getElementById("deploy-yaml").textContent !== ""`, "the Deployment")
	p.eval(`(() => { const s = document.getElementById("sizing"); s.value = "kv"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
	p.waitEval(`document.getElementById("deploy-summary").textContent.includes("tokens at once")`, "the Deployment in kv mode")
	time.Sleep(patient(500 * time.Millisecond))
	p.eval(`window.said = []; true`, nil)
	p.run(chromedp.Focus("#context", chromedp.ByQuery))
	p.typeText("40960")
	p.waitEval(`document.getElementById("deploy-summary").textContent.includes("40960 tokens")`, "the Deployment at 40960 tokens")
	time.Sleep(patient(1500 * time.Millisecond))
	tg.Sizing, tg.Context = "kv", 40960
	want = render(t, tg)
	if got := said(); len(got) != 1 || !strings.Contains(got[0], claim.Explain(&want).Summary) || !strings.Contains(got[0], "40960 tokens") {
		t.Errorf("typing 40960 with the Deployment tab shown said %d times: %q; want once, the claim and the Deployment's verdict", len(got), got)
	}
	p.noProblems()
}
