package claim

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// The header says it explains every number of the claim. This test takes it at its word: it reads
// the header as a user does (the YAML's comment lines, unwrapped) and redoes each sum, product and
// ratio a line states from the values the lines print, failing on any whose arithmetic does not
// close within the rounding of its printed inputs. Nothing is taken from fit's Bounds: only the
// printed text. A grid of catalog models × sizing modes × drivers × device counts × engines ×
// contexts, sequences, KV-cache types and target speeds.

// unwrappedHeader unwraps a claim's YAML header (after its first line) into its logical lines: a
// continuation line is indented under its label's text (claim/wrap.go).
func unwrappedHeader(t testing.TB, yaml string) []string {
	t.Helper()
	var out []string
	for i, l := range strings.Split(yaml, "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		if i == 0 {
			continue
		}
		body := strings.TrimPrefix(l, "# ")
		if strings.HasPrefix(body, " ") && len(out) > 0 {
			out[len(out)-1] += " " + strings.TrimLeft(body, " ")
			continue
		}
		out = append(out, body)
	}
	for i, l := range out { // a wrap at "  ⇒  " keeps one of its spaces: read every run as one
		out[i] = strings.Join(strings.Fields(l), " ")
	}
	return out
}

// num is a printed number, with half a unit of its last printed digit: the error its rounding allows.
type num struct{ v, r float64 }

func parseNum(t testing.TB, s string) num {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	r := 0.5
	if i := strings.IndexByte(s, '.'); i >= 0 {
		r = 0.5 * math.Pow(10, -float64(len(s)-i-1))
	}
	return num{v, r}
}

func (n num) lo() float64 { return n.v - n.r }
func (n num) hi() float64 { return n.v + n.r }

// closes reports whether printed is got within printed's rounding plus slack.
func closes(printed num, got, slack float64) bool {
	return math.Abs(printed.v-got) <= printed.r+slack+1e-9
}

// ceilIn reports whether the printed whole number m is the ceiling of some value in [lo, hi].
func ceilIn(m int64, lo, hi float64) bool {
	return float64(m) >= math.Ceil(lo-1e-9) && float64(m) <= math.Ceil(hi+1e-9)
}

const gibGB = float64(1<<30) / 1e9

var (
	reNum        = `([0-9]+(?:\.[0-9]+)?)`
	reLlmfitFit  = regexp.MustCompile(`^fit: tok/s ≈ bandwidth × ([0-9]+)% / ` + reNum + ` GB ⇒ bandwidth ≥ ([0-9]+) GB/s for ≥ ` + reNum + ` tok/s$`)
	reLlmfitMem  = regexp.MustCompile(`^memory: ≥ ([0-9]+) Gi \(weights \+ KV/runtime headroom\)$`)
	reFloor      = `([0-9]+ Gi|[0-9,]+ Mi \([0-9]+\.[0-9]{2} Gi\))` // fit.MemoryFloorTextOf
	reSplit      = regexp.MustCompile(`^split: ([0-9]+) devices, each ≥ ` + reFloor + ` and ≥ ([0-9]+) GB/s \((.*)\)$`)
	reModel      = regexp.MustCompile(`^model: .* \(` + reNum + `B params(?:, ` + reNum + `B active)?, [^≈]+ ≈ ` + reNum + ` GB weights\)$`)
	reKVHead     = regexp.MustCompile(`^kv: ([0-9]+) tokens × ([0-9]+) sequences?, (\S+): (.*)$`)
	reKVEnd      = regexp.MustCompile(`^(.*) × ` + reNum + ` B = ` + reNum + ` GB(?:; vLLM also keeps .*)?$`)
	reKVEst      = regexp.MustCompile(`^estimated ` + reNum + ` GB \(([0-9.]+) GB per billion params per token(?: at fp16 × ([0-9.]+) B / 2 B)?; .*\)$`)
	reFit        = regexp.MustCompile(`^fit: s/token = (.*) / \(bandwidth × ` + reNum + `%, [^)]*\) \+ ` + reNum + ` ms overhead(?: \(` + reNum + ` ms \+ ` + reNum + ` µs × ([0-9]+) MoE layers[^)]*\)?\))?(?: \+ ` + reNum + ` ms between devices \(stated, not calibrated\))? ⇒ bandwidth ≥ ([0-9]+) GB/s( per device)? for ≥ (\S+) tok/s per sequence$`)
	reRead       = regexp.MustCompile(`^` + reNum + ` GB weights(?: \(` + reNum + `B active(?:: ` + reNum + `B of \S+ experts \+ ` + reNum + `B \S+)?\))? \+ ` + reNum + ` GB KV(?: read of the ` + reNum + ` GB: .*)?$`)
	reEffective  = regexp.MustCompile(` \(the effective ` + reNum + `B of ` + reNum + `B: [^)]*\)`)
	reReadSplit  = regexp.MustCompile(`^\((.*)\) (?:÷ ([0-9]+) devices|on ([0-9]+) devices in turn \(llama\.cpp's layer split\)|on ([0-9]+) devices: ` + reNum + ` GB weights \+ ` + reNum + ` GB KV each \((all|[0-9]+/[0-9]+|[0-9.]+%) of the KV cache: .*)$`)
	reMem        = regexp.MustCompile(`^memory: ≥ ` + reFloor + `( per device)? = ceil\(` + reNum + ` GiB weights \+ ` + reNum + ` GiB KV cache(, split ([0-9]+) ways,|, the weights split ([0-9]+) ways, (all|[0-9]+/[0-9]+|[0-9.]+%) of the KV cache on each device \([^)]*\),)? \+ ` + reNum + ` GiB (.*)\)$`)
	reMemTotal   = regexp.MustCompile(`^(.*) = ([0-9,]+\.[0-9]+) MiB$`)
	reReserveLC  = regexp.MustCompile(`^llama\.cpp reserve \(` + reNum + ` [^()]+ context \+ ` + reNum + ` compute buffer\)$`)
	reReserveV   = regexp.MustCompile(`^for vLLM V1 engine [^:]*: (.*)$`)
	reVTerm      = regexp.MustCompile(`^` + reNum + ` (activation peak|non-torch|outside --gpu-memory-utilization ` + reNum + ` \(vLLM's \S+ graphs, ≤ ` + reNum + `\)|budget left to KV blocks \(` + reNum + ` GiB is the least device that leaves the \S+ graphs their room\)|KV blocks beyond the cache|the driver keeps)$`)
	reDriverNo   = regexp.MustCompile(`^driver: \S+ publishes no bandwidth and no product list is known: the ≥ ([0-9]+) GB/s floor( per device)? is NOT enforced, only memory$`)
	reDriverAnyK = regexp.MustCompile(`^driver: llmfit\.ai first \(the floors above\), else gpu\.nvidia\.com, which publishes no bandwidth, so its floor is an allow-list of the products that meet ≥ ` + reFloor + ` and ≥ ([0-9]+) GB/s( per device)? \(the same s/token with bandwidth × ` + reNum + `%, [^)]*\): .*$`)
	reReserveMiB = regexp.MustCompile(`^reserve: its ([0-9]+) MiB \S+(?: \S+)? context is `)
	reShare      = regexp.MustCompile(`^share: capacity\.requests \S+(?: or \S+)*: ([0-9]+)(Gi|Mi) a device `)
)

