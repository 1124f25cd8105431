package e2e

import (
	"net/url"
	"testing"

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
