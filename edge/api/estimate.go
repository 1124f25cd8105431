package api

import "github.com/fitclaim/fitclaim/estimate"

// estimateJSON is `fitclaim estimate --json`, byte for byte with its last newline (as every JSON
// answer ends): the target's keys (m, p, q, ctx, seq, kv, n, L, kvh, hd, ap) and the device's
// (on, or memory, bandwidth, family, unified).
func estimateJSON(raw string) (string, string, error) {
	e, err := estimate.RunRaw(raw)
	if err != nil {
		return "", "", err
	}
	return estimate.JSON(e) + "\n", TypeJSON, nil
}

// fittingJSON lists the most downloaded catalog models that fit the device (n of them), ending
// in a newline as every JSON answer.
func fittingJSON(raw string) (string, string, error) {
	list, err := estimate.Fitting(raw)
	if err != nil {
		return "", "", err
	}
	return estimate.FittingJSON(list) + "\n", TypeJSON, nil
}
