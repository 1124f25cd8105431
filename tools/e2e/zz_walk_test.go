package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/fitclaim/fitclaim/target"
)

func TestZZWalk(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 900)
	tg := targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia"; x.On = "nvidia-h200" })
	p.open(target.Permalink(tg))
	p.waitEval(`document.getElementById("hw-text").textContent !== ""`, "hw")
	b, _ := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "real-fleet.yaml"))
	p.paste(string(b))
	p.waitEval(`!document.getElementById("cluster-result").hidden`, "cluster")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitEval(`document.getElementById("deploy-yaml").textContent !== ""`, "deploy")
	p.eval(`document.activeElement.blur(); window.scrollTo(0,0); true`, nil)

	seen := 0
	for i := 0; i < 400; i++ {
		p.key(kb.Tab)
		var r struct{ Desc, Outline, Name string; Width float64; Offscreen bool }
		p.eval(`(() => { const e = document.activeElement; if (!e || e === document.body) return {desc: "body"};
			const cs = getComputedStyle(e); const rect = e.getBoundingClientRect();
			return {desc: e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + String(e.className).replace(/ /g, ".") : "") + " " + (e.textContent || "").trim().slice(0, 30),
			 outline: cs.outlineStyle + " " + cs.outlineColor, width: parseFloat(cs.outlineWidth), offscreen: rect.width < 2 || rect.height < 2}; })()`, &r)
		if r.Desc == "body" {
			break
		}
		a := p.ax(":focus")
		t.Logf("%3d %-60.60s | %s %.0f off=%v | name=%q role=%s", i, r.Desc, r.Outline, r.Width, r.Offscreen, a.Name, a.Role)
		seen++
	}
}
