package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/fitclaim/fitclaim/cluster"
)

// exitNotAllocatable is check's status when the slices are read but the claim finds no node.
const exitNotAllocatable = 3

// stdin is where --slices - reads from (a variable for tests).
var stdin io.Reader = os.Stdin

// checkFiles are check's own flags: --slices FILE (required), --claims FILE, --nodes FILE and
// --pod FILE (optional); "-" is standard input, for one of them at most.
type checkFiles struct {
	slices, claims, nodes, pod string
}

// checkFlags are check's file flags, in the order messages name them.
var checkFlags = []string{"slices", "claims", "nodes", "pod"}

// of is the file given to a flag of checkFlags.
func (f *checkFiles) of(name string) *string {
	switch name {
	case "slices":
		return &f.slices
	case "claims":
		return &f.claims
	case "nodes":
		return &f.nodes
	}
	return &f.pod
}

// splitCheckArgs takes --slices, --claims, --nodes and --pod out of a check command line; the
// rest are claim flags.
func splitCheckArgs(args []string) (rest []string, files checkFiles, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || !slices.Contains(checkFlags, name) {
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
		if value == "" { // --nodes= or --nodes "" (an unset variable): not silently "not given"
			return nil, checkFiles{}, fmt.Errorf("--%s needs a file, or - for standard input", name)
		}
		if *files.of(name) != "" { // not the last silently, as the API refuses a part given twice
			return nil, checkFiles{}, fmt.Errorf("--%s: given more than once; give it once", name)
		}
		*files.of(name) = value
	}
	if files.slices == "" {
		return nil, checkFiles{}, fmt.Errorf("--slices FILE is required (kubectl get resourceslices -o yaml > FILE, or --slices - to read standard input)")
	}
	var stdins []string // the flags reading standard input: one at most
	for _, name := range checkFlags {
		if *files.of(name) == "-" {
			stdins = append(stdins, "--"+name)
		}
	}
	switch n := len(stdins); {
	case n == 2:
		return nil, checkFiles{}, fmt.Errorf("%s and %s cannot both read standard input; give one of them a file", stdins[0], stdins[1])
	case n > 2:
		return nil, checkFiles{}, fmt.Errorf("%s and %s cannot all read standard input; give all but one of them a file", strings.Join(stdins[:n-1], ", "), stdins[n-1])
	}
	return rest, files, nil
}

// readInput reads at most one byte more than cluster.MaxInputLarge (the command line reads
// its inputs with the large bounds: a 1,000-node cluster's, past the page's and the API's
// cluster.MaxInput), so the check can say it is too big. A file that cannot be opened is named with its flag.
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
	data, err := io.ReadAll(io.LimitReader(r, cluster.MaxInputLarge+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err) // a directory, say
	}
	return data, nil
}

// readOptional is readInput for an optional input: given, so never nil (an empty file is
// given, and empty: ParseClaims and ParseNodes say so).
func readOptional(flag, name string) ([]byte, error) {
	data, err := readInput(flag, name)
	if err == nil && data == nil {
		data = []byte{}
	}
	return data, err
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
	in := cluster.Inputs{Large: true}
	if err == nil {
		in.Slices, err = readInput("--slices", files.slices)
	}
	if err == nil && files.claims != "" {
		in.Claims, err = readOptional("--claims", files.claims)
	}
	if err == nil && files.nodes != "" {
		in.Nodes, err = readOptional("--nodes", files.nodes)
	}
	if err == nil && files.pod != "" {
		in.Pod, err = readOptional("--pod", files.pod)
	}
	var r cluster.Report
	if err == nil {
		r, err = cluster.CheckTargetInputs(t, in)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fitclaim check:", cliMessage(err, c.hasLink))
		return exitError
	}
	if c.json {
		fmt.Fprint(stdout, r.JSON())
		// The table's notes (what the verdict assumes, inputs ignored, nodes left out) on
		// stderr, as claim --json's warnings: they were dropped, the JSON being exact.
		for _, n := range r.Notes {
			fmt.Fprintln(stderr, "fitclaim: note:", n)
		}
	} else {
		fmt.Fprint(stdout, r.Table())
	}
	if !r.Allocatable {
		return exitNotAllocatable
	}
	return 0
}