// floorMi reads a floor as fit.MemoryFloorTextOf writes it ("24 Gi", "23,757 Mi (23.20 Gi)") in
// MiB, and says what is wrong with its words: Mi for a whole Gi, or a Gi figure that is not the
// MiB's to two decimals rounded down.
func floorMi(s string) (int64, string) {
	if gi, ok := strings.CutSuffix(s, " Gi"); ok && !strings.Contains(gi, " ") {
		n, _ := strconv.ParseInt(gi, 10, 64)
		return n * 1024, ""
	}
	mi, gi, _ := strings.Cut(s, " Mi (")
	n, _ := strconv.ParseInt(strings.ReplaceAll(mi, ",", ""), 10, 64)
	if n%1024 == 0 {
		return n, "a whole Gi written in Mi"
	}
	if want := strconv.FormatFloat(math.Floor(float64(n)*100/1024)/100, 'f', 2, 64) + " Gi)"; gi != want {
		return n, "the Gi figure is not " + want
	}
	return n, ""
}

// shareOf reads "all", "j/k" or a percentage.
func shareOf(s string, n int) float64 {
	switch {
	case s == "":
		return 1 / float64(n)
	case s == "all":
		return 1
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, _ := strconv.ParseFloat(p, 64)
		return v / 100
	}
	a, b, _ := strings.Cut(s, "/")
	j, _ := strconv.Atoi(a)
	k, _ := strconv.Atoi(b)
	return float64(j) / float64(k)
}

