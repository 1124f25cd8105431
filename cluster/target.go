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
	return CheckTargetInputs(t, Inputs{Slices: slicesData, Claims: claimsData})
}

// CheckTargetInputs is CheckTarget with every input: the claims (whose devices are not free) and
// the nodes (which the slices' node selectors resolve to), each nil when not given. The command
// line's --nodes, the API's nodes part and the page's nodes box come here.
func CheckTargetInputs(t target.Target, in Inputs) (Report, error) {
	r, err := claim.Render(t)
	if err != nil {
		return Report{}, err
	}
	return CheckInputs(&r.Bounds, in)
}
