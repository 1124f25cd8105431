package fit

import (
	"math"
	"strconv"
)

// Printed speeds: the one rule every surface prints an estimated decode speed by (the page's
// table, its speed chart and hardware panel, `fitclaim estimate`'s words and --json, the API's
// estimate.json and fitting.json, the NVIDIA allow-list's refusal). The estimate is within ±25 %
// of the measured speed on 89 % of runs (docs/SPEED.md), so "74.3 tok/s" claims a tenth it does
// not have: a speed is printed whole at 10 tok/s and above, with one decimal below 10. Two
// exceptions keep more decimals, as GiBDecimals does for memory: a speed above 0 never prints as 0
// (a 1-T model on a slow device), and a speed is never printed on the other side of the target
// it is judged against (29.6 tok/s for a target of 30 is "too slow": whole, it would read "30").
// The figures that are not estimates — a target, a bandwidth floor, the min-tps ceiling — are
// printed exactly, by their own rules.

// maxSpeedDecimals bounds the decimals the exceptions add (a millionth of a token per second).
const maxSpeedDecimals = 6

// roundTo rounds x to d decimals, halves away from zero: jsontext.Round's arithmetic, which the
// estimate's JSON used before, so a figure that needs no decimal more prints as it did at one.
func roundTo(x float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(x*p) / p
}

// SpeedDecimals is how many decimals an estimated speed (tokens/s) is printed with: 0 where it
// rounds to 10 or more, else 1; more (up to 6) where that prints a speed above 0 as 0, or, for a
// target above 0, prints it on the other side of the target (29.6 for 30 prints "29.6", 30.46
// for 30.45 "30.5", 29.96 for 30 "29.96").
func SpeedDecimals(tps, target float64) int {
	d := 1
	if roundTo(tps, 1) >= 10 {
		d = 0
	}
	for d < maxSpeedDecimals && tps > 0 && roundTo(tps, d) == 0 {
		d++
	}
	if target > 0 {
		for d < maxSpeedDecimals && (roundTo(tps, d) >= target) != (tps >= target) {
			d++
		}
	}
	return d
}

// RoundSpeed is the speed as printed: rounded to SpeedDecimals. The JSON carries it (a number
// written shortest, so 74 and 7.4), the page prints it as it comes.
func RoundSpeed(tps, target float64) float64 { return roundTo(tps, SpeedDecimals(tps, target)) }

// SpeedText is the speed as printed, in words: "74", "7.4", "29.6".
func SpeedText(tps, target float64) string {
	d := SpeedDecimals(tps, target)
	return strconv.FormatFloat(roundTo(tps, d), 'f', d, 64)
}

// RoundHeadroom is the headroom of a speed over the target (percent, negative below it) as
// printed: computed from the speed as printed (RoundSpeed), so a row reads "30 tok/s, +50 %" for
// a target of 20 where the unrounded 29.6 gave +48 %, and rounded to whole percent — an estimate
// within ±25 % has no tenth of a percent of headroom — with more decimals (up to 6) where whole
// would print a headroom that is not 0 as 0: the sign always says what the verdict says (the
// printed speed is on the target's side, RoundSpeed). 0 for a target that is not above 0.
func RoundHeadroom(tps, target float64) float64 {
	if !(target > 0) {
		return 0
	}
	h := (RoundSpeed(tps, target)/target - 1) * 100
	d := 0
	for d < maxSpeedDecimals && h != 0 && roundTo(h, d) == 0 {
		d++
	}
	if r := roundTo(h, d); r != 0 {
		return r
	}
	return 0 // never -0: it would print as "−0"
}

// SpeedShown is the estimate's speed as printed (RoundSpeed), against the target of its query:
// the page's hardware panel says the figure the table beside it says for the same device.
func (e *Estimate) SpeedShown() float64 { return RoundSpeed(e.TokensPerSecond, e.Bounds.Target.MinTps) }

// SpeedText is the estimate's speed as printed, in words (SpeedText).
func (e *Estimate) SpeedText() string { return SpeedText(e.TokensPerSecond, e.Bounds.Target.MinTps) }