// splitTerms splits a " + "-separated sum at the top level (not inside parentheses).
func splitTerms(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '+':
			if depth == 0 && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ' {
				out = append(out, strings.TrimSpace(s[start:i-1]))
				start = i + 2
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// kvElementsPerToken evaluates the kv line's per-layer-kind formula, the elements a token holds
// for one sequence at context tokens (fixed state per sequence separately, in bytes).
func kvElementsPerToken(t testing.TB, f string, tokens float64) (perSeqElems, stateBytes, stateSlack float64, ok bool) {
	t.Helper()
	atoi := func(s string) float64 { v, _ := strconv.Atoi(s); return float64(v) }
	minT := func(w string) float64 { return math.Min(tokens, atoi(w)) }
	if m := regexp.MustCompile(`^2 × ([0-9]+) layers × ([0-9]+) KV heads × ([0-9]+) head dim$`).FindStringSubmatch(f); m != nil {
		return 2 * atoi(m[1]) * atoi(m[2]) * atoi(m[3]) * tokens, 0, 0, true
	}
	if m := regexp.MustCompile(`^2 × \(([0-9]+) full layers × tokens \+ ([0-9]+) sliding layers × min\(tokens, ([0-9]+)\)\) × ([0-9]+) KV heads × ([0-9]+) head dim$`).FindStringSubmatch(f); m != nil {
		return 2 * (atoi(m[1])*tokens + atoi(m[2])*minT(m[3])) * atoi(m[4]) * atoi(m[5]), 0, 0, true
	}
	if m := regexp.MustCompile(`^([0-9]+) layers × \(([0-9]+) latent \+ ([0-9]+) RoPE key\) per token \(MLA\)$`).FindStringSubmatch(f); m != nil {
		return atoi(m[1]) * (atoi(m[2]) + atoi(m[3])) * tokens, 0, 0, true
	}
	hybrid := regexp.MustCompile(`^(?:([0-9.]+) MB of .*? recurrent state per sequence \(the other layers\) \+ )?2 × ([0-9]+) full-attention layers \(of [0-9]+[^)]*\) × ([0-9]+) KV heads × ([0-9]+) head dim$`)
	if m := hybrid.FindStringSubmatch(f); m != nil {
		if m[1] != "" {
			n := parseNum(t, m[1])
			stateBytes, stateSlack = n.v*1e6, n.r*1e6
		}
		return 2 * atoi(m[2]) * atoi(m[3]) * atoi(m[4]) * tokens, stateBytes, stateSlack, true
	}
	// a hybrid of MLA layers (Kimi-Linear): one latent a token in each attention layer
	hybridMLA := regexp.MustCompile(`^([0-9.]+) MB of .*? recurrent state per sequence \(the other layers\) \+ ([0-9]+) full-attention layers \(of [0-9]+[^)]*\) × \(([0-9]+) latent \+ ([0-9]+) RoPE key\) per token \(MLA\)$`)
	if m := hybridMLA.FindStringSubmatch(f); m != nil {
		n := parseNum(t, m[1])
		return atoi(m[2]) * (atoi(m[3]) + atoi(m[4])) * tokens, n.v * 1e6, n.r * 1e6, true
	}
	csa := regexp.MustCompile(`^compressed attention, one entry both K and V: ([0-9.]+) MB of fp32 compressor state per sequence \+ \(([0-9]+) layers × ([0-9]+) × (tokens|min\(tokens, ([0-9]+)\)) \+ ([0-9]+) CSA layers × \(([0-9]+) \+ ([0-9]+) indexer\) × tokens/([0-9]+) \+ ([0-9]+) HCA layers × ([0-9]+) × tokens/([0-9]+)\)$`)
	if m := csa.FindStringSubmatch(f); m != nil {
		n := parseNum(t, m[1])
		win := tokens
		if m[5] != "" {
			win = minT(m[5])
		}
		e := atoi(m[2])*atoi(m[3])*win + atoi(m[6])*(atoi(m[7])+atoi(m[8]))*math.Ceil(tokens/atoi(m[9])) + atoi(m[10])*atoi(m[11])*math.Ceil(tokens/atoi(m[12]))
		return e, n.v * 1e6, n.r * 1e6, true
	}
	// Gemma-style per-kind shapes, perhaps only the first layers caching
	g := f
	if m := regexp.MustCompile(`^the first [0-9]+ of [0-9]+ layers \(the last [0-9]+ reuse their cache\): (.*)$`).FindStringSubmatch(g); m != nil {
		g = m[1]
	}
	if strings.HasPrefix(g, "(") && strings.HasSuffix(g, ")") {
		var sum float64
		pair := `(?:2 × ([0-9]+) KV heads × ([0-9]+) head dim|([0-9]+) KV heads × \(([0-9]+) K \+ ([0-9]+) V\) head dim)`
		term := regexp.MustCompile(`^([0-9]+) (?:full|sliding) layers × ` + pair + ` × (tokens|min\(tokens, ([0-9]+)\))$`)
		for _, x := range splitTerms(g[1 : len(g)-1]) {
			m := term.FindStringSubmatch(x)
			if m == nil {
				return 0, 0, 0, false
			}
			per := 0.0
			if m[2] != "" {
				per = 2 * atoi(m[2]) * atoi(m[3])
			} else {
				per = atoi(m[4]) * (atoi(m[5]) + atoi(m[6]))
			}
			n := tokens
			if m[8] != "" {
				n = minT(m[8])
			}
			sum += atoi(m[1]) * per * n
		}
		return sum, 0, 0, true
	}
	return 0, 0, 0, false
}

// checkHeaderArithmetic redoes every stated computation of one claim's header; it returns the
// number of lines whose arithmetic it recomputed.
func checkHeaderArithmetic(t *testing.T, what, yaml string) int {
	t.Helper()
	lines := unwrappedHeader(t, yaml)
	fail := func(l, format string, args ...any) {
		t.Helper()
		if failures++; failures > 30 { // one defect shows in many claims: the first ones say it
			t.Fail()
			return
		}
		t.Errorf("%s:\n  %s\n  %s", what, l, fmt.Sprintf(format, args...))
	}
	checked := 0
	var (
		llmfitBW, memGi, bwFloor int64 = -1, -1, -1
		llmfitW, tps, modelW     num
		kvGB                     num
		haveKV, haveModel        bool
		// the fit line's inputs, for driver any's NVIDIA floor
		fitBytesLo, fitBytesHi, fitO, fitC num
		fitSet                             bool
		count                                    = 1
		splitBW                            int64 = -1 // llmfit mode's bandwidth a device
		contextGi                          num        // the llama.cpp reserve's context, from the memory line
	)
	for _, l := range lines {
		switch {
		case reModel.MatchString(l):
			m := reModel.FindStringSubmatch(l)
			modelW, haveModel = parseNum(t, m[3]), true
		case reLlmfitFit.MatchString(l):
			m := reLlmfitFit.FindStringSubmatch(l)
			eff, _ := strconv.Atoi(m[1])
			llmfitW, tps = parseNum(t, m[2]), parseNum(t, m[4])
			llmfitBW, _ = strconv.ParseInt(m[3], 10, 64)
			// llmfit: bandwidth ≥ ceil(minTps × weights × 100 / efficiency)
			lo, hi := tps.v*llmfitW.lo()*100/float64(eff), tps.v*llmfitW.hi()*100/float64(eff)
			if !ceilIn(llmfitBW, lo, hi) {
				fail(l, "ceil(%v × %v GB × 100 / %d) is in [%.0f, %.0f], not %d", tps.v, llmfitW.v, eff, math.Ceil(lo), math.Ceil(hi), llmfitBW)
			}
			checked++
		case reLlmfitMem.MatchString(l):
			m := reLlmfitMem.FindStringSubmatch(l)
			memGi, _ = strconv.ParseInt(m[1], 10, 64)
			memGi *= 1024 // memGi holds MiB
		case reSplit.MatchString(l):
			m := reSplit.FindStringSubmatch(l)
			n, _ := strconv.Atoi(m[1])
			each, bad := floorMi(m[2])
			if bad != "" {
				fail(l, "%s", bad)
			}
			bw, _ := strconv.ParseInt(m[3], 10, 64)
			count = n
			if strings.HasPrefix(m[4], "together ") { // llmfit mode
				splitBW = bw
				if memGi >= 0 && memGi != each*int64(n) {
					fail(l, "the memory line's %d Mi is not %d devices × %d Mi", memGi, n, each)
				}
				// N devices give N × 0.9 of one's bandwidth
				lo := tps.v * llmfitW.lo() * 100 / float64(llmfitEff(lines)) / (0.9 * float64(n))
				hi := tps.v * llmfitW.hi() * 100 / float64(llmfitEff(lines)) / (0.9 * float64(n))
				if !ceilIn(bw, lo, hi) {
					fail(l, "ceil(%d GB/s / (%d × 0.9)) should be in [%.0f, %.0f], not %d", llmfitBW, n, math.Ceil(lo), math.Ceil(hi), bw)
				}
			} else if memGi >= 0 && (each != memGi || bw != bwFloor) {
				fail(l, "each device's %d Mi and %d GB/s are not the memory and fit lines' %d Mi and %d GB/s", each, bw, memGi, bwFloor)
			}
			checked++
		case reKVHead.MatchString(l):
			m := reKVHead.FindStringSubmatch(l)
			tokens, _ := strconv.ParseFloat(m[1], 64)
			seqs, _ := strconv.ParseFloat(m[2], 64)
			rest := m[4]
			if e := reKVEst.FindStringSubmatch(rest); e != nil {
				kvGB, haveKV = parseNum(t, e[1]), true
				per, _ := strconv.ParseFloat(e[2], 64)
				if e[3] != "" { // llmfit's fp16 rate scaled to the element
					elem, _ := strconv.ParseFloat(e[3], 64)
					per = per * elem / 2
				}
				if !haveModel {
					fail(l, "no model line before the kv line")
					break
				}
				p := parseNum(t, regexp.MustCompile(`\(([0-9.]+)B params`).FindStringSubmatch(lines[0])[1])
				// estimated: per × params × tokens × sequences
				lo, hi := per*p.lo()*tokens*seqs, per*p.hi()*tokens*seqs
				if kvGB.hi() < lo-1e-9 || kvGB.lo() > hi+1e-9 {
					fail(l, "%v GB per billion × %vB × %v tokens × %v = [%.3f, %.3f] GB, not %v", per, p.v, tokens, seqs, lo, hi, kvGB.v)
				}
				checked++
				break
			}
			e := reKVEnd.FindStringSubmatch(rest)
			if e == nil {
				fail(l, "the kv line's formula is not one this test reads")
				break
			}
			elem := parseNum(t, e[2]).v
			kvGB, haveKV = parseNum(t, e[3]), true
			perSeq, state, stateSlack, ok := kvElementsPerToken(t, e[1], tokens)
			if !ok {
				fail(l, "the kv formula %q is not one this test reads", e[1])
				break
			}
			got := (perSeq*elem + state) * seqs / 1e9
			if !closes(kvGB, got, stateSlack*seqs/1e9) {
				fail(l, "the formula gives %.4f GB, not %v", got, kvGB.v)
			}
			checked++
		case reFit.MatchString(l):
			m := reFit.FindStringSubmatch(l)
			eff := parseNum(t, m[2])
			o := parseNum(t, m[3])
			var c num
			if m[7] != "" {
				c = parseNum(t, m[7])
			}
			bw, _ := strconv.ParseInt(m[8], 10, 64)
			bwFloor = bw
			tpsV, err := strconv.ParseFloat(m[10], 64)
			if err != nil {
				fail(l, "target speed %q", m[10])
				break
			}
			if m[4] != "" { // MoE: overhead = t0 + layer time × layers
				t0, lt := parseNum(t, m[4]), parseNum(t, m[5])
				layers, _ := strconv.ParseFloat(m[6], 64)
				if !closes(o, t0.v+lt.v*layers/1000, t0.r+lt.r*layers/1000) {
					fail(l, "%v ms + %v µs × %v = %.4f ms, not %v", t0.v, lt.v, layers, t0.v+lt.v*layers/1000, o.v)
				}
			}
			read, n, mode, shareText := m[1], 1, "", ""
			var w1, k1 num
			if s := reReadSplit.FindStringSubmatch(read); s != nil {
				read = s[1]
				switch {
				case s[2] != "":
					n, _ = strconv.Atoi(s[2])
					mode = "even"
				case s[3] != "":
					n, _ = strconv.Atoi(s[3])
					mode = "turn"
				default:
					n, _ = strconv.Atoi(s[4])
					mode, w1, k1, shareText = "each", parseNum(t, s[5]), parseNum(t, s[6]), s[7]
				}
			} else {
				read = strings.TrimSuffix(strings.TrimPrefix(read, "("), ")")
			}
			var effective, effectiveOf num
			if e := reEffective.FindStringSubmatch(read); e != nil { // a Gemma "E" model reads its effective size
				effective, effectiveOf = parseNum(t, e[1]), parseNum(t, e[2])
				read = strings.Replace(read, e[0], "", 1)
			}
			r := reRead.FindStringSubmatch(read)
			if r == nil {
				fail(l, "the bytes read %q are not in a form this test reads", read)
				break
			}
			wr, kr := parseNum(t, r[1]), parseNum(t, r[5])
			if r[3] != "" { // experts + the rest = the active count
				a, ex, rest := parseNum(t, r[2]), parseNum(t, r[3]), parseNum(t, r[4])
				if !closes(a, ex.v+rest.v, ex.r+rest.r) {
					fail(l, "%vB of experts + %vB = %.2fB, not the %vB active", ex.v, rest.v, ex.v+rest.v, a.v)
				}
			}
			if haveKV {
				if r[6] != "" { // a part read of the whole
					if whole := parseNum(t, r[6]); whole.v != kvGB.v || kr.v > kvGB.v {
						fail(l, "KV read %v of %v GB: the kv line says %v GB", kr.v, whole.v, kvGB.v)
					}
				} else if kr.v != kvGB.v {
					fail(l, "%v GB KV read, the kv line's cache is %v GB", kr.v, kvGB.v)
				}
			}
			if effective.v > 0 { // the effective share of the model line's weights
				lo := effective.v * modelW.lo() / effectiveOf.hi()
				hi := effective.v * modelW.hi() / effectiveOf.lo()
				if wr.hi() < lo || wr.lo() > hi {
					fail(l, "%vB of %vB × %v GB = %.2f … %.2f GB, not %v", effective.v, effectiveOf.v, modelW.v, lo, hi, wr.v)
				}
			} else if haveModel && r[2] == "" && !closes(modelW, wr.v, wr.r) {
				fail(l, "%v GB weights read, the model line's weights are %v GB", wr.v, modelW.v)
			}
			if n > 1 && m[7] == "" || n == 1 && m[7] != "" {
				fail(l, "%d devices and communication %q", n, m[7])
			}
			if n > 1 && !closes(c, 0.5*float64(n-1), 0) { // 0.5 ms per extra device (fit/split.go)
				fail(l, "%v ms between %d devices, not 0.5 × %d", c.v, n, n-1)
			}
			lo, hi := wr.lo()+kr.lo(), wr.hi()+kr.hi()
			switch mode {
			case "even":
				lo, hi = lo/float64(n), hi/float64(n)
			case "each":
				share := shareOf(shareText, n)
				if !closes(w1, wr.v/float64(n), wr.r/float64(n)) {
					fail(l, "%v GB weights ÷ %d = %.3f, not %v each", wr.v, n, wr.v/float64(n), w1.v)
				}
				slack := kr.r * share
				if strings.HasSuffix(shareText, "%") { // a share printed to 0.1 %
					slack += kr.v * 0.0005
				}
				if !closes(k1, kr.v*share, slack) {
					fail(l, "%s of %v GB KV = %.3f, not %v each", shareText, kr.v, kr.v*share, k1.v)
				}
				lo, hi = w1.lo()+k1.lo(), w1.hi()+k1.hi()
			}
			fitBytesLo, fitBytesHi, fitO, fitC, fitSet = num{v: lo}, num{v: hi}, o, c, true
			// bandwidth ≥ bytes / (e × (1/minTps − overhead − communication))
			tLo := 1/tpsV - (o.hi()+c.hi())/1e3
			tHi := 1/tpsV - (o.lo()+c.lo())/1e3
			if tHi <= 0 {
				fail(l, "no time is left for the bytes at %v tok/s", tpsV)
				break
			}
			bLo := lo / (eff.hi() / 100 * tHi)
			bHi := math.Inf(1)
			if tLo > 0 {
				bHi = hi / (eff.lo() / 100 * tLo)
			}
			if !ceilIn(bw, bLo, bHi) {
				fail(l, "(%.3f … %.3f GB) / (%v%% × (1/%v s − %v ms − %v ms)) = %.2f … %.2f GB/s, not %d", lo, hi, eff.v, tpsV, o.v, c.v, bLo, bHi, bw)
			}
			checked++
		case reMem.MatchString(l):
			m := reMem.FindStringSubmatch(l)
			mem, bad := floorMi(m[1]) // MiB
			if bad != "" {
				fail(l, "%s", bad)
			}
			memGi = mem
			wg, kg, res := parseNum(t, m[3]), parseNum(t, m[4]), parseNum(t, m[9])
			n, shareText := 1, ""
			switch {
			case m[6] != "":
				n, _ = strconv.Atoi(m[6])
			case m[7] != "":
				n, _ = strconv.Atoi(m[7])
				shareText = m[8]
			}
			if (n > 1) != (m[2] != "") {
				fail(l, "per device %q with %d devices", m[2], n)
			}
			if n != count && count > 1 {
				fail(l, "split %d ways, the split line says %d devices", n, count)
			}
			share := shareOf(shareText, n)
			if haveModel && !closes(modelW, wg.v*gibGB, wg.r*gibGB) {
				fail(l, "%v GiB weights = %.3f GB, the model line says %v GB", wg.v, wg.v*gibGB, modelW.v)
			}
			perDevice := func(w, k float64) float64 { return w/float64(n) + k*share }
			// the reserve's parts add up to it; the total after them (" = 23,756.21 MiB") is their
			// sum, which the floor is the ceiling of to the MiB (a sum a byte over a MiB is that MiB)
			words := m[10]
			var total *num
			if tm := reMemTotal.FindStringSubmatch(words); tm != nil {
				words = tm[1]
				v := parseNum(t, strings.ReplaceAll(tm[2], ",", ""))
				total = &v
				if int64(math.Ceil(v.v-1e-6)) != mem {
					fail(l, "the total %v MiB does not ceil to the %d Mi floor", v.v, mem)
				}
			}
			if rm := reReserveLC.FindStringSubmatch(words); rm != nil {
				a, b := parseNum(t, rm[1]), parseNum(t, rm[2])
				contextGi = a
				if !closes(res, a.v+b.v, a.r+b.r) {
					fail(l, "%v + %v = %.2f, not the %v GiB reserve", a.v, b.v, a.v+b.v, res.v)
				}
			} else if rm := reReserveV.FindStringSubmatch(words); rm != nil {
				var sum, slack, outside, util, graphs, budget, least float64
				var rest, rests float64 // parts inside the budget (need, besides weights and KV)
				for _, x := range splitTerms(rm[1]) {
					tm := reVTerm.FindStringSubmatch(x)
					if tm == nil {
						fail(l, "a vLLM reserve part this test does not read: %q", x)
						continue
					}
					v := parseNum(t, tm[1])
					sum, slack = sum+v.v, slack+v.r
					switch {
					case strings.HasPrefix(tm[2], "outside"):
						outside, util, graphs = v.v, parseNum(t, tm[3]).v, parseNum(t, tm[4]).v
					case strings.HasPrefix(tm[2], "budget left"):
						budget = v.v
						least = parseNum(t, tm[5]).v
						rest, rests = rest+v.v, rests+v.r
					case tm[2] == "the driver keeps":
					default:
						rest, rests = rest+v.v, rests+v.r
					}
				}
				if !closes(res, sum, slack) {
					fail(l, "the vLLM parts add up to %.2f, not the %v GiB reserve", sum, res.v)
				}
				// the share outside --gpu-memory-utilization: max(need / u, graphs / (1 − u)) − need
				if util > 0 && util < 1 {
					need := perDevice(wg.v, kg.v) + rest
					needSlack := wg.r/float64(n) + kg.r*share + rests
					want := math.Max(need/util, graphs/(1-util)) - need
					if math.Abs(want-outside) > 0.005+needSlack/util+1e-9 {
						fail(l, "max(%.2f / %v, %v / (1 − %v)) − %.2f = %.3f GiB outside the utilization, not %v", need, util, graphs, util, need, want, outside)
					}
					if budget > 0 && math.Abs(least-graphs/(1-util)) > 0.005+1e-9 {
						fail(l, "the least device %v GiB is not %v / (1 − %v) = %.2f", least, graphs, util, graphs/(1-util))
					}
				}
			} else {
				fail(l, "a reserve this test does not read: %q", words)
			}
			if haveKV && !closes(kg, kvGB.v/gibGB, kvGB.r/gibGB) {
				fail(l, "%v GiB KV cache = %.3f GB, the kv line says %v GB", kg.v, kg.v*gibGB, kvGB.v)
			}
			// a share printed as a percentage ("20.4%") is rounded: half its last digit either way
			shareR := 0.0
			if p, ok := strings.CutSuffix(shareText, "%"); ok {
				shareR = 0.5 / 100
				if _, frac, ok := strings.Cut(p, "."); ok {
					shareR /= math.Pow(10, float64(len(frac)))
				}
			}
			lo := wg.lo()/float64(n) + kg.lo()*(share-shareR) + res.lo()
			hi := wg.hi()/float64(n) + kg.hi()*(share+shareR) + res.hi()
			if !ceilIn(mem, lo*1024, hi*1024) {
				fail(l, "ceil(1024 × (%v / %d + %v × %.4f + %v)) = ceil(%.1f … %.1f), not %d", wg.v, n, kg.v, share, res.v, lo*1024, hi*1024, mem)
			}
			// as a reader redoes it: the parts at two decimals of a GiB cannot say which MiB their
			// sum ceils to, so the line says its total in MiB
			if total == nil {
				fail(l, "no total in MiB is said")
			} else if !(total.v >= lo*1024-total.r-1e-9 && total.v <= hi*1024+total.r+1e-9) {
				fail(l, "the total %v MiB is not the parts' %.2f … %.2f", total.v, lo*1024, hi*1024)
			}
			checked++
		case reDriverNo.MatchString(l):
			m := reDriverNo.FindStringSubmatch(l)
			bw, _ := strconv.ParseInt(m[1], 10, 64)
			if (m[2] != "") != (count > 1) { // a device's floor, said so (llmfit mode's fit line is the whole model's)
				fail(l, "%d devices, and the floor says %q", count, m[2])
			}
			want := bwFloor
			if want < 0 { // llmfit mode: the floor a device
				want = llmfitBW
				if splitBW >= 0 {
					want = splitBW
				}
			}
			if bw != want {
				fail(l, "the unenforced floor %d GB/s is not the fit line's %d", bw, want)
			}
			checked++
		case reDriverAnyK.MatchString(l):
			m := reDriverAnyK.FindStringSubmatch(l)
			mem, bad := floorMi(m[1])
			if bad != "" {
				fail(l, "%s", bad)
			}
			bw, _ := strconv.ParseInt(m[2], 10, 64)
			eff := parseNum(t, m[4])
			if mem != memGi {
				fail(l, "%d Mi, the memory line says %d", mem, memGi)
			}
			if fitSet {
				tps := lineTps(lines)
				tLo := 1/tps - (fitO.hi()+fitC.hi())/1e3
				tHi := 1/tps - (fitO.lo()+fitC.lo())/1e3
				bLo := fitBytesLo.v / (eff.hi() / 100 * tHi)
				bHi := fitBytesHi.v / (eff.lo() / 100 * tLo)
				if !ceilIn(bw, bLo, bHi) {
					fail(l, "the same s/token at %v%% gives %.2f … %.2f GB/s, not %d", eff.v, bLo, bHi, bw)
				}
			}
			checked++
		case reReserveMiB.MatchString(l): // "reserve: its 451 MiB ROCm/HIP context is …": the memory line's context
			mib := parseNum(t, reReserveMiB.FindStringSubmatch(l)[1])
			if contextGi.v > 0 && !closes(contextGi, mib.v/1024, 0) {
				fail(l, "%v MiB = %.3f GiB, the memory line's context is %v GiB", mib.v, mib.v/1024, contextGi.v)
			}
			checked++
		case reShare.MatchString(l):
			sm := reShare.FindStringSubmatch(l)
			mem, _ := strconv.ParseInt(sm[1], 10, 64)
			if sm[2] == "Gi" {
				mem *= 1024
			} else if mem%1024 == 0 {
				fail(l, "a whole Gi asked in Mi")
			}
			want := memGi
			if llmfitBW >= 0 {
				want = memGi / int64(count) // llmfit mode's memory line is the whole model's
			}
			if mem != want {
				fail(l, "%d Mi a device, the memory lines say %d", mem, want)
			}
			checked++
		case strings.HasPrefix(l, "fit:") || strings.HasPrefix(l, "memory:") || strings.HasPrefix(l, "kv:") || strings.HasPrefix(l, "split:") || strings.HasPrefix(l, "model:"):
			fail(l, "a line of numbers this test does not read")
		}
	}
	return checked
}

func llmfitEff(lines []string) int {
	for _, l := range lines {
		if m := reLlmfitFit.FindStringSubmatch(l); m != nil {
			e, _ := strconv.Atoi(m[1])
			return e
		}
	}
	return 0
}

func lineTps(lines []string) float64 {
	for _, l := range lines {
		if m := reFit.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseFloat(m[10], 64)
			return v
		}
	}
	return 0
}

