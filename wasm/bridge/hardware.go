package bridge

import (
	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// DevicesJSON lists what the hardware mode offers: the catalog's accelerators with their numbers
// and family, and the families a device given by numbers may name. A device whose name is over
// catalog.ShortNameMax characters also has shortName, the label the page's select shows.
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
		if a.ShortName != "" {
			str(&w, "shortName", a.ShortName)
		}
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
