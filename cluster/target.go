package cluster

import (
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// CheckTarget renders the target's claim and checks it against the slices: what the command
// line, the API and the page call, so they give the same answer.
func CheckTarget(t target.Target, slicesData []byte) (Report, error) {
	r, err := claim.Render(t)
	if err != nil {
		return Report{}, err
	}
	return Check(&r.Bounds, slicesData)
}
