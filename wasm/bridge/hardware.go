package bridge

import (
	"github.com/fitclaim/fitclaim/catalog"
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

// DevicesJSON lists what the hardware mode offers: the catalog's accelerators with their numbers
// and family, and the families a device given by numbers may name.
func DevicesJSON() string {
	var w jsontext.Writer
	w.BeginObject()
	w.Key("families")
	w.Strs(fit.Families())
	w.Key("devices")
	w.BeginArray()
	for _, a := range catalog.Accelerators() {
		fam, unified := fit.AcceleratorFamily(&a)
		w.BeginObject()
		str(&w, "id", a.ID)
		str(&w, "name", a.Name)
		num(&w, "memoryGiB", float64(a.MemoryMiB)/1024) // unrounded, as every number the bridge gives
		num(&w, "bandwidthGBs", a.BandwidthGBs)
		str(&w, "family", fam)
		boolean(&w, "unified", unified)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
	return w.String()
}
