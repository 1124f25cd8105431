package e2e

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/fitclaim/fitclaim/target"
)

func TestZZShots(t *testing.T) {
	s := serve(t)
	os.Setenv("FITCLAIM_ARTIFACTS", "/tmp/a11yshots")
	p := newPage(t, s.URL, 1280, 1000)
	p.open(target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia" })))
	p.waitText("yaml", nonEmpty, "claim")
	p.waitEval(`!!document.querySelector("#chart-speed svg")`, "charts")
	p.screenshot("normal.png")
	p.run(chromedp.Focus("#efficiencyPct", chromedp.ByQuery))
	p.typeText("500")
	p.waitEval(`document.getElementById("stale") && !document.getElementById("stale").hidden`, "stale")
	p.screenshot("stale.png")
	q := newPage(t, s.URL, 400, 900)
	q.open(target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia" })))
	q.waitText("yaml", nonEmpty, "claim")
	for _, sel := range []string{"table.matches", "#matches tr", "#matches tr th", "#matches tr td", `th[data-sort="memoryGiB"]`} {
		a := q.ax(sel)
		t.Logf("narrow %s: role %q name %q", sel, a.Role, a.Name)
	}
}
