package main

import "testing"

func TestParseThrottle(t *testing.T) {
	p, err := parseThrottle("desktop")
	if err != nil || p.Latency != 40 || p.Down != 1310720 || p.Up != 1310720 {
		t.Errorf("desktop: %+v, %v; want Lighthouse's 40 ms and 10 x 1024 kbit/s (1,310,720 B/s)", p, err)
	}
	if p, err := parseThrottle("150,1638.4,750"); err != nil || p.Latency != 150 || p.Down != 1638.4*1024/8 || p.Up != 750*1024/8 {
		t.Errorf("150,1638.4,750: %+v, %v", p, err)
	}
	for _, bad := range []string{"mobile", "40,10240", "40,0,10", "40,x,10", "-1,10,10"} {
		if _, err := parseThrottle(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
