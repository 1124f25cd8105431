package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/claim"
)

func runModels(args []string, stdout, stderr io.Writer) int {
	limit, asJSON := 20, false
	var query []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch {
		case !strings.HasPrefix(args[i], "-"):
			query = append(query, args[i])
		case name == "json":
			asJSON = true
		case name == "limit":
			if !hasValue {
				if i+1 >= len(args) {
					fmt.Fprintln(stderr, "fitclaim models: --limit needs a value")
					return exitUsage
				}
				i++
				value = args[i]
			}
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 100 {
				fmt.Fprintf(stderr, "fitclaim models: --limit must be a whole number from 1 to 100 (got %q)\n", value)
				return exitUsage
			}
			limit = n
		default:
			fmt.Fprintf(stderr, "fitclaim models: unknown flag %s\n", args[i])
			return exitUsage
		}
	}
	found := claim.SearchModels(strings.Join(query, " "), limit)
	if asJSON {
		b, _ := json.MarshalIndent(found, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	if len(found) == 0 {
		fmt.Fprintf(stderr, "fitclaim models: nothing in the catalog (%d models, %s) matches %q\n", len(catalog.Models()), catalog.Date, strings.Join(query, " "))
		return exitError
	}
	w := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MODEL\tPARAMS\tQUANT\tCONTEXT\tMOE")
	for _, m := range found {
		moe := ""
		if m.MoE {
			moe = "yes"
		}
		fmt.Fprintf(w, "%s\t%.1fB\t%s\t%d\t%s\n", m.Name, m.ParamsB, m.Quant, m.ContextLength, moe)
	}
	w.Flush()
	return 0
}

func runVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "fitclaim %s (catalog %s: %d models, %d accelerators)\n", claim.Version, catalog.Date, len(catalog.Models()), len(catalog.Accelerators()))
	return 0
}
