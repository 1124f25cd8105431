package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/target"
)

// What the page looks like, from the screenshots of docs/AUDIT.md's "the page as it looks"
// (s15-look): each case is a thing a user saw wrong, measured in the laid-out page.

// shifts records the page's layout shifts from its first frame on (window.__shifts: the
// ids of the elements each shift moved). Call before open.
func (p *page) shifts() {
	p.t.Helper()
	p.run(chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(`window.__shifts = [];
			new PerformanceObserver((l) => { for (const e of l.getEntries()) for (const s of e.sources)
				if (s.node && s.node.id) window.__shifts.push(s.node.id + " " + Math.round(s.previousRect.top) + " -> " + Math.round(s.currentRect.top)); })
				.observe({type: "layout-shift", buffered: true});`).Do(ctx)
		return err
	}))
}

// Once the engine is in, nothing the user already sees moves: the loading status was a box in
// the flow above the form and the claim, and its going moved the whole page (#app) up 74 px,
// ~0.3–1.6 s after the claim was on screen (a bare visit and a link, phone and desktop).
func TestNothingMovesWhenEngineIsIn(t *testing.T) {
	s := serve(t)
	for _, w := range []int64{390, 1280} {
		for _, frag := range []string{"", readmeLink, kvLink} {
			p := newPage(t, s.URL, w, 900)
			p.shifts()
			p.open(frag)
			p.waitEval(`!("drawing" in document.documentElement.dataset)`, "the claim drawn")
			var moved []string
			p.eval(`window.__shifts.filter((s) => /^(app|result) /.test(s))`, &moved)
			for _, m := range moved {
				t.Errorf("%d px, #%s: moved while loading: %s", w, frag, m)
			}
			// A link's first frames showed the cluster panel (and at 390 px the form's empty box) where
			// the claim then came, which pushed them off the screen.
			var pushed []string
			p.eval(`window.__shifts.filter((s) => /^(cluster|form) /.test(s))`, &pushed)
			for _, m := range pushed {
				t.Errorf("%d px, #%s: seen, then pushed away by the claim: %s", w, frag, m)
			}
			// The bare visit's summary is in the page (tools/cmd/site): drawn after the first paint,
			// it pushed the claim under it down 143 px (1280) and 244 px (390). A link's summary is
			// written by app.js after boot.js has shown the link's YAML: it pushed the YAML down 143
			// px (1280) and 293 px (390; README's link) until its room was kept (#summary[data-room]).
			var output []string
			p.eval(`window.__shifts.filter((s) => /^output /.test(s))`, &output)
			for _, m := range output {
				t.Errorf("%d px, #%s: the claim moved: %s", w, frag, m)
			}
			// The pictures are drawn into room kept for them (a bare visit's example, a link's first
			// claim): drawn into the flow, they pushed the YAML down 143 px (1280) and 244 px (390).
			var room []float64
			p.eval(`(() => { const c = document.getElementById("charts"), h = c.getBoundingClientRect().height, kids = Array.from(c.children);
				c.replaceChildren(); document.documentElement.dataset.drawing = "";
				const r = c.getBoundingClientRect().height;
				c.append(...kids); delete document.documentElement.dataset.drawing; return [h, r]; })()`, &room)
			if len(room) != 2 || room[1] < room[0]-40 || room[1] > room[0]+40 {
				t.Errorf("%d px, #%s: the pictures take %v px, the room kept for them before %v", w, frag, room[0], room[1])
			}
			if !p.visible("app") || p.visible("boot") {
				t.Errorf("%d px: the status is still shown once the engine is in", w)
			}
			if frag == readmeLink {
				// The room kept is the default driver's summary's, not much more.
				var gap float64
				p.eval(`(() => { const s = document.getElementById("summary"); return s.getBoundingClientRect().bottom - s.lastElementChild.getBoundingClientRect().bottom; })()`, &gap)
				if gap > 24 {
					t.Errorf("%d px, #%s: %.0f px blank under the summary", w, frag, gap)
				}
			}
			if frag != "" {
				// The kept room goes with the next answer: no blank under an edited claim's summary.
				p.setField("minTps", "25")
				p.waitEval(`!("room" in document.getElementById("summary").dataset) && !("drawing" in document.documentElement.dataset)`, "the room let go after an edit")
				var gap float64
				p.eval(`(() => { const s = document.getElementById("summary"); return s.getBoundingClientRect().bottom - s.lastElementChild.getBoundingClientRect().bottom; })()`, &gap)
				if gap > 1 {
					t.Errorf("%d px, #%s: %.0f px blank under the summary after an edit", w, frag, gap)
				}
			}
		}
	}
}

