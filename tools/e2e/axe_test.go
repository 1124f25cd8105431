package e2e

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// An automated WCAG audit: Deque's axe-core (MPL-2.0), pinned in tools/e2e/axe/package.json and
// installed by tools/e2e/axe/npm-deps.sh (./build.sh test runs it; node_modules is not in git),
// is injected into the page under test through DevTools (Runtime.evaluate), never through the
// site's HTML: the shipped page and its CSP never load it. It runs with the WCAG 2.x A and AA
// rules in each state a user meets; a "serious" or "critical" finding fails the test, a
// "moderate" or "minor" one is logged.

// axeTags are the rule sets run: WCAG 2.0, 2.1 and 2.2, levels A and AA.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"}

// axeFalsePositives are findings axe reports that a person checked and found not to be a
// failure: one rule on one selector each, with why. Never a rule for the whole page.
var axeFalsePositives = []struct{ rule, target, why string }{}

// axeSource is axe.min.js from the pinned npm package.
func axeSource(t *testing.T) string {
	t.Helper()
	path := filepath.Join(repoRoot(t), "tools", "e2e", "axe", "node_modules", "axe-core", "axe.min.js")
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no axe-core at %s (%v): run tools/e2e/axe/npm-deps.sh", path, err)
		}
		t.Skipf("no axe-core at %s (%v): run tools/e2e/axe/npm-deps.sh (./build.sh test does; under CI this fails)", path, err)
	}
	return string(b)
}

type axeNode struct {
	Target  string `json:"target"`
	Summary string `json:"summary"`
}

type axeViolation struct {
	ID      string    `json:"id"`
	Impact  string    `json:"impact"`
	Help    string    `json:"help"`
	HelpURL string    `json:"helpUrl"`
	Nodes   []axeNode `json:"nodes"`
}

// axeAudit is one run of the audit over several states of a page.
type axeAudit struct {
	t      *testing.T
	src    string
	counts map[string]map[string]int // "rule (impact)" → state → nodes
}

// axeResult is what one axe.run gives, trimmed.
type axeResult struct {
	Violations []axeViolation `json:"violations"`
	Passes     int            `json:"passes"`
	Incomplete []string       `json:"incomplete"` // rule ×nodes (axe's reasons)
}

// run runs axe's rules of the given tags on what p shows now.
func (a *axeAudit) run(p *page, tags []string) axeResult {
	a.t.Helper()
	var loaded bool
	p.eval(`typeof window.axe === "object"`, &loaded)
	if !loaded { // a navigation drops it
		p.run(chromedp.Evaluate(a.src+"\n;true", &loaded))
	}
	var res axeResult
	p.run(chromedp.Evaluate(`axe.run(document, {runOnly: {type: "tag", values: ["`+strings.Join(tags, `","`)+`"]}}).then(r => ({
		violations: r.violations.map(v => ({id: v.id, impact: v.impact || "", help: v.help, helpUrl: v.helpUrl,
			nodes: v.nodes.map(n => ({target: n.target.map(String).join(" "), summary: n.failureSummary || ""}))})),
		passes: r.passes.length,
		incomplete: r.incomplete.map(v => {
			const why = {}; // axe's reason → the nodes' selectors
			for (const n of v.nodes) { const k = ((n.any[0] || n.all[0] || n.none[0] || {}).data || {}).messageKey || "?"; (why[k] = why[k] || []).push(n.target.map(String).join(" ")); }
			return v.id + " ×" + v.nodes.length + " (" + Object.entries(why).map(([k, ts]) => k + ": " + (k === "imgNode" ? ts.length : ts.join(" | "))).join("; ") + ")";
		})}))`,
		&res, func(ep *runtime.EvaluateParams) *runtime.EvaluateParams { return ep.WithAwaitPromise(true) }))
	return res
}

