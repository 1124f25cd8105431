package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// renderRounds is -compare with -render-rounds: the cold render latency of step 2 (renderLatency,
// a fresh page, timed from 500 ms after it said it was ready) of -dist and of -compare in the
// same rounds, their order alternating, so both builds meet the same machine; per round and
// build it prints the page's renders' median, p99, max and how many took slowRenderMs or more,
// the documented form's p99 and the same renders again, and the load average, then the medians
// over the rounds. On this shared machine one run's p99 is mostly the machine's; the rounds'
// spread and the two builds side by side are the figures to read.
func (b *bench) renderRounds(distURL, compareURL string, n int) error {
	type row struct{ p50, p99, max, slow, full99, again99 []float64 }
	var rows [2]row
	names := [2]string{"-dist", "-compare"}
	fmt.Printf("\ncold render latency, %d rounds of a fresh page of each build (order alternating), %d renders each\n", b.rounds, n)
	fmt.Printf("  (from 500 ms after the page said it was ready; the page's render, %.0f ms or more counted slow)\n", slowRenderMs)
	for r := 0; r < b.rounds; r++ {
		order := []int{0, 1}
		if r%2 == 1 {
			order = []int{1, 0}
		}
		for _, k := range order {
			url := distURL
			if k == 1 {
				url = compareURL
			}
			var res renderResult
			b.keep = &res
			err := b.renderLatency(url, n, false)
			b.keep = nil
			if err != nil {
				return fmt.Errorf("%s round %d: %w", names[k], r+1, err)
			}
			xs := slices.Sorted(slices.Values(res.D))
			slow := float64(len(xs) - countBelow(xs, slowRenderMs))
			rw := &rows[k]
			rw.p50 = append(rw.p50, quantile(xs, 0.5))
			rw.p99 = append(rw.p99, quantile(xs, 0.99))
			rw.max = append(rw.max, xs[len(xs)-1])
			rw.slow = append(rw.slow, slow)
			rw.full99 = append(rw.full99, quantile(res.Full, 0.99))
			rw.again99 = append(rw.again99, quantile(res.Again, 0.99))
			fmt.Printf("  round %d %-8s median %.3f ms, p99 %6.3f ms, max %7.3f ms, %3.0f slow; documented form p99 %6.3f ms; again p99 %.3f ms; warm-up %d renders in the %s; load %s\n",
				r+1, names[k], quantile(xs, 0.5), quantile(xs, 0.99), xs[len(xs)-1], slow, quantile(res.Full, 0.99), quantile(res.Again, 0.99), res.Warmed, orNone(res.WarmWhere), loadAverage())
		}
	}
	fmt.Printf("  medians over the rounds:\n")
	for k, rw := range rows {
		fmt.Printf("    %-8s median %.3f ms, p99 %6.3f ms (rounds %s), slow renders %.0f (rounds %s); documented form p99 %.3f ms; again p99 %.3f ms\n",
			names[k], median(rw.p50), median(rw.p99), list(rw.p99, "%.2f"), median(rw.slow), list(rw.slow, "%.0f"), median(rw.full99), median(rw.again99))
	}
	fmt.Printf("  ratio of the p99 medians -dist / -compare: %.2fx\n", median(rows[0].p99)/median(rows[1].p99))
	return nil
}

func list(xs []float64, format string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(s, " ")
}

func orNone(s string) string {
	if s == "" {
		return "(none said)"
	}
	return s
}

// loadAverage is the machine's 1-minute load average (Linux /proc/loadavg), or "?".
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
