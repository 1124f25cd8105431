package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/target"
)

// At 320 px (WCAG 1.4.10, reflow: 1280 px at 400 % zoom) nothing but a code block scrolls
// sideways: the claim with the hardware panel, the Deployment tab, a cluster's devices as cards,
// a refused field. Before, the real fleet's cards were 10 px wider than the page (a reason's
// "00-gpu.nvidia.com-dgx-h100-1-ztx8s" in half a card) and the pictures' grid 2 px wider than its box.
func TestReflowAt320(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 320, 800)
	tg := targetWith(func(x *target.Target) {
		x.Model = exampleModel
		x.Driver = "nvidia"
		x.On = "nvidia-h200"
		x.Sizing = "kv"
	})
	p.open(target.Permalink(tg))
	p.waitEval(`document.getElementById("hw-text").textContent !== ""`, "the hardware estimate")
	check := func(state string) {
		var over []string
		p.eval(`(() => { const W = document.documentElement.clientWidth, out = [];
			if (document.documentElement.scrollWidth > W) out.push("the page: " + document.documentElement.scrollWidth + " px in " + W);
			for (const e of document.querySelectorAll("#app *")) {
				if (e.closest("pre") || !e.checkVisibility() || e.closest(".sr-only") || e.clientWidth === 0) continue;
				if (getComputedStyle(e).overflowX === "visible" && e.scrollWidth > e.clientWidth + 1 && e.tagName !== "TR")
					out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + "." + e.className + ": " + e.scrollWidth + " px in " + e.clientWidth);
			}
			return out; })()`, &over)
		for _, o := range over {
			t.Errorf("320 px, %s: wider than its box: %s", state, o)
		}
	}
	check("the claim")
	p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
	p.waitEval(`document.getElementById("deploy-yaml").textContent !== ""`, "the Deployment")
	check("the Deployment tab")
	p.run(chromedp.Click("#tab-yaml", chromedp.ByQuery))
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "real-fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.paste(string(b))
	p.waitEval(`!document.getElementById("cluster-result").hidden`, "the cluster's devices")
	check("the cluster's devices")
	p.setField("efficiencyPct", "500")
	p.waitText("efficiencyPct-err", nonEmpty, "the refusal")
	check("a refused field")
	p.noProblems()
}