// check runs the WCAG rules on what p shows now, the state named by state: a serious or critical
// finding is an error, any other is logged; then axe's best practices (not WCAG), logged only.
func (a *axeAudit) check(p *page, state string) {
	a.t.Helper()
	res := a.run(p, axeTags)
	found := 0
	for _, v := range res.Violations {
		for _, n := range v.Nodes {
			if why := axeExcused(v.ID, n.Target); why != "" {
				a.t.Logf("axe [%s] %s on %s: excused: %s", state, v.ID, n.Target, why)
				continue
			}
			found++
			a.count(fmt.Sprintf("%s (%s)", v.ID, v.Impact), state)
			msg := fmt.Sprintf("axe [%s] %s (%s) on %s: %s; %s\n\t%s", state, v.ID, v.Impact, n.Target, v.Help, v.HelpURL,
				strings.ReplaceAll(n.Summary, "\n", "\n\t"))
			if v.Impact == "serious" || v.Impact == "critical" {
				a.t.Error(msg)
			} else {
				a.t.Log(msg)
			}
		}
	}
	// Reflow (WCAG 1.4.10), which axe does not test: nothing makes the page scroll sideways. axe
	// only saw this as "needs review" (elmPartiallyObscured), on the phone's cards.
	var wide struct {
		Scroll, Client float64
		Widest         string
	}
	p.eval(`(() => { const d = document.documentElement, w = d.clientWidth; let widest = "", r = w;
		if (d.scrollWidth <= w + 1) return {scroll: d.scrollWidth, client: w, widest};
		for (const e of document.body.querySelectorAll("*")) { const b = e.getBoundingClientRect().right + window.scrollX;
			let clipped = false; // inside a box that scrolls or clips (a code block): not the page's width
			for (let a = e.parentElement; a && a !== document.body && !clipped; a = a.parentElement) clipped = getComputedStyle(a).overflowX !== "visible";
			if (b > w + 1 && b >= r - 0.5 && e.getClientRects().length && !clipped) { r = Math.max(r, b); /* the last, innermost, of the widest */ widest = e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.trim().split(/\s+/).join(".") : "") + " " + JSON.stringify(e.textContent.slice(0, 40)); } }
		return {scroll: d.scrollWidth, client: w, widest}; })()`, &wide)
	if wide.Scroll > wide.Client+1 {
		a.count("reflow (WCAG 1.4.10)", state)
		a.t.Errorf("axe [%s] reflow (WCAG 1.4.10): the page scrolls sideways, %.0f px wide in a %.0f px window; the widest element: %s", state, wide.Scroll, wide.Client, wide.Widest)
	}
	// "incomplete" is what axe could not decide (imgNode: text inside a role=img picture, whose
	// name and description carry the numbers): for a person to look at, not a failure.
	a.t.Logf("axe [%s]: %d WCAG findings; %d rules passed; needs review: %s", state, found, res.Passes, strings.Join(res.Incomplete, ", "))
	for _, v := range a.run(p, []string{"best-practice"}).Violations {
		for _, n := range v.Nodes {
			a.count(fmt.Sprintf("%s (%s, best practice)", v.ID, v.Impact), state)
			a.t.Logf("axe [%s] best practice, not WCAG: %s (%s) on %s: %s; %s", state, v.ID, v.Impact, n.Target, v.Help, v.HelpURL)
		}
	}
}

func axeExcused(rule, target string) string {
	for _, f := range axeFalsePositives {
		if f.rule == rule && f.target == target {
			return f.why
		}
	}
	return ""
}

func (a *axeAudit) count(finding, state string) {
	if a.counts[finding] == nil {
		a.counts[finding] = map[string]int{}
	}
	a.counts[finding][state]++
}

// summary logs the findings by rule and impact: how many nodes, in how many states.
func (a *axeAudit) summary() {
	keys := make([]string, 0, len(a.counts))
	for k := range a.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		nodes := 0
		for _, n := range a.counts[k] {
			nodes += n
		}
		a.t.Logf("axe summary: %s: %d nodes in %d states", k, nodes, len(a.counts[k]))
	}
	if len(keys) == 0 {
		a.t.Log("axe summary: no findings in any state")
	}
}

