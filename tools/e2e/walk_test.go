package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/target"
)

// Tab from the top of the page to its end with every panel open (a claim, the hardware panel's
// device, the Deployment tab, a cluster's devices): every stop has an accessible name and a
// visible focus ring (3 px; a visually hidden file input rings its label), nothing off screen
// takes the focus, and the walk ends (no trap). Checked in the accessibility audit of
// 2026-12-03 (docs/AUDIT.md): it held before.
func TestTabWalkNamedAndVisible(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 900)
	tg := targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia"; x.On = "nvidia-h200" })
	p.open(target.Permalink(tg))
	p.waitEval(`document.getElementById("hw-text").textContent !== ""`, "the hardware estimate")
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "real-fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.paste(string(b))
	p.waitEval(`!document.getElementById("cluster-result").hidden`, "the cluster's devices")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitEval(`document.getElementById("deploy-yaml").textContent !== ""`, "the Deployment")
	p.eval(`document.querySelector(".skip").focus(); true`, nil)
	stops := 0
	for ; stops < 400; stops++ {
		p.key(kb.Tab)
		var r struct {
			Desc, Style string
			Width       float64
			Off, Ring   bool
		}
		p.eval(`(() => { const e = document.activeElement; if (!e || e === document.body) return {desc: ""};
			const ringed = (n) => { const cs = getComputedStyle(n); return cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2; };
			const rect = e.getBoundingClientRect(), hiddenFile = e.type === "file" && e.classList.contains("sr-only");
			return {desc: e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + (e.textContent || "").trim().slice(0, 30),
				off: !hiddenFile && (rect.width < 2 || rect.height < 2),
				ring: hiddenFile ? !!e.labels[0] && ringed(e.labels[0]) : ringed(e)}; })()`, &r)
		if r.Desc == "" {
			break
		}
		if a := p.ax(":focus"); a.Name == "" {
			t.Errorf("stop %d, %s: no accessible name (role %s)", stops, r.Desc, a.Role)
		}
		if !r.Ring || r.Off {
			t.Errorf("stop %d, %s: focus ring shown %v, off screen %v", stops, r.Desc, r.Ring, r.Off)
		}
	}
	if stops < 60 || stops == 400 {
		t.Errorf("%d Tab stops from the skip link to the end of the page", stops)
	}
	p.noProblems()
}
