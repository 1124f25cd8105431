package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

func runModels(args []string, stdout, stderr io.Writer) int {
	limit, asJSON, limitGiven := target.DefaultListLimit, false, false
	var query []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch {
		case !strings.HasPrefix(args[i], "-"):
			query = append(query, args[i])
		case name == "json":
			on, err := switchValue(name, value, hasValue)
			if err != nil {
				return usageError(stderr, "models", err)
			}
			asJSON = on
		case name == "limit":
			if limitGiven { // not the last silently: the API refuses limit given twice
				return usageError(stderr, "models", errors.New("--limit: given more than once; give it once"))
			}
			limitGiven = true
			if !hasValue {
				if i+1 >= len(args) {
					return usageError(stderr, "models", errors.New("--limit needs a value"))
				}
				i++
				value = args[i]
			}
			n, err := claim.ParseModelsLimit(value)
			if err != nil {
				return usageError(stderr, "models", errors.New("--limit "+strings.TrimPrefix(err.Error(), "limit: ")))
			}
			limit = n
		default:
			return usageError(stderr, "models", errors.New("unknown flag "+args[i]))
		}
	}
	if msg := claim.ModelsQueryError(strings.Join(query, " ")); msg != "" { // as the API's q
		return usageError(stderr, "models", errors.New("QUERY "+msg))
	}
	found := claim.SearchModels(strings.Join(query, " "), limit)
	if asJSON {
		b, err := json.MarshalIndent(found, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "fitclaim models:", err)
			return exitError
		}
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	if len(found) == 0 {
		fmt.Fprintf(stderr, "fitclaim models: nothing in the catalog (%d models, %s) matches %s\n", len(catalog.Models()), catalog.Date, target.QuoteShort(strings.Join(query, " ")))
		return exitError
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MODEL\tPARAMS\tQUANT\tCONTEXT\tMOE")
	for _, m := range found {
		moe := ""
		if m.MoE {
			moe = "yes"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\n", m.Name, paramsText(m.ParamsB), m.Quant, m.ContextLength, moe)
	}
	w.Flush()
	return 0
}

// paramsText is a parameter count for the models table: billions to one decimal, and millions
// below 0.1 B, where one decimal of billions would print an embedding model's 33 M as "0.0B".
func paramsText(b float64) string {
	if b < 0.1 {
		return strconv.FormatFloat(b*1000, 'f', 0, 64) + "M"
	}
	return strconv.FormatFloat(b, 'f', 1, 64) + "B"
}

// runVersion is `fitclaim version [--json]`: --json writes what GET /api/v1/version answers
// (indented, as the other commands' JSON); any other argument is a usage error (version x and
// version --json printed the text).
func runVersion(args []string, stdout, stderr io.Writer) int {
	asJSON := false
	for _, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "json" {
			return usageError(stderr, "version", fmt.Errorf("unknown argument %s (version takes only --json)", a))
		}
		on, err := switchValue(name, value, hasValue)
		if err != nil {
			return usageError(stderr, "version", err)
		}
		asJSON = on
	}
	if asJSON {
		b, err := json.MarshalIndent(claim.AboutThis(), "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "fitclaim version:", err)
			return exitError
		}
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "fitclaim %s (catalog %s: %d models, %d accelerators)\n", claim.Version, catalog.Date, len(catalog.Models()), len(catalog.Accelerators()))
	return 0
}