// The page in every state a user meets passes axe's WCAG 2.x A/AA rules: the bare page
// (prerendered example), a permalink, a link with a bad part, each tab, the accelerator table
// sorted, filtered and shown whole, the hardware panel with a device and with a refused number,
// the cluster panel with results and with a bad paste, a refused field, a custom size, the model
// picker open; each at desktop width light and dark (emulated prefers-color-scheme), on a
// phone (390×844) light and dark, and at 320 px. Beside axe's rules it checks reflow (WCAG
// 1.4.10: the page never scrolls sideways), which axe does not.
func TestAxeAudit(t *testing.T) {
	a := &axeAudit{t: t, src: axeSource(t), counts: map[string]map[string]int{}}
	defer a.summary()
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	scheme := func(v string) chromedp.Action {
		return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}})
	}
	p.run(scheme("light"))
	a.walk(p, "")
	p.run(scheme("dark"))
	a.walk(p, "dark: ")
	p.run(scheme("light"), chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	a.walk(p, "phone: ")
	p.run(scheme("dark"))
	a.walk(p, "phone dark: ")
	// WCAG 1.4.10's own width: 320 CSS px (a 1280 px window at 400 % zoom).
	p.run(scheme("light"), chromedp.EmulateViewport(320, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	a.walk(p, "320 px: ")

	// The audit itself sees a failure: an unlabelled field put into the page is axe's "label"
	// (critical). Without this, a harness that ran no rules would pass every state.
	p.eval(`(() => { const i = document.createElement("input"); i.id = "axe-probe"; document.getElementById("form").append(i); return true; })()`, nil)
	probe := a.run(p, axeTags)
	caught := false
	for _, v := range probe.Violations {
		for _, n := range v.Nodes {
			caught = caught || (v.ID == "label" && v.Impact == "critical" && n.Target == "#axe-probe")
		}
	}
	if !caught {
		t.Errorf("axe did not report the unlabelled #axe-probe as label (critical): %+v", probe.Violations)
	}
	p.noProblems()
}

// walk takes p through the states a user meets, from a fresh load, and audits each; prefix
// names the scheme and viewport.
func (a *axeAudit) walk(p *page, prefix string) {
	t := a.t
	t.Helper()
	load := func(frag string) {
		// about:blank first: a load of the link, not a same-document hash change. On a busy
		// machine Chromium now and then answers "Cannot find context with specified id" (a
		// page's JavaScript context gone mid-navigation): the load is tried again, up to 3 times.
		u := p.base + "/"
		if frag != "" {
			u += "#" + frag
		}
		var state string
		for i := 0; ; i++ {
			err := chromedp.Run(p.ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(u),
				chromedp.Poll(`document.documentElement.dataset.state || ""`, &state, chromedp.WithPollingTimeout(patient(60*time.Second))))
			if err == nil {
				break
			}
			if i == 2 || !strings.Contains(err.Error(), "Cannot find context") {
				t.Fatalf("chromedp: loading %s: %v", u, err)
			}
			t.Logf("loading %s: %v; again", u, err)
			time.Sleep(200 * time.Millisecond)
		}
		if state != "ready" {
			t.Fatalf("page did not start: state %q, boot message %q", state, p.text("boot"))
		}
	}

	// The bare page: the example claim, prerendered.
	load("")
	p.waitText("yaml", nonEmpty, "the example claim")
	a.check(p, prefix+"bare page")

	// A link with a bad part: the message above the form names it.
	load("m=" + url.QueryEscape(exampleModel) + "&eff=500")
	p.waitText("link-error", nonEmpty, "a message about eff=500")
	a.check(p, prefix+"link with a bad part")

	// A permalink: a catalog model in kv mode on NVIDIA, two devices.
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Sequences, x.Driver, x.Count = "Qwen/Qwen3-8B", target.SizingKV, 4096, 2, fit.DriverNVIDIA, 2
	})
	want := render(t, tg)
	load(target.Permalink(tg))
	p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the link's claim")
	a.check(p, prefix+"permalink")

	p.run(chromedp.Click("#tab-json", chromedp.ByQuery))
	p.waitEval(`!document.getElementById("panel-json").hidden`, "the JSON tab")
	a.check(p, prefix+"JSON tab")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitText("deploy-yaml", nonEmpty, "the Deployment")
	p.waitText("deploy-summary", nonEmpty, "the Deployment's summary")
	a.check(p, prefix+"Deployment tab")
	p.run(chromedp.Click("#tab-yaml", chromedp.ByQuery))

	// The table shown whole, sorted by memory, filtered by vendor; then only what the driver selects.
	p.eval(`(() => { const b = document.getElementById("matches-more"); if (!b.hidden) b.click();
		document.querySelector('th[data-sort="memoryGiB"] button').click();
		const s = document.getElementById("filter-vendor"); s.selectedIndex = 1; s.dispatchEvent(new Event("change", {bubbles: true}));
		return true; })()`, nil)
	p.waitEval(`!!document.querySelector('th[aria-sort]') && document.getElementById("filter-vendor").value !== ""`, "the table sorted and filtered")
	a.check(p, prefix+"table: show all, sorted, filtered")
	p.eval(`(() => { const s = document.getElementById("filter-vendor"); s.value = ""; s.dispatchEvent(new Event("change", {bubbles: true}));
		document.getElementById("filter-selectable").click(); return true; })()`, nil)
	a.check(p, prefix+"table: only selectable")

	// The hardware panel with a device picked.
	p.eval(`(() => { const s = document.getElementById("hw-on"); s.value = "nvidia-rtx-4090"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
	p.waitEval(`document.querySelectorAll("#hw-fitting button").length > 0`, "the popular models that fit an RTX 4090")
	p.waitText("hw-text", nonEmpty, "the estimate")
	a.check(p, prefix+"hardware: device picked")

	// The cluster panel: a check with results, then a bad paste.
	slices, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "mixed.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.paste(string(slices))
	p.waitEval(`!document.getElementById("cluster-result").hidden && document.querySelectorAll("#cluster-devices tr").length > 0`, "the cluster check's table")
	p.waitText("cluster-verdict", nonEmpty, "the cluster verdict")
	a.check(p, prefix+"cluster: results")
	p.paste(strings.Replace(string(slices), "value: 81559Mi", "value: lots", 1))
	p.waitText("cluster-error", nonEmpty, "the cluster error")
	a.check(p, prefix+"cluster: bad paste")

	// A field refused: its message, the error above the result, the stale result.
	p.setField("efficiencyPct", "500")
	p.waitText("efficiencyPct-err", nonEmpty, "the efficiency field's message")
	a.check(p, prefix+"field refused")

	// A custom size (its fields shown), then a device by its numbers with a memory refused.
	p.run(chromedp.Click("#source-custom", chromedp.ByQuery))
	p.setField("paramsB", "13")
	p.waitEval(`!document.getElementById("custom-fields").hidden`, "the custom size's fields")
	a.check(p, prefix+"custom size")
	p.setField("efficiencyPct", "60")
	p.eval(`(() => { const s = document.getElementById("hw-on"); s.value = "custom"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
	p.setField("hw-memory", "-5")
	p.waitEval(`document.getElementById("hw-memory").getAttribute("aria-invalid") === "true"`, "the device memory field marked invalid")
	a.check(p, prefix+"hardware: by its numbers, memory refused")
	p.setField("hw-memory", "24")

	// The model picker open with suggestions, one of them active.
	p.run(chromedp.Click("#source-catalog", chromedp.ByQuery))
	p.run(chromedp.Focus("#model", chromedp.ByQuery))
	p.clearFocused()
	p.typeText("llama-2-7b")
	p.waitEval(`document.getElementById("model").getAttribute("aria-expanded") === "true" &&
		document.querySelectorAll("#model-list [role=option]").length > 0`, "the combobox's list")
	p.key(kb.ArrowDown)
	a.check(p, prefix+"model picker open")
	p.key(kb.Escape)
}
