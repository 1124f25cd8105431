package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// estimateFlag names the flag of a field for messages, as the table spells it.
func estimateFlag(field string) string {
	if f, ok := target.ByName(field); ok {
		if f.Flag == "" {
			return f.Arg
		}
		return "--" + f.Flag
	}
	return field
}

// parseEstimateArgs turns the command line into query pairs.
func parseEstimateArgs(args []string) (claim.Values, bool, error) {
	v := claim.Values{}
	asJSON := false
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "json" || name == "unified" {
			if hasValue && value != "true" && value != "false" {
				return v, false, fmt.Errorf("--%s takes no value (or =true, =false)", name)
			}
			on := !hasValue || value == "true"
			if name == "json" {
				asJSON = on
			} else if on {
				v["unified"] = []string{"1"}
			}
			continue
		}
		key := ""
		if f, ok := target.ByFlag(name); ok && slices.Contains(estimate.Flags, name) {
			key = f.Key
		}
		if key == "" {
			return v, false, fmt.Errorf("unknown flag --%s", name)
		}
		if !hasValue {
			if i+1 >= len(args) {
				return v, false, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		v[key] = append(v[key], value)
	}
	if len(positional) > 1 {
		return v, false, fmt.Errorf("one model at a time (got %q)", positional)
	}
	if len(positional) == 1 {
		model, _ := target.ByName("model")
		v[model.Key] = []string{positional[0]}
	}
	return v, asJSON, nil
}

func runEstimate(args []string, stdout, stderr io.Writer) int {
	v, asJSON, err := parseEstimateArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "fitclaim estimate: %v\n\n%s", err, usage())
		return exitUsage
	}
	e, err := estimate.Run(v)
	if err != nil {
		var fe *fit.FieldError
		if errors.As(err, &fe) {
			fmt.Fprintf(stderr, "fitclaim estimate: %s: %s\n", estimateFlag(fe.Field), fe.Msg)
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
