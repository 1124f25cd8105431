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

// An estimate that fits says when the claim for the same target would not select the device: a
// claim asks whole Gi, so a need of 79.65 GiB asks 80 Gi, more than an H100 SXM's 79.65 GiB
// (81,559 MiB). At 60,192 tokens × 4 Qwen3-30B-A3B fits the H100 and its claim asks 80 Gi; at
// 32,768 tokens it needs 69.60 GiB and the claim asks 70 Gi, which the H100 meets. The same
// under vLLM's budget at 23,792 tokens (79.17 GiB of 79.18 as CUDA counts it; the claim 80 Gi).
func TestEstimateSaysWhenTheClaimWouldNotSelect(t *testing.T) {
	for q, want := range map[string]string{
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&ctx=60192":             "the claim for it asks ≥ 80 Gi a device (its floor, rounded up to whole Gi), more than the 79.65 GiB NVIDIA H100 SXM 80GB reports",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&ctx=23792&engine=vllm": "asks ≥ 80 Gi a device",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&seq=4&on=nvidia-h100-sxm&ctx=32768":             "",
	} {
		e, err := RunRaw(q)
		if err != nil {
			t.Fatal(q, err)
		}
		text := Text(e)
		if strings.Contains(text, "asks ≥") && e.Device.MemoryGiB < 79.9 && strings.Contains(text, "80.00 GiB") {
			t.Errorf("%s: the device's memory rounded up to the floor:\n%s", q, text)
		}
		if got := strings.Contains(text, "asks ≥"); !e.Fits || got != (want != "") || want != "" && !strings.Contains(text, want) {
			t.Errorf("%s: fits %v, want %q in\n%s", q, e.Fits, want, text)
		}
	}
}

// A device just under the claim's whole Gi prints as under it: a custom 8 B model in BF16 at
// 131,072 tokens × 4 needs 14.90 + 64 + 0.97 = 79.87 GiB, and its claim asks 80 Gi; a device of
// 79.996 GiB, by its numbers, reads 79.996 beside it, not 80.00.
func TestClaimFloorWordsNeverRoundUpToTheFloor(t *testing.T) {
	e, err := RunRaw("p=8&L=32&kvh=8&hd=128&q=BF16&ctx=131072&seq=4&memory=79.996&bandwidth=3000&family=nvidia")
	if err != nil {
		t.Fatal(err)
	}
	if w := e.ClaimFloorWords(); !e.Fits || e.Bounds.MemoryGi != 80 || !strings.Contains(w, "more than the 79.996 GiB") {
		t.Errorf("fits %v, floor %d Gi: %q", e.Fits, e.Bounds.MemoryGi, w)
	}
}
