package estimate

import (
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

// The estimate's words state sums and a speed formula with their inputs; this test redoes each
// from the printed numbers alone, within their printed rounding, over a grid of catalog models ×
// devices × device counts × engines × contexts: needs = weights + KV cache + reserve; the speed
// from the bytes read, the efficiency, the bandwidth, the overhead and the communication; an MoE
// model's layer time; vLLM's available KV = budget − weights − activation − non-torch, its budget
// = utilization × one device's memory.
func TestTextArithmeticCloses(t *testing.T) {
	var (
		num     = `([0-9]+(?:\.[0-9]+)?)`
		reNeeds = regexp.MustCompile(`(?m)^fits: needs ` + num + ` GiB \(weights ` + num + ` \+ KV cache ` + num + ` \+ reserve ` + num + `\) of ` + num + ` GiB usable$`)
		reSpeed = regexp.MustCompile(`(?m)^speed: ` + num + ` tokens/s per sequence \(calibrated: ` + num + ` GB read per token (?:by each device )?at ` + num +
			` % of ` + num + ` GB/s for the \S+ family, ` + num + ` ms overhead per token(?:, of which ` + num + ` ms for ([0-9]+) MoE layers[^,;)]*)?(?:, ` + num + ` ms between devices, not calibrated)?`)
		reBudget = regexp.MustCompile(`(?m)^vLLM: budget ` + num + ` GiB − weights ` + num + ` − activation ` + num + ` − non-torch ` + num + ` = available KV cache memory (-?[0-9.]+) GiB per device$`)
		reUtil   = regexp.MustCompile(`--gpu-memory-utilization ` + num)
		reOn     = regexp.MustCompile(` on ([0-9]+) × `)
	)
	half := func(s string) float64 { // half a unit of s's last digit
		if i := strings.IndexByte(s, '.'); i >= 0 {
			return 0.5 * math.Pow(10, -float64(len(s)-i-1))
		}
		return 0.5
	}
	f := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	models := catalog.Models()
	step := 13
	if testing.Short() {
		step = 61
	}
	texts, checked := 0, 0
	for i := 0; i < len(models); i += step {
		for _, dev := range []string{"nvidia-rtx-4090", "nvidia-h100-sxm", "nvidia-l4", "amd-mi300x", "apple-m4-max-128"} {
			for _, n := range []int{1, 2, 4} {
				for _, q := range []string{"", "&engine=vllm", "&ctx=32768&seq=4", "&engine=vllm&ctx=32768&seq=4&gmu=0.8"} {
					raw := "m=" + url.QueryEscape(models[i].Name) + "&on=" + dev + "&n=" + strconv.Itoa(n) + q
					e, err := RunRaw(raw)
					if err != nil {
						continue
					}
					text := Text(e)
					texts++
					fail := func(format string, args ...any) {
						t.Helper()
						t.Errorf("%s:\n%s\n"+format, append([]any{raw, text}, args...)...)
					}
					if m := reNeeds.FindStringSubmatch(text); m != nil {
						sum := f(m[2]) + f(m[3]) + f(m[4])
						if math.Abs(sum-f(m[1])) > 0.005*4+1e-9 {
							fail("weights %s + KV cache %s + reserve %s = %.2f, not %s", m[2], m[3], m[4], sum, m[1])
						}
						checked++
					}
					if e.Fits && !reSpeed.MatchString(text) {
						fail("the speed line does not state the bytes, efficiency, bandwidth and overhead it comes from")
					}
					if m := reSpeed.FindStringSubmatch(text); m != nil {
						tps, read, eff, bw, over := f(m[1]), f(m[2]), f(m[3])/100, f(m[4]), f(m[5])
						comm := 0.0
						if m[8] != "" {
							comm = f(m[8])
						}
						lo := 1 / ((read+half(m[2]))/(bw*(eff-0.0005)) + (over+half(m[5])+comm+0.005)/1e3)
						hi := 1 / ((read-half(m[2]))/(bw*(eff+0.0005)) + (over-half(m[5])+comm-0.005)/1e3)
						if d := half(m[1]); tps < lo-d-1e-9 || tps > hi+d+1e-9 { // the speed printed whole, or to a tenth below 10 (fit.SpeedDecimals)
							fail("1 / (%s GB / (%s GB/s × %.3f) + %s ms + %v ms) = %.2f … %.2f tokens/s, not %s", m[2], m[4], eff, m[5], comm, lo, hi, m[1])
						}
						if m[6] != "" { // the MoE layers' time: layers × the calibrated layer time (87.32 µs)
							layers := f(m[7])
							if got := f(m[6]); math.Abs(got-layers*0.08732) > 0.005+1e-9 {
								fail("%s MoE layers × 87.32 µs = %.3f ms, not %s", m[7], layers*0.08732, m[6])
							}
						}
						checked++
					}
					if m := reBudget.FindStringSubmatch(text); m != nil {
						left := f(m[1]) - f(m[2]) - f(m[3]) - f(m[4])
						if math.Abs(left-f(m[5])) > 0.005*5+1e-9 {
							fail("%s − %s − %s − %s = %.2f, not %s", m[1], m[2], m[3], m[4], left, m[5])
						}
						u, on := reUtil.FindStringSubmatch(text), reOn.FindStringSubmatch(text)
						if nm := reNeeds.FindStringSubmatch(text); nm != nil && u != nil && on != nil {
							perDevice := f(nm[5]) / f(on[1])
							if math.Abs(f(u[1])*perDevice-f(m[1])) > 0.005*(1+f(u[1])*f(on[1]))+1e-9 {
								fail("budget %s GiB is not %s × %.2f GiB a device", m[1], u[1], perDevice)
							}
						}
						checked++
					}
				}
			}
		}
	}
	t.Logf("%d estimates, %d lines recomputed", texts, checked)
	if texts < 100 || checked < texts {
		t.Errorf("only %d estimates and %d lines", texts, checked)
	}
}
