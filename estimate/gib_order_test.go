package estimate

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// One token past the longest context that fits, the need is above what the devices have by less
// than 0.005 GiB: at two decimals both printed the same figure under "does not fit" ("needs 79.65
// GiB … but NVIDIA H100 SXM 80GB gives 79.65 GiB", needGiB 79.65 = usableGiB 79.65). The words
// and the JSON print them with as many decimals as show the need the larger (fit.GiBDecimals),
// with llama.cpp's reserve and with vLLM's budget.
func TestNeedAboveUsablePrintsAbove(t *testing.T) {
	for _, base := range []string{
		"p=8&L=32&kvh=8&hd=128&q=Q4_K_M&memory=24&bandwidth=1000&family=nvidia", // TestEstimateFitsByHand's: 151,270 tokens fit
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&engine=vllm",
	} {
		e, err := RunRaw(base)
		if err != nil {
			t.Fatal(base, err)
		}
		past := base + "&ctx=" + strconv.FormatInt(e.MaxContextTokens+1, 10)
		e, err = RunRaw(past)
		if err != nil {
			t.Fatal(past, err)
		}
		if e.Fits {
			t.Fatalf("%s: fits one token past the longest context", past)
		}
		var j struct{ NeedGiB, UsableGiB float64 }
		if err := json.Unmarshal([]byte(JSON(e)), &j); err != nil {
			t.Fatal(err)
		}
		if !(j.NeedGiB > j.UsableGiB) {
			t.Errorf("%s: JSON needGiB %v, usableGiB %v for a need that does not fit", past, j.NeedGiB, j.UsableGiB)
		}
		text := Text(e)
		need, have := figureAfter(text, "needs "), figureAfter(text, " gives ")
		if !(need > have) {
			t.Errorf("%s: the words say needs %v, gives %v:\n%s", past, need, have, text)
		}
	}
}

// figureAfter is the number that follows the first cue in s.
func figureAfter(s, cue string) float64 {
	i := strings.Index(s, cue)
	if i < 0 {
		return -1
	}
	s = s[i+len(cue):]
	end := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	x, _ := strconv.ParseFloat(s[:end], 64)
	return x
}

// An estimate that fits says when the claim for the same target would not select the device.
// The claim's floor was whole Gi: a need of 79.65 GiB asked 80 Gi, more than an H100 SXM's 79.65
// GiB (81,559 MiB), and the estimate said "the claim for it asks ≥ 80 Gi a device … will not
// select this device". The floor is now the need to the MiB: at 60,192 tokens × 4 Qwen3-30B-A3B
// needs exactly 81,559 MiB, the claim asks 81,559 Mi and lists the H100, and no such words are
// said; the same under vLLM's budget at 23,792 tokens.
func TestEstimateSaysWhenTheClaimWouldNotSelect(t *testing.T) {
	for _, q := range []string{
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&ctx=60192",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&ctx=23792&engine=vllm",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&ctx=32768",
	} {
		e, err := RunRaw(q)
		if err != nil {
			t.Fatal(q, err)
		}
		text := Text(e)
		if !e.Fits || strings.Contains(text, "asks ≥") || e.Bounds.MemoryMi > 81559 {
			t.Errorf("%s: fits %v, the claim's floor %d Mi:\n%s", q, e.Fits, e.Bounds.MemoryMi, text)
		}
	}
}

// Only a device given by its numbers, with a fraction of a MiB, can hold a need and miss the
// floor, by under a MiB; the words then say so, and print its memory below the floor: a custom
// 8 B model in BF16 at 131,072 tokens × 4 needs 79.87 GiB, and a device half a MiB above the need
// (under the floor's MiB) reads below it.
func TestClaimFloorWordsNeverRoundUpToTheFloor(t *testing.T) {
	const q = "p=8&L=32&kvh=8&hd=128&q=BF16&ctx=131072&seq=4&bandwidth=3000&family=nvidia"
	e, err := RunRaw(q + "&memory=79.996")
	if err != nil {
		t.Fatal(err)
	}
	floor := e.Bounds.MemoryMi
	if w := e.ClaimFloorWords(); !e.Fits || w != "" || floor != 81790 {
		t.Fatalf("fits %v, floor %d Mi: %q", e.Fits, floor, w)
	}
	need := e.Bounds.MemoryGB * 1024 // MiB
	if !(float64(floor)-need > 0.01) {
		t.Fatalf("need %v MiB too close to the floor %d", need, floor)
	}
	mem := strconv.FormatFloat((need+0.005)/1024, 'f', 9, 64) // a few KiB above the need, under the floor's MiB
	e, err = RunRaw(q + "&memory=" + mem)
	if err != nil {
		t.Fatal(err)
	}
	w := e.ClaimFloorWords()
	if !e.Fits || !strings.Contains(w, "asks ≥ 81,790 Mi (79.87 Gi) a device (its floor, rounded up to the MiB), more than the ") {
		t.Errorf("memory %s: fits %v: %q", mem, e.Fits, w)
	}
	if got := figureAfter(w, "more than the "); !(got < float64(floor)/1024) {
		t.Errorf("the device's memory printed %v, not under the floor %v GiB: %q", got, float64(floor)/1024, w)
	}
}
