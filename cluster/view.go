package cluster

import "encoding/json"

// ViewJSON is the report as the page's panel shows it: the JSON contract's allocatable and
// devices, plus the placement and the notes in words.
func (r *Report) ViewJSON() string {
	b, err := json.Marshal(struct {
		Allocatable bool           `json:"allocatable"`
		Devices     []DeviceResult `json:"devices"`
		Placement   string         `json:"placement"`
		Notes       []string       `json:"notes"`
	}{r.Allocatable, r.Devices, r.Placement, r.Notes})
	if err != nil { // strings, bools and slices of them always marshal
		panic("cluster: " + err.Error())
	}
	return string(b)
}

// CheckClaimJSON checks slices against a claim given as its JSON, with the devices the cluster's
// claims hold taken (claimsData nil: none given): what the page's cluster wasm calls. It answers
// ViewJSON.
func CheckClaimJSON(claimJSON string, slicesData, claimsData []byte) (string, error) {
	return CheckClaimJSONInputs(claimJSON, Inputs{Slices: slicesData, Claims: claimsData})
}

// CheckClaimJSONInputs is CheckClaimJSON with every input (the nodes too; nil: not given).
func CheckClaimJSONInputs(claimJSON string, in Inputs) (string, error) {
	b, err := BoundsFromClaimJSON(claimJSON)
	if err != nil {
		return "", err
	}
	r, err := CheckInputs(b, in)
	if err != nil {
		return "", err
	}
	return r.ViewJSON(), nil
}
