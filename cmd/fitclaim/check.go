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

// splitCheckArgs takes --slices out of a check command line; the rest are claim flags.
func splitCheckArgs(args []string) (rest []string, slices string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || name != "slices" {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, "", fmt.Errorf("--slices needs a file, or - for standard input")
			}
			i++
			value = args[i]
		}
		slices = value
	}
	if slices == "" {
		return nil, "", fmt.Errorf("--slices FILE is required (kubectl get resourceslices -o yaml > FILE, or --slices - to read standard input)")
	}
	return rest, slices, nil
}

// readSlices reads at most one byte more than cluster.MaxInput, so Parse can say it is too big.
func readSlices(name string) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return io.ReadAll(io.LimitReader(r, cluster.MaxInput+1))
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	rest, file, err := splitCheckArgs(args)
	var c claimArgs
	if err == nil {
		c, err = commandArgs("check", rest)
	}
	if err != nil {
		return usageError(stderr, "check", err)
	}
	t, err := c.target()
	var data []byte
	if err == nil {
		data, err = readSlices(file)
	}
	var r cluster.Report
	if err == nil {
		r, err = cluster.CheckTarget(t, data)
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
