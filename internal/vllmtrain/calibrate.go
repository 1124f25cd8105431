package vllmtrain

import (
	"math"

	"github.com/fitclaim/fitclaim/fit"
)

// Constants are the figures fit's vLLM model takes from the data, and the rows behind each.
type Constants struct {
	LogitFactor, HiddenFactor float64 // activation peak = LogitFactor × logits + HiddenFactor × states
	NonTorch, NonTorchTP      float64 // mean non-torch memory, one device / tensor parallel
	CUDAGraph                 float64 // the largest CUDA-graph capture
	ActRows, NonTorchRows     []string
	GraphRows                 []string
}

// Limits are the scheduler limits a row ran with: those its notes state, else vLLM's defaults
// for its device.
func (r *Row) Limits() (seqs, tokens int) {
	seqs, tokens = fit.VLLMDefaultLimits(r.Total, r.GPU)
	if r.MaxNumSeqs > 0 {
		seqs = r.MaxNumSeqs
	}
	if r.MaxTokens > 0 {
		tokens = r.MaxTokens
	}
	return seqs, tokens
}

// Calibrate derives the constants from the V1 rows:
//   - the activation multiples by least squares without intercept over the text-only V1 rows
//     that log their activation peak, on fit.VLLMActivationTerms of each row's limits;
//   - the non-torch memory as the mean of the V1 rows that log it, one device and tensor
//     parallel apart;
//   - the CUDA-graph headroom as the largest capture a V1 row logs.
func Calibrate(rows []Row) Constants {
	var c Constants
	var sxx, sxz, szz, sxy, szy float64
	var nt1, ntN []float64
	c.CUDAGraph = math.Inf(-1)
	for i := range rows {
		r := &rows[i]
		if !r.V1() {
			continue
		}
		if Known(r.Act) && !r.Multimodal() && r.Arch != nil {
			seqs, tokens := r.Limits()
			x, z := fit.VLLMActivationTerms(seqs, tokens, r.Arch.Vocab, r.Arch.Hidden)
			sxx, sxz, szz, sxy, szy = sxx+x*x, sxz+x*z, szz+z*z, sxy+x*r.Act, szy+z*r.Act
			c.ActRows = append(c.ActRows, r.ID)
		}
		if Known(r.NonTorch) {
			if r.TP > 1 {
				ntN = append(ntN, r.NonTorch)
			} else {
				nt1 = append(nt1, r.NonTorch)
			}
			c.NonTorchRows = append(c.NonTorchRows, r.ID)
		}
		if Known(r.CUDAGraph) {
			c.CUDAGraph = max(c.CUDAGraph, r.CUDAGraph)
			c.GraphRows = append(c.GraphRows, r.ID)
		}
	}
	det := sxx*szz - sxz*sxz
	c.LogitFactor = (sxy*szz - szy*sxz) / det
	c.HiddenFactor = (sxx*szy - sxz*sxy) / det
	c.NonTorch, c.NonTorchTP = mean(nt1), mean(ntN)
	return c
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// HeldOut is one calibration row's activation peak predicted by the fit of the other rows.
type HeldOut struct {
	ID                string
	Logged, Predicted float64
}

// LeaveOneOut refits the activation multiples without each calibration row in turn and
// predicts that row's activation peak: how the fit does on a start-up it has not seen.
func LeaveOneOut(rows []Row) []HeldOut {
	all := Calibrate(rows)
	var out []HeldOut
	for _, id := range all.ActRows {
		var rest []Row
		var left *Row
		for i := range rows {
			if rows[i].ID == id {
				left = &rows[i]
				continue
			}
			rest = append(rest, rows[i])
		}
		c := Calibrate(rest)
		seqs, tokens := left.Limits()
		x, z := fit.VLLMActivationTerms(seqs, tokens, left.Arch.Vocab, left.Arch.Hidden)
		out = append(out, HeldOut{ID: id, Logged: left.Act, Predicted: c.LogitFactor*x + c.HiddenFactor*z})
	}
	return out
}
