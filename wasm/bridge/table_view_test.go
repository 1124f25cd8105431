package bridge

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
)

// The page's columns, joined with fitclaim.accelerators() as the page joins them, give every
// match object of the full result member for member, each the same value, in the same order;
// the rest of the result is the same, and all of it is ASCII.
func TestColumnsSpellTheSameMatches(t *testing.T) {
	var accs []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(AcceleratorsJSON()), &accs); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{
		"m=NousResearch%2FLlama-2-7b-chat-hf",
		"m=NousResearch%2FLlama-2-7b-chat-hf&tps=200&drv=nvidia",               // slow and unselectable rows
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=32768&seq=4&drv=nvidia", // the example
		"p=400&drv=amd&n=2", // needs more devices than asked: neededTps, neededMemoryGi
	} {
		tg, r := renderLink(t, link)
		var full, cols map[string]json.RawMessage
		if err := json.Unmarshal([]byte(ResultJSON(tg, r)), &full); err != nil {
			t.Fatal(err)
		}
		text := AppendResultColumnsJSON(nil, tg, r)
		if err := json.Unmarshal(text, &cols); err != nil {
			t.Fatal(err)
		}
		for i, c := range text {
			if c >= 0x80 {
				t.Fatalf("%s: byte %d of the page's form is not ASCII: …%s…", link, i, text[max(0, i-20):min(len(text), i+20)])
			}
		}
		var want []map[string]json.RawMessage
		if err := json.Unmarshal(full["matches"], &want); err != nil {
			t.Fatal(err)
		}
		got := joinColumns(t, accs, cols["table"])
		if len(got) != len(want) || len(want) != len(accs) {
			t.Fatalf("%s: %d rows from the columns, %d matches, %d accelerators", link, len(got), len(want), len(accs))
		}
		needed := 0
		for i := range want {
			if !maps.EqualFunc(got[i], want[i], sameJSON) {
				t.Fatalf("%s: row %d\n got %s\nwant %s", link, i, marshal(got[i]), marshal(want[i]))
			}
			if _, ok := want[i]["neededTps"]; ok {
				needed++
			}
		}
		delete(full, "matches")
		delete(cols, "table")
		if !maps.EqualFunc(full, cols, sameJSON) {
			t.Fatalf("%s: the rest of the result differs: %v vs %v", link, slices.Sorted(maps.Keys(full)), slices.Sorted(maps.Keys(cols)))
		}
		if link == "p=400&drv=amd&n=2" && needed == 0 {
			t.Fatalf("%s: no row needs more devices; the case tests nothing", link)
		}
	}
}

// joinColumns is the page's join (web/app.js), in Go: each row's accelerator facts, then its
// figures; neededTps, neededMemoryGi and neededMemoryMi only where the row needs more devices than asked.
func joinColumns(t *testing.T, accs []map[string]json.RawMessage, table json.RawMessage) []map[string]json.RawMessage {
	t.Helper()
	var c struct {
		Accelerator, Flags, DevicesNeeded, Verdict []int
		EstTps, HeadroomPct, FreeGi, NeededTps     []json.RawMessage
		NeededMemoryGi, NeededMemoryMi             []json.RawMessage
		Verdicts, Why                              []string
	}
	if err := json.Unmarshal(table, &c); err != nil {
		t.Fatal(err)
	}
	b := func(v bool) json.RawMessage { return json.RawMessage(strconv.FormatBool(v)) }
	s := func(v string) json.RawMessage { out, _ := json.Marshal(v); return out }
	rows := make([]map[string]json.RawMessage, len(c.Accelerator))
	for i, k := range c.Accelerator {
		f := c.Flags[i]
		m := maps.Clone(accs[k])
		m["fitsMemory"], m["fitsBandwidth"] = b(f&flagFitsMemory != 0), b(f&flagFitsBandwidth != 0)
		m["fits"] = b(f&flagFitsMemory != 0 && f&flagFitsBandwidth != 0)
		m["selected"], m["selectable"] = b(f&flagSelected != 0), b(f&flagSelectable != 0)
		m["estTps"], m["headroomPct"], m["freeGi"] = c.EstTps[i], c.HeadroomPct[i], c.FreeGi[i]
		m["devicesNeeded"] = json.RawMessage(strconv.Itoa(c.DevicesNeeded[i]))
		m["verdict"], m["why"] = s(c.Verdicts[c.Verdict[i]]), s(c.Why[i])
		if string(c.NeededTps[i]) != "0" {
			m["neededTps"], m["neededMemoryGi"], m["neededMemoryMi"] = c.NeededTps[i], c.NeededMemoryGi[i], c.NeededMemoryMi[i]
		}
		rows[i] = m
	}
	return rows
}

