package speedcal

import (
	"math"

	"github.com/fitclaim/fitclaim/fit"
)

// The objective, exactly. Over the in-scope training runs i and the families f of fit.Families():
//
//	minimise  Σ_i (ln(predicted_i / measured_i))²  +  PriorRuns × Σ_f (ln e_f − μ)²
//
// over ln e_f (one per family), μ, ln t0 and ln tMoE (the per-token time of each decoder layer
// of a mixture of experts). The squared log ratio scores an
// estimate twice too fast and one half as fast alike; the prior term is a Gaussian prior on each
// family's log-efficiency around a common μ (itself fitted) worth PriorRuns runs, so that a
// family with few runs (Intel: 3) is pulled toward the pooled value in proportion and a family
// with none ("other") gets exactly e^μ, the geometric mean of the others, rather than a guess.
// Solved by Levenberg–Marquardt from a fixed start with central-difference derivatives and a
// fixed iteration budget: the same data give the same constants on every machine (the
// generated file rounds them to 4 significant digits). A Huber loss (log errors past 0.05–0.5
// counted linearly) was tried and scored lower in cross-validation, and so was a heavier prior.
const PriorRuns = 1.0

// parameter vector: ln e_f for each family, then μ, ln t0, ln tMoE.
type layout struct{ nf int }

func (l layout) mu() int   { return l.nf }
func (l layout) t0() int   { return l.nf + 1 }
func (l layout) moe() int  { return l.nf + 2 }
func (l layout) size() int { return l.nf + 3 }
func famIndex() map[string]int {
	m := map[string]int{}
	for i, f := range fit.Families() {
		m[f] = i
	}
	return m
}

func (l layout) constants(theta []float64, runs []Run) Constants {
	c := Constants{Efficiency: map[string]float64{}, Runs: map[string]int{}}
	for i, f := range fit.Families() {
		c.Efficiency[f] = math.Exp(theta[i])
		c.Runs[f] = 0
	}
	for k := range runs {
		c.Runs[runs[k].Family]++
	}
	c.PooledLogEff = theta[l.mu()]
	c.OverheadSec = math.Exp(theta[l.t0()])
	c.MoELayerSec = math.Exp(theta[l.moe()])
	return c
}

func (l layout) residuals(theta []float64, runs []Run, fam map[string]int, out []float64) {
	t0, tMoE := math.Exp(theta[l.t0()]), math.Exp(theta[l.moe()])
	for k := range runs {
		r := &runs[k]
		out[k] = math.Log(predict(r, math.Exp(theta[fam[r.Family]]), t0, tMoE) / r.MeasuredTps)
	}
	w := math.Sqrt(PriorRuns)
	for f := 0; f < l.nf; f++ {
		out[len(runs)+f] = w * (theta[f] - theta[l.mu()])
	}
}

// Fit calibrates the model on the in-scope runs given (the caller filters).
func Fit(runs []Run) Constants {
	l := layout{nf: len(fit.Families())}
	fam := famIndex()
	theta := make([]float64, l.size())
	for f := 0; f < l.nf; f++ {
		theta[f] = math.Log(0.6)
	}
	theta[l.mu()] = math.Log(0.6)
	theta[l.t0()] = math.Log(0.002)
	theta[l.moe()] = math.Log(5e-5)
	theta = levenbergMarquardt(theta, len(runs)+l.nf, func(th, out []float64) { l.residuals(th, runs, fam, out) })
	return l.constants(theta, runs)
}

func sumSquares(r []float64) float64 {
	s := 0.0
	for _, x := range r {
		s += x * x
	}
	return s
}

// levenbergMarquardt minimises Σ r² from theta with a fixed budget of 500 iterations.
func levenbergMarquardt(theta []float64, m int, res func(theta, out []float64)) []float64 {
	n := len(theta)
	r := make([]float64, m)
	rp, rm := make([]float64, m), make([]float64, m)
	jac := make([][]float64, n) // jac[j][i] = ∂r_i/∂θ_j
	for j := range jac {
		jac[j] = make([]float64, m)
	}
	res(theta, r)
	cost := sumSquares(r)
	lambda := 1e-3
	trial := make([]float64, n)
	rt := make([]float64, m)
	for iter := 0; iter < 500; iter++ {
		const h = 1e-6
		for j := 0; j < n; j++ {
			saved := theta[j]
			theta[j] = saved + h
			res(theta, rp)
			theta[j] = saved - h
			res(theta, rm)
			theta[j] = saved
			for i := 0; i < m; i++ {
				jac[j][i] = (rp[i] - rm[i]) / (2 * h)
			}
		}
		// normal equations JᵀJ δ = −Jᵀr, damped on the diagonal
		jtj := make([][]float64, n)
		jtr := make([]float64, n)
		for a := 0; a < n; a++ {
			jtj[a] = make([]float64, n)
			for b := 0; b < n; b++ {
				s := 0.0
				for i := 0; i < m; i++ {
					s += jac[a][i] * jac[b][i]
				}
				jtj[a][b] = s
			}
			s := 0.0
			for i := 0; i < m; i++ {
				s += jac[a][i] * r[i]
			}
			jtr[a] = -s
		}
		improved := false
		for tries := 0; tries < 30; tries++ {
			sys := make([][]float64, n)
			for a := range sys {
				sys[a] = append([]float64(nil), jtj[a]...)
				sys[a][a] += lambda * math.Max(jtj[a][a], 1e-12)
			}
			delta, ok := solveLinear(sys, append([]float64(nil), jtr...))
			if ok {
				for j := range trial {
					trial[j] = theta[j] + delta[j]
				}
				res(trial, rt)
				if c := sumSquares(rt); c < cost && !math.IsNaN(c) {
					rel := (cost - c) / cost
					copy(theta, trial)
					copy(r, rt)
					cost = c
					lambda = math.Max(lambda/10, 1e-12)
					improved = true
					if rel < 1e-15 {
						return theta
					}
					break
				}
			}
			lambda *= 10
		}
		if !improved {
			return theta
		}
	}
	return theta
}

// solveLinear solves a x = b by Gaussian elimination with partial pivoting.
func solveLinear(a [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	for col := 0; col < n; col++ {
		p := col
		for row := col + 1; row < n; row++ {
			if math.Abs(a[row][col]) > math.Abs(a[p][col]) {
				p = row
			}
		}
		if a[p][col] == 0 {
			return nil, false
		}
		a[col], a[p] = a[p], a[col]
		b[col], b[p] = b[p], b[col]
		for row := col + 1; row < n; row++ {
			f := a[row][col] / a[col][col]
			for k := col; k < n; k++ {
				a[row][k] -= f * a[col][k]
			}
			b[row] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for row := n - 1; row >= 0; row-- {
		s := b[row]
		for k := row + 1; k < n; k++ {
			s -= a[row][k] * x[k]
		}
		x[row] = s / a[row][row]
	}
	return x, true
}
