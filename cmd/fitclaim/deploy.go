package main

import (
	"fmt"
	"io"

	"github.com/fitclaim/fitclaim/deploy"
)

// runDeploy is `fitclaim deploy MODEL [claim flags]`: the claim flags are the target's, and the
// engine and image are two of them (--engine, --image).
func runDeploy(args []string, stdout, stderr io.Writer) int {
	c, err := commandArgs("deploy", args)
	if err == nil && c.json {
		err = fmt.Errorf("--json: deploy writes YAML only (claim --json gives the fit as JSON)")
	}
	if err != nil {
		return usageError(stderr, "deploy", err)
	}
	t, err := c.target()
	if err == nil {
		var r deploy.Result
		if r, err = deploy.Render(t); err == nil {
			// r.Warnings(), the claim's then the Problems (the API's Warning headers), with the
			// summary between them.
			for _, w := range r.Claim.Warnings {
				fmt.Fprintln(stderr, "fitclaim: warning:", w)
			}
			fmt.Fprintln(stderr, "fitclaim:", r.Summary)
			for _, p := range r.Problems {
				fmt.Fprintln(stderr, "fitclaim: warning:", p)
			}
			fmt.Fprint(stdout, r.YAML)
			return 0
		}
	}
	fmt.Fprintln(stderr, "fitclaim deploy:", cliMessage(err, c.hasLink))
	return exitError
}
