package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// estimateField names a field for messages by its label and its flag, as the table spells them
// ("Device bandwidth (--bandwidth)"); the model, which has no flag, by its label alone.
func estimateField(field string) string {
	f, ok := target.ByName(field)
	switch {
	case !ok:
		return field
	case f.Flag == "":
		return f.Label
	}
	return f.Label + " (--" + f.Flag + ")"
}

// parseEstimateArgs reads the command line as claim does (the flags are the field table's),
// taking only the flags the estimate reads.
func parseEstimateArgs(args []string) (target.Values, bool, error) {
	c, err := parseClaimArgs(args)
	if err != nil {
		return nil, false, err
	}
	if c.hasLink {
		return nil, false, fmt.Errorf("unknown flag --%s", flagPermalink)
	}
	for i := range target.Fields { // in the table's order: the same flag named every time
		if f := &target.Fields[i]; len(c.values[f.Key]) > 0 && f.Flag != "" && !slices.Contains(estimate.Flags, f.Flag) {
			return nil, false, fmt.Errorf("unknown flag --%s", f.Flag)
		}
	}
	return c.values, c.json, nil
}

func runEstimate(args []string, stdout, stderr io.Writer) int {
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		fmt.Fprint(stdout, usage())
		return 0
	}
	v, asJSON, err := parseEstimateArgs(args)
	if err != nil {
		return usageError(stderr, "estimate", err)
	}
	e, err := estimate.Run(v)
	if err != nil {
		var fe *target.FieldError
		if errors.As(err, &fe) {
			fmt.Fprintf(stderr, "fitclaim estimate: %s: %s\n", estimateField(fe.Field), fe.Msg)
		} else {
			fmt.Fprintln(stderr, "fitclaim estimate:", err)
		}
		return exitError
	}
	if asJSON {
		fmt.Fprintln(stdout, estimate.JSON(e))
	} else {
		fmt.Fprint(stdout, estimate.Text(e))
	}
	return 0
}