// README's example link (llmfit's driver: a three-paragraph summary) and a kv link on NVIDIA's
// driver (two paragraphs).
var (
	readmeLink = target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel; x.MinTps = 30; x.EfficiencyPct = 60 }))
	kvLink     = target.Permalink(targetWith(func(x *target.Target) {
		x.Model = "Qwen/Qwen3-30B-A3B-Instruct-2507"
		x.Sizing = target.SizingKV
		x.Context = 32768
		x.Sequences = 4
		x.Driver = "nvidia"
	}))
)

// At 1280 px, light and dark: the form's side-by-side boxes line up, the cluster panel's boxes
// are the form's fields (edge, corners, padding, background: they were Chromium's bare
// textarea, grey #3b3b3b in the dark scheme, text against the edge), a refused paste is marked
// as a refused field is, a code box is not glued to the buttons under it, the table's green edge
// is only on rows whose verdict is green, and each picture's marks are in its legend.
func TestPageLooksRight(t *testing.T) {
	s := serve(t)
	for _, dark := range []bool{false, true} {
		p := newPage(t, s.URL, 1280, 900)
		if dark {
			p.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
		}
		p.open(target.Permalink(targetWith(func(x *target.Target) {
			x.Model = "Qwen/Qwen3-30B-A3B-Instruct-2507"
			x.Sizing = target.SizingKV
			x.Context = 32768
			x.Sequences = 4
			x.Driver = "nvidia"
		})))
		p.waitEval(`!("drawing" in document.documentElement.dataset) && document.querySelectorAll("#matches tr").length > 10`, "the claim drawn")
		var tops []float64
		p.eval(`["context", "sequences"].map((id) => document.getElementById(id).getBoundingClientRect().top)`, &tops)
		if len(tops) != 2 || tops[0] != tops[1] {
			t.Errorf("dark %v: Context's and Concurrent sequences' boxes side by side at different heights: %v", dark, tops)
		}
		var unlike []string
		p.eval(`(() => { const a = getComputedStyle(document.getElementById("slices")), b = getComputedStyle(document.getElementById("minTps")), out = [];
			for (const k of ["borderTopColor", "borderTopLeftRadius", "backgroundColor", "color", "paddingLeft"]) if (a[k] !== b[k]) out.push(k + ": " + a[k] + " (a field: " + b[k] + ")");
			return out; })()`, &unlike)
		for _, u := range unlike {
			t.Errorf("dark %v: the cluster box is not drawn as the form's fields: %s", dark, u)
		}
		var edge string
		p.eval(`(() => { const r = Array.from(document.querySelectorAll("#matches tr")).find((r) => r.querySelector(".verdict.unsel"));
			return r ? getComputedStyle(r.firstElementChild).boxShadow : "no unselectable row"; })()`, &edge)
		if edge != "none" {
			t.Errorf("dark %v: a row whose verdict is grey (another driver's device) has the green edge: %s", dark, edge)
		}
		var legend []string
		p.eval(`Array.from(document.querySelectorAll("#chart-speed text")).map((t) => t.textContent).filter((s) => /take/.test(s) || s === "it cannot")`, &legend)
		if len(legend) != 2 {
			t.Errorf("dark %v: the speed picture's two bar colours are not in a legend: %q", dark, legend)
		}
		p.run(chromedp.Click("#tab-deploy", chromedp.ByQuery))
		p.waitEval(`document.getElementById("deploy-yaml").textContent !== ""`, "the Deployment")
		var gap float64
		p.eval(`(() => { const pre = document.getElementById("deploy-yaml").parentElement;
			return pre.nextElementSibling.getBoundingClientRect().top - pre.getBoundingClientRect().bottom; })()`, &gap)
		if gap < 8 {
			t.Errorf("dark %v: the Deployment's YAML box and the buttons under it are %.0f px apart", dark, gap)
		}
		// Two rows under each other said "kubectl, from the API": the Deployment's and the claim's.
		var labels []string
		p.eval(`Array.from(document.querySelectorAll("#output .actions .label")).filter((l) => l.checkVisibility()).map((l) => l.textContent)`, &labels)
		if len(labels) != 2 || labels[0] == labels[1] {
			t.Errorf("dark %v: the Deployment tab's two kubectl rows are not told apart: %q", dark, labels)
		}
		p.run(chromedp.Click("#tab-yaml", chromedp.ByQuery))
		p.pasteInto("slices", "kind: Nonsense")
		p.run(chromedp.Click("#slices-check", chromedp.ByQuery))
		p.waitEval(`document.getElementById("slices").getAttribute("aria-invalid") === "true"`, "the refused paste")
		var marked bool
		p.eval(`getComputedStyle(document.getElementById("slices")).borderTopColor === getComputedStyle(document.getElementById("cluster-error")).color`, &marked)
		if !marked {
			t.Errorf("dark %v: the refused cluster box is not marked as a refused field is (the error's colour)", dark)
		}
		// The memory picture's free part and the device's end are marks (WCAG 1.4.11, 3:1): drawn in
		// --border, they were 1.2–1.6:1 on the panel, the free part near invisible in the dark scheme.
		var edges []string
		p.eval(`(() => { const hex = (c) => "#" + c.match(/\d+/g).slice(0, 3).map((n) => (+n).toString(16).padStart(2, "0")).join("");
			const panel = hex(getComputedStyle(document.getElementById("result")).backgroundColor);
			return [panel].concat(["#chart-memory rect.free", "#chart-memory line.axis"].map((q) => hex(getComputedStyle(document.querySelector(q)).stroke))); })()`, &edges)
		if len(edges) != 3 {
			t.Fatalf("dark %v: the memory picture has no free part or device end: %q", dark, edges)
		}
		for i, what := range []string{"free part's edge", "device's end"} {
			if r := contrast(t, edges[i+1], edges[0]); r < 3 {
				t.Errorf("dark %v: the memory picture's %s %s on the panel %s is %.2f:1, below 3:1", dark, what, edges[i+1], edges[0], r)
			}
		}
		p.shoot("#cluster", map[bool]string{false: "look-cluster-1280.png", true: "look-cluster-1280-dark.png"}[dark])
		p.noProblems()
	}

	// A model no device holds: the memory picture draws the part that does not fit, which its
	// legend calls "short" (the legend had the red key and the bar nothing red).
	p := newPage(t, s.URL, 1280, 900)
	p.open(target.Permalink(targetWith(func(x *target.Target) {
		x.Model = "meta-llama/Llama-3.1-405B-Instruct"
		x.Quant = "F16"
		x.MinTps = 100
	})))
	p.waitEval(`!("drawing" in document.documentElement.dataset) && !!document.getElementById("chart-memory")`, "the pictures")
	var over []float64
	p.eval(`Array.from(document.querySelectorAll("#chart-memory rect.over")).map((r) => r.width.baseVal.value)`, &over)
	if len(over) != 2 || over[0] < 50 {
		t.Errorf("the memory picture of a model too big: %v px of rect.over (want the legend's key and the part short under the bar)", over)
	}
}

