package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// fitsJS lists the controls among sel whose shown text (a select's chosen option, an input's value
// or placeholder; a checkbox shows none) is wider than their box, as TestFormTextFitsItsBox
// measures it; each select is tried on every option when all is set.
const fitsJS = `((sel, all) => { const c = document.createElement("canvas").getContext("2d"), out = [];
	for (const n of document.querySelectorAll(sel)) {
		if (!n.checkVisibility() || n.type === "checkbox" || n.type === "radio") continue; // no text shown: its value is "on"
		const cs = getComputedStyle(n); c.font = cs.font;
		const select = n.tagName === "SELECT";
		const room = n.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - (select || n.type === "number" ? 20 : 0);
		const texts = select ? (all ? Array.from(n.options) : [n.selectedOptions[0] || {}]).map((o) => o.text || "") : [n.value || n.placeholder];
		for (const text of texts) {
			const need = c.measureText(text).width;
			if (need > room) out.push(n.id + " " + JSON.stringify(text) + ": " + Math.round(need) + " px in " + Math.round(room));
		}
	}
	return out; })`

// At 390 and 1280 px the hardware panel's device select shows every catalog device whole (its
// name or, for the four names over 32 characters, the catalog's short name; the figures are in
// the line under it), the Deployment tab's fields their placeholders
// whole, and at 1280 the cluster table keeps each node, driver, pool and device name on one line.
// Before: "NVIDIA H200 SXM (140.4 GiB, 4,800 G…", "the engine's pinned ima…" at 390 px, and
// node names broken at their hyphens at 1280 px (docs/AUDIT.md, the page as users use it).
func TestPanelTextFitsItsBox(t *testing.T) {
	s := serve(t)
	for _, w := range []int64{1280, 390} {
		p := newPage(t, s.URL, w, 900)
		tg := targetWith(func(x *target.Target) { x.Model = exampleModel; x.On = "nvidia-h200" })
		p.open(target.Permalink(tg))
		p.waitEval(`document.getElementById("hw-on").options.length > 100 && document.getElementById("hw-text").textContent !== ""`, "the device list and the estimate")
		figures := p.text("hw-on-figures")
		if figures != "NVIDIA H200 SXM: 140.4 GiB, 4,800 GB/s per device" || !p.visible("hw-on-figures") {
			t.Errorf("%d px: the chosen device's figures under the select: %q", w, figures)
		}
		// Every device's label whole in the closed select: its name, or the catalog's short name
		// where the name is over 32 characters (a select does not wrap; the RTX PRO 6000 Blackwell
		// editions and the GH200 with the 120 GB module were cut at 390 px). Such an option keeps
		// the whole name in its title (the accessible description; an aria-label that does not
		// contain the text shown fails axe's label-content-name-mismatch), and the line under it
		// says it whole.
		var over []string
		p.eval(fitsJS+`("#hw-on", true)`, &over)
		for _, o := range over {
			t.Errorf("%d px: cut off: %s", w, o)
		}
		var short []string
		p.eval(`Array.from(document.getElementById("hw-on").options).filter((o) => o.title).map((o) => o.value)`, &short)
		if len(short) != 4 {
			t.Errorf("%d px: %d options with a short label (%v), want the catalog's 4", w, len(short), short)
		}
		for _, id := range short {
			p.eval(`(() => { const s = document.getElementById("hw-on"); s.value = `+jsString(id)+`; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
			var whole bool
			p.eval(`(() => { const s = document.getElementById("hw-on"), o = s.selectedOptions[0], f = document.getElementById("hw-on-figures");
				return o.title.length > o.text.length && !o.hasAttribute("aria-label") &&
					f.textContent.startsWith(o.title + ": ") && f.scrollWidth <= f.clientWidth && f.checkVisibility(); })()`, &whole)
			if !whole {
				t.Errorf("%d px: %s: its whole name is not its option's title, or not under the select: %q", w, id, p.text("hw-on-figures"))
			}
		}
		p.shoot("#hardware .hw-fields", fmt.Sprintf("fits-hardware-%d.png", w))
		p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
		p.waitEval(`document.getElementById("deploy-yaml").textContent !== ""`, "the Deployment")
		p.eval(fitsJS+`(".deploy-opts input, .deploy-opts select", false)`, &over)
		p.shoot(".deploy-opts", fmt.Sprintf("fits-deploy-%d.png", w))
		for _, o := range over {
			t.Errorf("%d px: cut off: %s", w, o)
		}
		if w != 1280 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "real-fleet.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		p.run(chromedp.Click("#tab-yaml", chromedp.ByQuery))
		p.eval(`(() => { const s = document.getElementById("driver"); s.value = "nvidia"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
		_ = fit.DriverNVIDIA
		p.paste(string(b))
		p.waitEval(`!document.getElementById("cluster-result").hidden && document.querySelectorAll("#cluster-devices tr").length > 10`, "the cluster table")
		var broken []string
		p.eval(`Array.from(document.querySelectorAll("#cluster-devices tr")).flatMap((tr) => Array.from(tr.cells).slice(0, 4).filter((cell) => {
			const r = document.createRange(); r.selectNodeContents(cell);
			return new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top))).size > 1;
		}).map((cell) => JSON.stringify(cell.textContent)))`, &broken)
		for _, b := range broken {
			t.Errorf("1280 px: the cluster table breaks %s across lines", b)
		}
		p.shoot("#cluster-result .tablewrap", "fits-cluster-1280.png")
		var scrolls bool
		p.eval(`(() => { const w = document.querySelector("#cluster-result .tablewrap"); return w.scrollWidth > w.clientWidth; })()`, &scrolls)
		if scrolls {
			t.Errorf("1280 px: the cluster table scrolls sideways")
		}
		p.noProblems()
	}
}

// shoot saves a picture of the element sel to the artifacts.
func (p *page) shoot(sel, name string) {
	p.t.Helper()
	var buf []byte
	p.run(chromedp.Screenshot(sel, &buf, chromedp.ByQuery))
	path := filepath.Join(artifactsDir(p.t), name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}
