package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
// name; the figures are in the line under it), the Deployment tab's fields their placeholders
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
		// Every device's name whole in the closed select; at 390 px the two names of 44 and 49
		// characters cannot be (a select does not wrap), and the line under it says them whole.
		var over []string
		p.eval(fitsJS+`("#hw-on", true)`, &over)
		var cut []string
		p.eval(`Array.from(document.getElementById("hw-on").options).filter((o) => o.text.length >= 44).map((o) => o.value)`, &cut)
		if len(over) > len(cut) || (w == 1280 && len(over) > 0) {
			t.Errorf("%d px: cut off: %s", w, strings.Join(over, "; "))
		}
		for _, id := range cut {
			p.eval(`(() => { const s = document.getElementById("hw-on"); s.value = `+jsString(id)+`; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, nil)
			var whole bool
			p.eval(`(() => { const s = document.getElementById("hw-on"), f = document.getElementById("hw-on-figures");
				return f.textContent.startsWith(s.selectedOptions[0].text + ": ") && f.scrollWidth <= f.clientWidth && f.checkVisibility(); })()`, &whole)
			if !whole {
				t.Errorf("%d px: %s: its whole name is not under the select: %q", w, id, p.text("hw-on-figures"))
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
