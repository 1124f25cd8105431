package fit

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// The one rule of printed speeds: whole at 10 tok/s and above, a tenth below, more where that
// would print a speed above 0 as 0 or on the other side of the target.
func TestSpeedShown(t *testing.T) {
	for _, c := range []struct {
		tps, target float64
		text        string
		headroom    float64
	}{
		{74.3, 0, "74", 0},
		{74.5, 0, "75", 0},
		{10, 0, "10", 0},
		{9.96, 0, "10", 0},   // rounds to 10.0: whole, never "10.0"
		{9.95, 0, "10", 0},   // halves away from zero, as the JSON rounded before
		{9.94, 0, "9.9", 0},  // below 10: one decimal
		{7.44, 0, "7.4", 0},  //
		{0.04, 0, "0.04", 0}, // never 0 for a speed above 0
		{0.0004, 0, "0.0004", 0},
		{525.486, 0, "525", 0},
		// against a target: whole where the whole figure is on the speed's side of it
		{29.6, 20, "30", 50},       // the headroom is the printed speed's: +50 %, not the unrounded +48 %
		{29.6, 30, "29.6", -1},     // misses 30: whole it would read "30" beside "too slow"
		{29.96, 30, "29.96", -0.1}, // whole, -0.13 % would read 0 %,
		{30, 30, "30", 0},
		{30.4, 30, "30", 0},
		{30.46, 30.45, "30.5", 0.2}, // meets 30.45: whole it would read "30", below it
		{29.5, 30, "29.5", -2},
		{9.96, 10, "9.96", -0.4},
		{10.2, 10, "10", 0},
		{19.6, 20, "19.6", -2},
		{217.3, 400, "217", -46},
		{5.06, 5.1, "5.06", -1},
	} {
		if got := SpeedText(c.tps, c.target); got != c.text {
			t.Errorf("SpeedText(%v, target %v) = %q, want %q", c.tps, c.target, got, c.text)
		}
		if got, want := strconv.FormatFloat(RoundSpeed(c.tps, c.target), 'f', -1, 64), c.text; strconvTrim(want) != got {
			t.Errorf("RoundSpeed(%v, target %v) = %s, want %s", c.tps, c.target, got, want)
		}
		if got := RoundHeadroom(c.tps, c.target); got != c.headroom {
			t.Errorf("RoundHeadroom(%v, target %v) = %v, want %v", c.tps, c.target, got, c.headroom)
		}
	}
}

// strconvTrim drops a printed figure's trailing zeros, as the JSON's shortest number does.
func strconvTrim(s string) string {
	v, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Over a sweep of speeds and targets the printed figure compares with the target as the speed
// does, the headroom's sign says the same, no figure above 0 prints as 0, and none reads "10.0".
func TestSpeedShownKeepsTheVerdict(t *testing.T) {
	targets := []float64{0, 1, 5, 9.95, 10, 20, 29.65, 30, 30.45, 100, 525.4}
	for i := 1; i <= 200000; i++ {
		tps := float64(i) / 3001 * math.Pi // not on any decimal grid
		for _, target := range targets {
			text := SpeedText(tps, target)
			shown, _ := strconv.ParseFloat(text, 64)
			if shown == 0 {
				t.Fatalf("SpeedText(%v, %v) = %q: a speed above 0 printed as 0", tps, target, text)
			}
			if text == "10.0" {
				t.Fatalf("SpeedText(%v, %v) = %q", tps, target, text)
			}
			base := 1
			if roundTo(tps, 1) >= 10 {
				base = 0
			}
			if d := SpeedDecimals(tps, target); d > base { // each decimal more is needed
				prev := roundTo(tps, d-1)
				if prev != 0 && (target == 0 || (prev >= target) == (tps >= target)) {
					t.Fatalf("SpeedText(%v, %v) = %q: %d decimals where %d print %v", tps, target, text, d, d-1, prev)
				}
			}
			if target > 0 {
				if (shown >= target) != (tps >= target) {
					t.Fatalf("SpeedText(%v, target %v) = %q: printed on the other side of the target", tps, target, text)
				}
				if h := RoundHeadroom(tps, target); (h >= 0) != (tps >= target) || (h == 0 && shown != target) {
					t.Fatalf("RoundHeadroom(%v, target %v) = %v beside %q", tps, target, h, text)
				}
			}
		}
	}
}

// The NVIDIA driver's refusal names its best candidates by the same rule: Qwen-7B-Chat at 200
// tok/s named "NVIDIA B200 (200 tok/s)", a speed equal to the target it misses (199.5).
func TestRefusalCandidatesPrintedByTheRule(t *testing.T) {
	tg := target.Default()
	tg.Model, tg.Sizing, tg.Driver, tg.MinTps = "Qwen/Qwen-7B-Chat", target.SizingKV, DriverNVIDIA, 200
	_, err := Resolve(tg)
	if err == nil || !strings.Contains(err.Error(), "NVIDIA B200 (199.5 tok/s)") {
		t.Fatalf("Qwen-7B-Chat at 200 tok/s on NVIDIA: %v", err)
	}
	tg.MinTps = 400 // missed by far: whole
	if _, err := Resolve(tg); err == nil || !strings.Contains(err.Error(), "NVIDIA B200 (200 tok/s)") {
		t.Fatalf("Qwen-7B-Chat at 400 tok/s on NVIDIA: %v", err)
	}
}
