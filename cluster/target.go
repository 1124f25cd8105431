package cluster

import (
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// CheckTarget renders the target's claim and checks it against the slices: what the command
// line, the API and the page call, so they give the same answer.
func CheckTarget(t target.Target, slicesData []byte) (Report, error) {
	return CheckTargetInUse(t, slicesData, nil)
}

// CheckTargetInUse is CheckTarget with the cluster's ResourceClaims (nil: none given): the
// devices they hold are not free. The command line's --claims, the API's claims part and the
// page's claims box all come here.
func CheckTargetInUse(t target.Target, slicesData, claimsData []byte) (Report, error) {
	r, err := claim.Render(t)
	if err != nil {
		return Report{}, err
	}
	return CheckInUse(&r.Bounds, slicesData, claimsData)
}