// sameJSON: the same value once parsed (the page's form writes its strings in ASCII, \u2265 for ≥).
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

func marshal(m map[string]json.RawMessage) string { out, _ := json.Marshal(m); return string(out) }

// The words of a row that falls short: each reason once, joined by "; ", the memory it has to
// one decimal (23.5 GiB = 24,064 MiB / 1024).
func TestWhyWords(t *testing.T) {
	nvidia, ok := fit.LookupDriver(fit.DriverNVIDIA)
	if !ok {
		t.Fatal("no NVIDIA driver")
	}
	b := &fit.Bounds{MemoryGi: 24, Driver: nvidia}
	a := &catalog.Accelerator{MemoryMiB: 24064, BandwidthGBs: 936}
	for _, c := range []struct {
		m          fit.Match
		selectable bool
		want       string
	}{
		{fit.Match{Accelerator: a, FitsMemory: true, FitsBandwidth: true, Selected: true}, true, ""},
		// fits both floors, yet its name is a slower board's too (RTX 3080 12GB): not listed
		{fit.Match{Accelerator: a, FitsMemory: true, FitsBandwidth: true}, true, "its productName is a slower board's too, so the allow-list leaves it out"},
		{fit.Match{Accelerator: a, FitsBandwidth: true}, true, "needs 24 Gi, has 23.5"},
		{fit.Match{Accelerator: a, FitsBandwidth: true}, false, "needs 24 Gi, has 23.5; the gpu.nvidia.com driver cannot select it"},
		{fit.Match{Accelerator: a, FitsMemory: true, FitsBandwidth: true}, false, "the gpu.nvidia.com driver cannot select it"},
	} {
		if got := string(appendWhy([]byte("kept"), b, &c.m, c.selectable)); got != "kept"+c.want {
			t.Errorf("fits memory %v, selectable %v: %q, want %q", c.m.FitsMemory, c.selectable, got, "kept"+c.want)
		}
	}
	// A claim asking a memory share (capacityRequest) of a board whose driver publishes no memory
	// (the GB10): it fits both floors, and the allow-list leaves it out for that reason.
	for _, acc := range catalog.Accelerators() {
		if acc.ProductName != "NVIDIA GB10" {
			continue
		}
		share := &fit.Bounds{MemoryGi: 24, Driver: nvidia}
		share.Target.CapacityRequest = true
		if got, want := string(appendWhy(nil, share, &fit.Match{Accelerator: &acc, FitsMemory: true, FitsBandwidth: true}, true)),
			"its driver publishes no memory, so it cannot give the memory share the claim asks (capacityRequest)"; got != want {
			t.Errorf("GB10 under a memory share: %q, want %q", got, want)
		}
	}
	// The memory a device has is never written as much as a floor it falls short of: an RTX
	// 4080's 16,376 MiB is 15.99 GiB, "has 15.9" beside "needs 16 Gi" (it read "has 16.0").
	b.MemoryGi = 16
	rtx4080 := &catalog.Accelerator{MemoryMiB: 16376, BandwidthGBs: 717}
	if got := string(appendWhy(nil, b, &fit.Match{Accelerator: rtx4080, FitsBandwidth: true}, true)); got != "needs 16 Gi, has 15.9" {
		t.Errorf("RTX 4080 against 16 Gi: %q", got)
	}
	// a floor to the MiB (the KV-aware sizing) is written so, with the device's MiB beside it
	b.MemoryMi = 16377
	if got := string(appendWhy(nil, b, &fit.Match{Accelerator: rtx4080, FitsBandwidth: true}, true)); got != "needs 16,377 Mi (15.99 Gi), has 16,376 Mi" {
		t.Errorf("RTX 4080 against 16,377 Mi: %q", got)
	}
	b.MemoryMi = 0
	for _, acc := range catalog.Accelerators() {
		floor := int64(math.Ceil(float64(acc.MemoryMiB) / 1024))
		if float64(floor*1024) == float64(acc.MemoryMiB) {
			continue // a whole number of GiB fits its own floor
		}
		b.MemoryGi = floor
		why := string(appendWhy(nil, b, &fit.Match{Accelerator: &acc, FitsBandwidth: true}, true))
		var needs int64
		var has float64
		if _, err := fmt.Sscanf(why, "needs %d Gi, has %g", &needs, &has); err != nil || has >= float64(needs) {
			t.Errorf("%s (%d MiB) against %d Gi: %q", acc.Name, acc.MemoryMiB, floor, why)
		}
	}
}