// At 390 px the accelerator table's cards keep each figure beside its caption (Bandwidth's
// "8,000" went under "Bandwidth, GB/s", alone at the left), and the cluster panel's cards
// name what each figure is: they were "dgx-h100-0 / gpu.nvidia.com / dgx-h100-0 / gpu-0 /
// yes / model", the column headers out of sight.
func TestPhoneCardsSayWhatEachFigureIs(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 390, 844)
	p.open(target.Permalink(targetWith(func(x *target.Target) { x.Model = exampleModel; x.Driver = "nvidia" })))
	p.waitEval(`!("drawing" in document.documentElement.dataset) && document.querySelectorAll("#matches tr").length > 10`, "the claim drawn")
	var split []string
	p.eval(`Array.from(document.querySelectorAll("#matches tr:not([hidden]) td.num")).filter((td) => {
		const r = document.createRange(); r.selectNodeContents(td);
		return td.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(td).lineHeight) - 2 || r.getClientRects().length > 1 && new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top))).size > 1;
	}).map((td) => td.dataset.label + " " + td.textContent)`, &split)
	for _, c := range split {
		if c != "" {
			t.Errorf("390 px: a card's figure is not on its caption's line: %s", c)
		}
	}
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "cluster", "testdata", "real-fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.paste(string(b))
	p.waitEval(`!document.getElementById("cluster-result").hidden && document.querySelectorAll("#cluster-devices tr").length > 10`, "the cluster table")
	var bare []string
	p.eval(`Array.from(document.querySelectorAll("#cluster-devices td")).filter((td) => !/^"(Node|Driver|Pool|Matches|Request|Why not) "$/.test(getComputedStyle(td, "::before").content)).map((td) => td.textContent)`, &bare)
	if len(bare) > 0 {
		t.Errorf("390 px: %d cluster cards' figures without their column's name, e.g. %q", len(bare), bare[0])
	}
	var first string
	p.eval(`(() => { const tr = document.querySelector("#cluster-devices tr"), th = tr.querySelector("th");
		return Array.from(tr.children).every((c) => c === th || c.getBoundingClientRect().top > th.getBoundingClientRect().top) ? "device" : "not the device"; })()`, &first)
	if first != "device" {
		t.Errorf("390 px: a cluster card does not begin with its device's name")
	}
	p.shoot("#cluster-result", "look-cluster-cards-390.png")
	p.noProblems()
}

