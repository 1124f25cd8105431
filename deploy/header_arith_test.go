package deploy

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// The Deployment's header states two computations with their inputs: vLLM's budget (utilization ×
// the device's memory − weights − activation − non-torch = the KV cache) and llama.cpp's context
// (--ctx-size = tokens × sequences). This test redoes them from the printed numbers, over the
// drawn targets of TestNoBadFigure.
func TestDeployHeaderArithmeticCloses(t *testing.T) {
	num := `([0-9]+(?:\.[0-9]+)?)`
	reBudget := regexp.MustCompile(`--gpu-memory-utilization ` + num + ` × ` + num + ` GiB = ` + num + ` GiB; − ` + num + ` GiB weights − ` + num +
		` GiB activation peak \([^)]*\) − ` + num + ` GiB non-torch = (-?[0-9.]+) GiB KV cache per device`)
	reCtx := regexp.MustCompile(`--ctx-size ([0-9]+) = ([0-9]+) tokens × ([0-9]+) sequences?`)
	f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	n := 600
	if testing.Short() {
		n = 150
	}
	budgets, contexts := 0, 0
	for seed := range uint64(n) {
		q := randomTarget(seed)
		tg, err := target.ParsePermalink(q)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Render(tg)
		if err != nil {
			continue
		}
		var lines []string // the header, unwrapped
		for _, l := range strings.Split(d.YAML, "\n") {
			if !strings.HasPrefix(l, "#") {
				continue
			}
			body := strings.TrimPrefix(l, "# ")
			if strings.HasPrefix(body, " ") && len(lines) > 0 {
				lines[len(lines)-1] += " " + strings.TrimSpace(body)
			} else {
				lines = append(lines, body)
			}
		}
		text := strings.Join(strings.Fields(strings.Join(lines, "\n")), " ")
		if m := reBudget.FindStringSubmatch(text); m != nil {
			budget := f(m[1]) * f(m[2])
			if math.Abs(budget-f(m[3])) > 0.005+f(m[1])*0.005+1e-9 {
				t.Errorf("%s: %s × %s GiB = %.3f, not %s", q, m[1], m[2], budget, m[3])
			}
			kv := f(m[3]) - f(m[4]) - f(m[5]) - f(m[6])
			if math.Abs(kv-f(m[7])) > 0.005*5+1e-9 {
				t.Errorf("%s: %s − %s − %s − %s = %.2f GiB, not %s", q, m[3], m[4], m[5], m[6], kv, m[7])
			}
			budgets++
		}
		if m := reCtx.FindStringSubmatch(text); m != nil {
			if f(m[1]) != f(m[2])*f(m[3]) {
				t.Errorf("%s: --ctx-size %s is not %s × %s", q, m[1], m[2], m[3])
			}
			contexts++
		}
	}
	t.Logf("%d vLLM budgets, %d llama.cpp contexts recomputed", budgets, contexts)
	if budgets < n/10 || contexts < n/20 {
		t.Errorf("only %d budgets and %d contexts", budgets, contexts)
	}
}
