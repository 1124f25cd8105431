package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Every estimated speed on the page is the engine's figure, printed by its one rule
// (fit.SpeedDecimals: whole at 10 tok/s and above, a tenth below, more where that would put it on
// the other side of the target): the table's speeds and headroom, the speed chart's bars and its
// words, the hardware panel's estimate. The target, 105 tok/s, is one an AMD MI300X misses by
// 0.25 tok/s: whole, its 104.7 would read "105" beside "too slow", so it keeps its decimal, in
// the table as in the panel, and its headroom reads −0.3 %. Before, every speed had a tenth
// ("74.3") and the bars were whole.
func TestSpeedsPrintedByTheRule(t *testing.T) {
	s := serve(t)
	p := newPage(t, s.URL, 1280, 1000)
	tg := targetWith(func(x *target.Target) {
		x.Model, x.Sizing, x.Context, x.Sequences, x.Driver, x.MinTps, x.On =
			"meta-llama/Llama-3.1-8B-Instruct", "kv", 32768, 4, "nvidia", 105, "amd-mi300x"
	})
	frag := target.Permalink(tg)
	p.open(frag)
	res := render(t, tg)
	want := estimateText(t, frag)
	p.waitText("hw-text", func(s string) bool { return s == want }, "the engine's estimate on an MI300X")
	p.waitEval(`(() => { const rs = document.querySelectorAll("#matches tr");
		return rs.length > 0 && rs[rs.length - 1].children[2].textContent !== ""; })()`, "every row of the table written")

	var rows [][]string // name, speed, headroom, verdict
	p.eval(`Array.from(document.querySelectorAll("#matches tr")).map((tr) =>
		[tr.querySelector(".acc").textContent, tr.children[2].textContent, tr.children[3].textContent, tr.querySelector(".verdict").textContent])`, &rows)
	if len(rows) != len(res.Matches) {
		t.Fatalf("%d rows, the engine judges %d accelerators", len(rows), len(res.Matches))
	}
	whole, mi300x := 0, ""
	for i, m := range res.Matches {
		wantTps := fit.SpeedText(m.EstTps, tg.MinTps)
		if !m.Fits() && m.DevicesNeeded > tg.Count && m.NeededTps > 0 {
			wantTps = fit.SpeedText(m.NeededTps, tg.MinTps) + " on " + strconv.Itoa(m.DevicesNeeded)
		}
		h := fit.RoundHeadroom(m.EstTps, tg.MinTps)
		wantHead := strconv.FormatFloat(h, 'f', -1, 64) + "%"
		if h > 0 {
			wantHead = "+" + wantHead
		} else if h < 0 {
			wantHead = "−" + wantHead[1:]
		}
		got := rows[i]
		if got[0] != m.Accelerator.Name || strings.ReplaceAll(got[1], ",", "") != wantTps || strings.ReplaceAll(got[2], ",", "") != wantHead {
			t.Errorf("row %d: %q, want %s, %s tok/s, %s", i, got, m.Accelerator.Name, wantTps, wantHead)
		}
		if !strings.Contains(got[1], ".") {
			whole++
		}
		if m.Accelerator.ID == "amd-mi300x" {
			mi300x = got[1]
			if got[1] != "104.7" || got[2] != "−0.3%" || !strings.Contains(got[3], "too slow") {
				t.Errorf("the MI300X reads %q; want 104.7 tok/s, −0.3%%, too slow (its whole figure, 105, is the target)", got)
			}
		}
	}
	if whole == 0 {
		t.Error("no speed of the table is whole")
	}
	// The panel says the table's figure for the same device.
	if m := regexp.MustCompile(`speed: ([0-9.]+) tokens/s`).FindStringSubmatch(p.text("hw-text")); m == nil || m[1] != mi300x {
		t.Errorf("the panel says %q for the MI300X, the table %q", m, mi300x)
	}
	// The speed chart: its words and its bars' figures are the table's.
	var chart struct {
		Desc   string
		Labels []string
	}
	p.eval(`(() => { const s = document.querySelector("#chart-speed svg");
		return { desc: s.querySelector("desc").textContent,
			labels: Array.from(s.querySelectorAll("text")).map((e) => e.textContent) }; })()`, &chart)
	bars := 0
	for _, part := range strings.Split(chart.Desc, "; ") {
		name, rest, ok := strings.Cut(part, " tok/s")
		if !ok || strings.HasPrefix(part, "the target is") {
			continue
		}
		i := strings.LastIndexByte(name, ' ')
		figure := name[i+1:]
		found := false
		for _, r := range rows {
			if r[0] == name[:i] {
				found = true
				if tps, _, _ := strings.Cut(r[1], " on "); tps != figure || !strings.Contains(r[1], " on ") != (rest == "") {
					t.Errorf("the chart says %q, the table %q", part, r[1])
				}
			}
		}
		if !found {
			t.Errorf("the chart's %q is no row of the table", part)
		}
		has := false
		for _, l := range chart.Labels {
			has = has || l == figure
		}
		if !has {
			t.Errorf("no bar of the chart reads %s (%q): %q", figure, part, chart.Labels)
		}
		bars++
	}
	if bars == 0 {
		t.Errorf("the chart's words name no speed: %q", chart.Desc)
	}
	p.noProblems()
}
