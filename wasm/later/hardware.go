package later

import (
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// HardwareFitting is how many popular models the page's hardware mode lists.
const HardwareFitting = 10

// HardwareJSON answers the page's hardware mode for a query of the estimate's keys (those of
// fitclaim estimate and /api/v1/estimate.json): {"estimate": the API's object or null when no
// model is given, "text": the command line's words, "fitting": the most downloaded models that
// fit the same devices}.
func HardwareJSON(raw string) (string, error) {
	t, d, err := estimate.ParseRawQuery(raw)
	if err != nil {
		return "", err
	}
	fitting, err := fit.FittingModels(d, t.Count, HardwareFitting)
	if err != nil {
		return "", err
	}
	est, text := "null", ""
	if t.Model != "" || t.ParamsB != 0 {
		e, err := fit.EstimateOn(t, d)
		if err != nil {
			return "", err
		}
		est, text = estimate.JSON(e), estimate.Text(e)
	}
	var w jsontext.Writer
	w.BeginObject()
	w.Key("estimate")
	w.Raw(est)
	str(&w, "text", text)
	w.Key("fitting")
	w.Raw(estimate.FittingJSON(fitting))
	w.EndObject()
	return w.String(), nil
}
