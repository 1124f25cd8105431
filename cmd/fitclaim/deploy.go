package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/target"
)

// runDeploy is `fitclaim deploy MODEL [claim flags]`: the claim flags are the target's, and the
// engine and image are two of them (--engine, --image).
func runDeploy(args []string, stdout, stderr io.Writer) int {
	c, err := parseClaimArgs(args)
	if err == nil && c.json {
		err = fmt.Errorf("--json: deploy writes YAML only (claim --json gives the fit as JSON)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "fitclaim deploy: %v\n\n%s", err, usage())
		return exitUsage
	}
	var t target.Target
	if c.hasLink {
		link := c.permalink
		if at := strings.IndexAny(link, "#?"); at >= 0 {
			link = link[at+1:] // a whole page or API URL works too
		}
		t, err = target.ParsePermalink(link)
	} else {
		t, err = target.ParseQuery(c.values)
	}
	if err == nil {
		var r deploy.Result
		if r, err = deploy.Render(t); err == nil {
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
	fmt.Fprintln(stderr, "fitclaim deploy:", err)
	return exitError
}
