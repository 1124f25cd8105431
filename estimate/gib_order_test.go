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
