package e2e

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/fitclaim/fitclaim/target"
)

// The page's engine is built without the model catalog (catalog/source.go): on a permalink
// load boot.js fetches the link's shard beside the engine and makes the first claim from it,
// then the whole table; a link the shard cannot answer alone (a substring of a name) waits for
// the whole table. Either way the page shows the engine's claim, adopted once, and fetches the
// whole table once.
func TestPermalinkFirstClaimFromShard(t *testing.T) {
	s := serve(t)
	for _, c := range []struct {
		model string
		waits bool // the shard cannot answer: the first claim waits for the whole table
	}{
		{exampleModel, false},
		{"nousresearch/llama-2-7b-chat-hf", false},
		{"LLAMA-2-7B-CHAT-HF", false}, // without the publisher, in upper case: the most downloaded
		{"Llama-2-7b-chat-h", true},   // a substring
	} {
		tg := targetWith(func(x *target.Target) { x.Model = c.model; x.MinTps = 30 })
		frag := "m=" + url.QueryEscape(c.model) + "&tps=30"
		t.Run(c.model, func(t *testing.T) {
			// A new browser each time: once a service worker controls the page, boot.js loads
			// the whole table from its cache instead (TestOffline).
			p := newPage(t, s.URL, 1280, 1000)
			want := render(t, tg)
			p.open(frag)
			got := p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML for #"+frag)
			sameText(t, "YAML", want.YAML, got)
			sameText(t, "JSON", want.JSON, p.text("json"))
			var marks struct {
				Adopted, Waits, Shown, Catalog int
				ShownAt, CatalogAt             float64
				Shards, Tables                 int
			}
			p.eval(`(() => {
				const m = (n) => performance.getEntriesByName("fitclaim:" + n);
				const at = (n) => m(n).length ? m(n)[0].startTime : -1;
				const res = performance.getEntriesByType("resource").map((e) => e.name);
				return {Adopted: m("early-adopted").length, Waits: m("early-waits").length, Shown: m("early-shown").length,
					Catalog: m("catalog").length, ShownAt: at("early-shown"), CatalogAt: at("catalog"),
					Shards: res.filter((n) => n.includes("/assets/catalog-shard.")).length,
					Tables: res.filter((n) => /\/assets\/catalog\.[0-9a-f]+\.txt$/.test(n)).length};
			})()`, &marks)
			if marks.Adopted != 1 || marks.Shown != 1 || marks.Catalog != 1 {
				t.Errorf("marks early-adopted %d, early-shown %d, catalog %d: want each once", marks.Adopted, marks.Shown, marks.Catalog)
			}
			if marks.Shards != 1 || marks.Tables != 1 {
				t.Errorf("fetched %d shards and the whole table %d times, want one and once", marks.Shards, marks.Tables)
			}
			if c.waits {
				if marks.Waits != 1 || marks.ShownAt < marks.CatalogAt {
					t.Errorf("#%s: the first claim did not wait for the whole table (early-waits %d, shown at %.0f ms, table at %.0f ms)", frag, marks.Waits, marks.ShownAt, marks.CatalogAt)
				}
			} else if marks.Waits != 0 || marks.ShownAt > marks.CatalogAt {
				t.Errorf("#%s: the first claim was not made from the shard (early-waits %d, shown at %.0f ms, table at %.0f ms)", frag, marks.Waits, marks.ShownAt, marks.CatalogAt)
			}
			p.noProblems()
		})
	}
}

// The rest of a link's first claim (the words, the pictures, the accelerator table, the panels)
// comes from the render boot.js made from the link's shard: with the whole table held back (the
// browser pauses its request), the page adopts the claim and draws all of it; it says it is ready
// (<html data-state>) once the whole table has come, and the rest drawn from the shard is the rest
// the whole table draws, element for element. Before, app.js adopted the claim only once the
// whole table was in the engine.
func TestPermalinkRestFromShard(t *testing.T) {
	s := serve(t)
	for _, tg := range []target.Target{
		targetWith(func(x *target.Target) { x.Model = exampleModel; x.MinTps = 30 }),
		targetWith(func(x *target.Target) {
			x.Model, x.Sizing, x.Context, x.Sequences, x.Driver = "Qwen/Qwen3-30B-A3B-Instruct-2507", target.SizingKV, 32768, 4, "nvidia"
		}),
	} {
		frag := target.Permalink(tg)
		t.Run(tg.Model, func(t *testing.T) {
			p := newPage(t, s.URL, 1280, 1000)
			paused := make(chan fetch.RequestID, 4)
			chromedp.ListenTarget(p.ctx, func(ev any) {
				if e, ok := ev.(*fetch.EventRequestPaused); ok {
					paused <- e.RequestID
				}
			})
			// The whole table (assets/catalog.<hash>.txt), not its shards (assets/catalog-shard.…).
			p.run(fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/assets/catalog.*"}}))
			want := render(t, tg)
			p.run(chromedp.Navigate(p.base + "/#" + frag))
			var held fetch.RequestID
			select {
			case held = <-paused:
			case <-time.After(patient(30 * time.Second)):
				t.Fatal("the page never asked for the whole catalog")
			}
			// waitText waits for <html data-drawing> to go too: the table, pictures and panels drawn.
			p.waitText("yaml", func(s string) bool { return s == want.YAML }, "the engine's YAML for #"+frag)
			// (The summary's room, kept for a link's first claim and let go by the render below, aside.)
			const snapshot = `["summary", "charts", "explain", "warnings-box", "matches-note", "matches-caption", "matches"]
				.map((id) => id + ": " + document.getElementById(id).outerHTML.replace(/^(<div id="summary"[^>]*?) data-room=""/, "$1")).join("\n")`
			var fromShard, state string
			var rows int
			var marks struct{ Drawn, Catalog int }
			p.eval(snapshot, &fromShard)
			p.eval(`document.documentElement.dataset.state || ""`, &state)
			p.eval(`document.getElementById("matches").rows.length`, &rows)
			p.eval(`({Drawn: performance.getEntriesByName("fitclaim:drawn").length, Catalog: performance.getEntriesByName("fitclaim:catalog").length})`, &marks)
			if rows == 0 || marks.Drawn != 1 || marks.Catalog != 0 {
				t.Errorf("with the whole catalog held back: %d table rows, marks drawn %d, catalog %d; want rows, 1, 0", rows, marks.Drawn, marks.Catalog)
			}
			if state == "ready" {
				t.Errorf("the page says it is ready before the whole catalog came")
			}
			sameText(t, "JSON", want.JSON, p.text("json"))

			// The whole table now: the page is ready, and a render of the same form from the whole
			// table draws the same rest.
			p.run(fetch.ContinueRequest(held))
			p.waitReady()
			var shown int
			p.eval(`window.fitclaimPage.state.shownSeq`, &shown)
			p.eval(`window.fitclaimPage.rerender("commit")`, nil)
			var again bool
			p.run(chromedp.Poll(fmt.Sprintf(`window.fitclaimPage.state.shownSeq > %d && !("drawing" in document.documentElement.dataset)`, shown),
				&again, chromedp.WithPollingTimeout(patient(30*time.Second))))
			sameText(t, "YAML", want.YAML, p.text("yaml"))
			var fromWhole string
			p.eval(snapshot, &fromWhole)
			sameText(t, "the rest drawn from the shard and from the whole catalog", fromWhole, fromShard)
			p.noProblems()
		})
	}
}
