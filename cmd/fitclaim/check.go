package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fitclaim/fitclaim/cluster"
)

// exitNotAllocatable is check's status when the slices are read but the claim finds no node.
const exitNotAllocatable = 3

// stdin is where --slices - reads from (a variable for tests).
var stdin io.Reader = os.Stdin

// checkFiles are check's own flags: --slices FILE (required) and --claims FILE (optional); "-"
// is standard input, for one of them at most.
type checkFiles struct {
	slices, claims string
}

// splitCheckArgs takes --slices and --claims out of a check command line; the rest are claim flags.
func splitCheckArgs(args []string) (rest []string, files checkFiles, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || (name != "slices" && name != "claims") {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, checkFiles{}, fmt.Errorf("--%s needs a file, or - for standard input", name)
			}
			i++
			value = args[i]
		}
		if name == "slices" {
			files.slices = value
		} else {
			files.claims = value
		}
	}
	if files.slices == "" {
		return nil, checkFiles{}, fmt.Errorf("--slices FILE is required (kubectl get resourceslices -o yaml > FILE, or --slices - to read standard input)")
	}
	if files.slices == "-" && files.claims == "-" {
		return nil, checkFiles{}, fmt.Errorf("--slices and --claims cannot both read standard input; give one of them a file")
	}
	return rest, files, nil
}

// readInput reads at most one byte more than cluster.MaxInput, so Parse and ParseClaims can say
// it is too big. A file that cannot be opened is named with its flag (--slices or --claims).
func readInput(flag, name string) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		defer f.Close()
		r = f
	}
	return io.ReadAll(io.LimitReader(r, cluster.MaxInput+1))
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	rest, files, err := splitCheckArgs(args)
	var c claimArgs
	if err == nil {
		c, err = commandArgs("check", rest)
	}
	if err != nil {
		return usageError(stderr, "check", err)
	}
	t, err := c.target()
	var slices, claims []byte
	if err == nil {
		slices, err = readInput("--slices", files.slices)
	}
	if err == nil && files.claims != "" {
		if claims, err = readInput("--claims", files.claims); err == nil && claims == nil {
			claims = []byte{} // an empty file is given, and empty: ParseClaims says so
		}
	}
	var r cluster.Report
	if err == nil {
		r, err = cluster.CheckTargetInUse(t, slices, claims)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fitclaim check:", err)
		return exitError
	}
	if c.json {
		fmt.Fprint(stdout, r.JSON())
	} else {
		fmt.Fprint(stdout, r.Table())
	}
	if !r.Allocatable {
		return exitNotAllocatable
	}
	return 0
}
