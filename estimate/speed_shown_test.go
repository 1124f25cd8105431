package estimate

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"

	"github.com/fitclaim/fitclaim/fit"
)

// The estimate's speed is printed by the one rule of printed speeds (fit.SpeedDecimals): whole at
// 10 tok/s and above, a tenth below, more where that would put it on the other side of the
// query's target. The words and the JSON print the same figure. Before, both printed a tenth:
// "speed: 106.1 tokens/s", "tokensPerSecond":106.1.
func TestEstimateSpeedPrintedByTheRule(t *testing.T) {
	const dev = "p=8&L=32&kvh=8&hd=128&memory=24&family=nvidia"
	speedLine := regexp.MustCompile(`(?m)^speed: ([0-9.]+) tokens/s per sequence`)
	for _, c := range []struct{ query, want string }{
		{dev + "&bandwidth=1000", "106"},              // 106.06: whole
		{dev + "&bandwidth=50", "6.6"},                // below 10: a tenth
		{dev + "&bandwidth=1000&tps=106.05", "106.1"}, // meets 106.05: whole, "106" would read below it
		{dev + "&bandwidth=1000&tps=106.5", "106"},    // misses 106.5, and so does 106
		{dev + "&bandwidth=1000&tps=106.07", "106"},   // misses 106.07, and so does 106
	} {
		e, err := RunRaw(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		var got struct{ TokensPerSecond json.Number }
		if err := json.Unmarshal([]byte(JSON(e)), &got); err != nil {
			t.Fatal(err)
		}
		if string(got.TokensPerSecond) != c.want {
			t.Errorf("%s: JSON tokensPerSecond %s, want %s", c.query, got.TokensPerSecond, c.want)
		}
		m := speedLine.FindStringSubmatch(Text(e))
		if m == nil || m[1] != c.want {
			t.Errorf("%s: the words say %q, want speed: %s tokens/s", c.query, m, c.want)
		}
	}
}

// fitting.json's speeds are the models' at their defaults, with no target: the rule's plain form.
// Before, a tenth: Qwen3-8B on an RTX 4090 "tokensPerSecond":… with one decimal at any speed.
func TestFittingSpeedPrintedByTheRule(t *testing.T) {
	for _, on := range []string{"nvidia-rtx-4090", "nvidia-h100-sxm", "apple-m4-max-128"} {
		list, err := Fitting("on=" + on + "&limit=20")
		if err != nil {
			t.Fatal(err)
		}
		var got []struct {
			Name            string
			TokensPerSecond json.Number
		}
		if err := json.Unmarshal([]byte(FittingJSON(list)), &got); err != nil {
			t.Fatal(err)
		}
		for i, m := range list {
			if want := strconv.FormatFloat(fit.RoundSpeed(m.TokensPerSecond, 0), 'f', -1, 64); string(got[i].TokensPerSecond) != want {
				t.Errorf("%s on %s: tokensPerSecond %s, want %s (%v unrounded)", m.Name, on, got[i].TokensPerSecond, want, m.TokensPerSecond)
			}
			if m.TokensPerSecond >= 10 && regexp.MustCompile(`\.`).MatchString(string(got[i].TokensPerSecond)) {
				t.Errorf("%s on %s: tokensPerSecond %s keeps a decimal at 10 tok/s and above", m.Name, on, got[i].TokensPerSecond)
			}
		}
	}
}
