package bridge

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// shownMatch is what the page reads of a match: the figures it prints as they come.
type shownMatch struct {
	Name          string
	EstTps        json.Number
	HeadroomPct   json.Number
	NeededTps     json.Number
	DevicesNeeded int
	Fits          bool
	Verdict       string
}

func shownMatches(t *testing.T, link string) (float64, []shownMatch, []fit.Match) {
	t.Helper()
	tg, r := renderLink(t, link)
	var res struct{ Matches []shownMatch }
	if err := json.Unmarshal([]byte(ResultJSON(tg, r)), &res); err != nil {
		t.Fatal(err)
	}
	return tg.MinTps, res.Matches, r.Matches
}

func numText(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// The bridge sends the speeds and the headroom as every surface prints them (fit.RoundSpeed,
// fit.RoundHeadroom), so the page prints them as they come and rounds nothing by a rule of its
// own; the columns spell the same figures (TestColumnsSpellTheSameMatches). Before, the bridge
// sent them unrounded (74.30512…) and the page rounded them to a tenth, its chart's bars whole.
func TestBridgeSendsSpeedsAsPrinted(t *testing.T) {
	for _, link := range []string{
		"m=NousResearch%2FLlama-2-7b-chat-hf", // llmfit's formula
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=32768&seq=4&drv=nvidia",
		"m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&ctx=32768&seq=4&tps=30",
		"p=400&drv=amd&n=2", // needs more devices than asked: neededTps
	} {
		minTps, got, ms := shownMatches(t, link)
		decimals := 0
		for i, m := range ms {
			g := got[i]
			if want := numText(fit.RoundSpeed(m.EstTps, minTps)); string(g.EstTps) != want {
				t.Errorf("%s: %s estTps %s, want %s (%v unrounded)", link, g.Name, g.EstTps, want, m.EstTps)
			}
			if want := numText(fit.RoundHeadroom(m.EstTps, minTps)); string(g.HeadroomPct) != want {
				t.Errorf("%s: %s headroomPct %s, want %s", link, g.Name, g.HeadroomPct, want)
			}
			if m.NeededTps > 0 {
				if want := numText(fit.RoundSpeed(m.NeededTps, minTps)); string(g.NeededTps) != want {
					t.Errorf("%s: %s neededTps %s, want %s", link, g.Name, g.NeededTps, want)
				}
			}
			shown, _ := g.EstTps.Float64()
			if (shown >= minTps) != (m.EstTps >= minTps) {
				t.Errorf("%s: %s estTps %s on the other side of the target %v from %v", link, g.Name, g.EstTps, minTps, m.EstTps)
			}
			if strings.Contains(string(g.EstTps), ".") {
				decimals++
			}
		}
		if decimals == len(ms) {
			t.Errorf("%s: every speed keeps a decimal", link)
		}
	}
}

// A device whose speed rounds to the target but misses it keeps the decimal that says so: beside
// "too slow" its row reads 29.6 and −1 %, not 30 and 0 %.
func TestBridgeSpeedMissingTheTargetKeepsADecimal(t *testing.T) {
	const link = "m=meta-llama%2FLlama-3.1-8B-Instruct&s=kv&ctx=32768&seq=4&drv=nvidia"
	_, _, ms := shownMatches(t, link)
	var pick *fit.Match
	for i := range ms {
		if m := &ms[i]; m.FitsMemory && m.EstTps >= 10 && m.EstTps < 500 && m.EstTps-math.Floor(m.EstTps) >= 0.55 && m.EstTps-math.Floor(m.EstTps) < 0.9 {
			pick = m
			break
		}
	}
	if pick == nil {
		t.Fatal("no device of the example has a speed whose whole figure rounds up; the test tests nothing")
	}
	target := math.Ceil(pick.EstTps) // the whole figure of its speed, which it misses
	minTps, got, ms := shownMatches(t, link+"&tps="+numText(target))
	for i, m := range ms {
		if m.Accelerator.ID != pick.Accelerator.ID {
			continue
		}
		g := got[i]
		want := strconv.FormatFloat(math.Round(m.EstTps*10)/10, 'f', -1, 64)
		if string(g.EstTps) != want || !strings.Contains(g.Verdict, "too slow") || !strings.HasPrefix(string(g.HeadroomPct), "-") {
			t.Errorf("%s at %v tok/s (%v unrounded): estTps %s, headroom %s, %q; want %s, below 0, too slow",
				g.Name, minTps, m.EstTps, g.EstTps, g.HeadroomPct, g.Verdict, want)
		}
		t.Logf("%s for a target of %v tok/s: %s tok/s (%v), %s %%, %s", g.Name, minTps, g.EstTps, m.EstTps, g.HeadroomPct, g.Verdict)
		return
	}
	t.Fatalf("%s is not among the matches", pick.Accelerator.ID)
}