// At 1280 px, light and dark, every accelerator shown (Show all): a verdict pill is one line, or
// two broken before its "and" ("✓ fits on one device" took two lines in a 10.5 rem column, "✗
// too little memory and too slow" three), and the table does not scroll sideways (a split's
// "(needs 96 Gi each)" and a driver name like “AMD_Instinct_MI350_OAM” widened it to 842–887 px
// in 796).
func TestVerdictPillsOnOneLine(t *testing.T) {
	s := serve(t)
	big := target.Permalink(targetWith(func(x *target.Target) {
		x.Model = "meta-llama/Llama-3.1-70B-Instruct"
		x.MinTps = 30
		x.Driver = "nvidia"
	}))
	for _, dark := range []bool{false, true} {
		p := newPage(t, s.URL, 1280, 900)
		if dark {
			p.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
		}
		for _, frag := range []string{readmeLink, kvLink, big} {
			p.open(frag)
			p.waitEval(`!("drawing" in document.documentElement.dataset) && document.querySelectorAll("#matches tr").length > 10`, "the claim drawn")
			p.eval(`(() => { const b = document.getElementById("matches-more"); if (b.getAttribute("aria-expanded") !== "true") b.click(); return true; })()`, nil)
			p.waitEval(`document.querySelectorAll("#matches tr:not([hidden])").length > 100`, "every accelerator shown")
			var wrapped []string
			p.eval(`(() => { const out = new Set();
				for (const v of document.querySelectorAll("#matches tr:not([hidden]) .verdict")) {
					const line = parseFloat(getComputedStyle(v).lineHeight), parts = v.textContent.split(/ (?=and )/).length;
					if (v.getBoundingClientRect().height > parts * line + 8) out.add(v.textContent + ": " + Math.round(v.getBoundingClientRect().height) + " px, " + parts + " part(s) of " + line + " px");
				}
				return Array.from(out); })()`, &wrapped)
			for _, w := range wrapped {
				t.Errorf("dark %v, #%s: a verdict pill wraps: %s", dark, frag, w)
			}
			var wide []float64
			p.eval(`(() => { const w = document.querySelector(".tablewrap"); return [w.scrollWidth, w.clientWidth]; })()`, &wide)
			if len(wide) != 2 || wide[0] > wide[1]+1 {
				t.Errorf("dark %v, #%s: the accelerator table scrolls sideways at 1280 px: %v", dark, frag, wide)
			}
			if frag == big && !dark {
				p.shoot(".tablewrap", "look-table-1280.png")
			}
		}
		p.noProblems()
	}
}

// The speed picture names each accelerator whole, at 390 and 1280 px: the names were cut at 21
// characters ("NVIDIA GB200 (one GP…", "NVIDIA GH200 (144 GB…"). A long one takes two lines
// beside its bar, and no name runs out of the picture or into the bars.
func TestSpeedNamesWhole(t *testing.T) {
	s := serve(t)
	for _, w := range []int64{390, 1280} {
		p := newPage(t, s.URL, w, 900)
		p.open(kvLink)
		p.waitEval(`!("drawing" in document.documentElement.dataset) && !!document.getElementById("chart-speed")`, "the pictures")
		var got struct {
			Names, Table string
			Out          []string
		}
		p.eval(`(() => { const svg = document.querySelector("#chart-speed svg"), box = svg.getBoundingClientRect(),
				// (the last two rects are the legend's keys)
				bar = Math.min(...Array.from(svg.querySelectorAll("rect")).slice(0, -2).map((r) => r.getBoundingClientRect().left)),
				names = Array.from(svg.querySelectorAll("text[text-anchor=end]"));
			return {
				Names: names.map((t) => t.textContent).join(" "),
				Table: Array.from(document.querySelectorAll("#matches tr .acc")).slice(0, 10).map((a) => a.textContent).join(" "),
				Out: names.filter((t) => { const r = t.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > bar + 0.5; })
					.map((t) => t.textContent + " " + Math.round(t.getBoundingClientRect().left - box.left) + ".." + Math.round(t.getBoundingClientRect().right - box.left) + " (bars from " + Math.round(bar - box.left) + ")"),
			}; })()`, &got)
		if got.Names != got.Table || strings.Contains(got.Names, "…") {
			t.Errorf("%d px: the speed picture's names %q, want the table's first ten whole: %q", w, got.Names, got.Table)
		}
		for _, o := range got.Out {
			t.Errorf("%d px: a speed picture's name runs out of its column: %s", w, o)
		}
		p.noProblems()
	}
}