func TestHeaderArithmeticCloses(t *testing.T) {
	models := catalog.Models()
	step := 5
	if testing.Short() {
		step = 17
	}
	type variant struct {
		sizing, driver, engine, kv string
		count, ctx, seqs           int
		tps                        float64
		eff                        int
		capacity                   bool
	}
	var variants []variant
	for _, d := range []string{"llmfit", "nvidia", "amd", "intel", "any"} {
		for _, n := range []int{1, 2, 3, 8} {
			variants = append(variants, variant{sizing: "llmfit", driver: d, count: n, tps: 20, capacity: n == 2})
			for _, e := range []string{"", "vllm"} {
				variants = append(variants, variant{sizing: "kv", driver: d, engine: e, count: n, tps: 20})
			}
		}
	}
	variants = append(variants,
		variant{sizing: "kv", driver: "nvidia", count: 1, ctx: 32768, seqs: 4, kv: "fp8", tps: 30},
		variant{sizing: "kv", driver: "any", engine: "vllm", count: 4, ctx: 131072, seqs: 2, tps: 7.5},
		variant{sizing: "kv", driver: "llmfit", count: 2, ctx: 1000, seqs: 3, kv: "q4_0", tps: 50, eff: 60},
		variant{sizing: "kv", driver: "amd", engine: "vllm", count: 8, ctx: 8191, seqs: 16, kv: "fp8", tps: 12, capacity: true},
		variant{sizing: "llmfit", driver: "nvidia", count: 1, tps: 22.5, eff: 70},
	)
	renders, lines := 0, 0
	for i := 0; i < len(models); i += step {
		for _, v := range variants {
			tg := target.Default()
			tg.Model, tg.Sizing, tg.Driver, tg.Count, tg.Engine = models[i].Name, v.sizing, v.driver, v.count, v.engine
			tg.Context, tg.KVCache, tg.MinTps, tg.CapacityRequest = v.ctx, v.kv, v.tps, v.capacity
			if v.kv == "" {
				tg.KVCache = target.Default().KVCache
			}
			if v.seqs > 0 {
				tg.Sequences = v.seqs
			}
			if v.eff > 0 {
				tg.EfficiencyPct = v.eff
			}
			r, err := Render(tg)
			if err != nil {
				continue
			}
			renders++
			lines += checkHeaderArithmetic(t, target.Permalink(tg), r.YAML)
		}
	}
	// custom models and every architecture override, in each engine and over devices
	for _, base := range []string{
		"p=7", "p=70&L=80&kvh=8&hd=128", "p=30&ap=3&L=48&kvh=4&hd=128", "p=235&ap=22&ne=128&nept=8&L=94&kvh=4&hd=128&q=MXFP4",
		"p=27&L=62&kvh=16&hd=128&att=gqa&sw=1024&sl=52", "p=80&ap=3&L=48&kvh=2&hd=256&att=hybrid&fal=12",
		"p=671&ap=37&L=61&att=mla&klr=512&qkr=64", "p=284&ap=13&L=43&kvh=1&hd=512&att=csa&csal=21&hcal=20&sw=128",
		"m=Qwen%2FQwen3-8B&L=40&kvh=4", "m=google%2Fgemma-3-27b-it&sw=2048", "p=0.5&q=Q8_0", "p=1000&q=Q2_K",
	} {
		for _, extra := range []string{"&s=kv", "&s=kv&engine=vllm&n=2&drv=nvidia", "&s=kv&ctx=100000&seq=3&kv=fp8&drv=any&n=4", "&s=kv&kv=q8_0&drv=amd&tps=5", ""} {
			tg, err := target.ParsePermalink(base + extra)
			if err != nil {
				t.Fatalf("%s%s: %v", base, extra, err)
			}
			r, err := Render(tg)
			if err != nil {
				continue
			}
			renders++
			lines += checkHeaderArithmetic(t, base+extra, r.YAML)
		}
	}
	t.Logf("%d claims rendered, %d header lines recomputed, %d lines that do not close", renders, lines, failures)
	if renders < 100 || lines < 3*renders/2 {
		t.Errorf("only %d claims and %d lines checked", renders, lines)
	}
}

// failures counts the lines that do not close.
var failures int
