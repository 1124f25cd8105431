package main

import "testing"

func TestPairedRatios(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	a := []loadResult{{Done: f(300)}, {Done: f(500)}, {Done: nil}, {Done: f(400)}}
	b := []loadResult{{Done: f(400)}, {Done: f(400)}, {Done: f(350)}, {Done: f(400)}, {Done: f(100)}}
	// rounds 1, 2 and 4 pair: 0.75, 1.25, 1.00; round 3 has no -dist time, round 5 no -dist load
	if got, want := pairedRatios(a, b), "median 1.00x [0.75..1.25], 1 of 3 rounds below 1"; got != want {
		t.Errorf("pairedRatios = %q, want %q", got, want)
	}
	if got := pairedRatios(nil, b); got != "no pairs" {
		t.Errorf("pairedRatios(nil, b) = %q, want no pairs", got)
	}
}
