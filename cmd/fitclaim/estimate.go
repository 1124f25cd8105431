package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// parseEstimateArgs reads the command line as claim does (the flags are the field table's),
// taking only the flags the estimate reads.
func parseEstimateArgs(args []string) (claimArgs, error) {
	c, err := parseClaimArgs(args)
	if err != nil {
		return c, err
	}
	for i := range target.Fields { // in the table's order: the same flag named every time
		if f := &target.Fields[i]; len(c.values[f.Key]) > 0 && f.Flag != "" && !slices.Contains(estimate.Flags, f.Flag) {
			// Which commands read it, as claim says of --on: it is a flag of fitclaim's, and
			// "unknown flag --driver" sent the user looking for a spelling.
			readers := "fitclaim claim, deploy and check read it"
			if r := readerOf(f); r != "" {
				readers = "fitclaim " + r + " reads it"
			}
			return c, fmt.Errorf("--%s: only %s; estimate sizes the model on the device given", f.Flag, readers)
		}
	}
	return c, nil
}

func runEstimate(args []string, stdout, stderr io.Writer) int {
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		fmt.Fprint(stdout, usage())
		return 0
	}
	c, err := parseEstimateArgs(args)
	if err != nil {
		return usageError(stderr, "estimate", err)
	}
	asJSON := c.json
	var e fit.Estimate
	if c.hasLink { // a page link of the hardware mode or an estimate.json link: the API's answer
		e, err = estimate.RunRaw(linkTarget(c.permalink))
	} else {
		e, err = estimate.Run(c.values)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fitclaim estimate:", cliMessage(err, c.hasLink))
		return exitError
	}
	if asJSON {
		fmt.Fprintln(stdout, estimate.JSON(e))
	} else {
		fmt.Fprint(stdout, estimate.Text(e))
	}
	return 0
}
