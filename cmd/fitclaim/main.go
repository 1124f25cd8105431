// Command fitclaim is the engine on the command line, for pipelines:
//
//	fitclaim claim MODEL [flags] | kubectl apply -f -
//	fitclaim deploy MODEL [flags] [--engine vllm|llama.cpp] [--image IMAGE] | kubectl apply -f -
//	fitclaim estimate MODEL (--on NAME | --memory GiB --bandwidth GBs --family F) [--json]
//	fitclaim models [QUERY]
//
// Flags are llmfit's (--min-tps, --efficiency, --quant, --template, --name, --device-class,
// --json) plus fitclaim's; each is a spelling of one target field, read by the same codec as
// permalinks and the HTTP API, so all three give the same bytes.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Exit statuses: 1 for a bad target or model, 2 for a command line that cannot be read.
const (
	exitError = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs a command and checks that its output was written: `fitclaim claim X > claim.yaml`
// on a full disk (or any stdout that refuses a write) exited 0 with nothing or part of the
// claim written, and a script went on to apply it.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := runCommand(args, out, stderr)
	if out.err != nil {
		fmt.Fprintln(stderr, "fitclaim: writing the output:", out.err)
		return exitError
	}
	return code
}

// checkedWriter keeps the first error a write gives and writes nothing after it.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	if asksHelp(args) {
		fmt.Fprint(stdout, usage())
		return 0
	}
	switch args[0] {
	case "claim":
		return runClaim(args[1:], stdout, stderr)
	case "deploy":
		return runDeploy(args[1:], stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "estimate":
		return runEstimate(args[1:], stdout, stderr)
	case "models":
		return runModels(args[1:], stdout, stderr)
	case "version", "--version":
		return runVersion(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	}
	fmt.Fprintf(stderr, "fitclaim: unknown command %q\nrun 'fitclaim help' for the commands\n", args[0])
	return exitUsage
}

// asksHelp: `fitclaim claim --help` (a command's -h or --help) is a question, not a mistake: it
// gets the usage and exit 0 (it was "unknown flag --help" and exit 2). No flag takes -h or --help
// as its value, and no model or file is called that.
func asksHelp(args []string) bool {
	switch args[0] {
	case "claim", "deploy", "check", "estimate", "models", "version":
		for _, a := range args[1:] {
			if a == "-h" || a == "--help" {
				return true
			}
		}
	}
	return false
}

func usage() string {
	s := strings.Replace(usageText, "TARGETFLAGS", claimFlagsHelp(), 1)
	s = strings.Replace(s, "EXITSTATUS", exitStatusHelp(), 1)
	s = strings.Replace(s, "LISTLIMIT", "N: 1–"+strconv.Itoa(target.MaxListLimit)+", default "+strconv.Itoa(target.DefaultListLimit), 1)
	return strings.Replace(s, "FAMILIES", "F: "+strings.Join(fit.Families(), ", "), 1)
}

const usageText = `fitclaim sizes an LLM inference workload and writes the Kubernetes DRA claim for it.

Usage:
  fitclaim claim MODEL [flags]     write a ResourceClaim (YAML, or --json)
  fitclaim claim --params 7 [flags]  the same for a model that is not in the catalog
  fitclaim claim --permalink '#m=…&tps=30'  the same for a page link or API query
  fitclaim deploy MODEL [flags]    the claim template, a Deployment that runs the model on it
                                   (--engine vllm|llama.cpp, --image I) and a Service (YAML)
  fitclaim estimate MODEL | --params B [--active-params B --layers N --kv-heads N --head-dim N]
      [--quant Q] [--context N] [--sequences N] [--kv-cache T] [--count N] [--engine E]
      [--gpu-memory-utilization U --max-num-seqs N --max-num-batched-tokens N (with vllm)]
      [--attention K --sliding-window N ... (the kv architecture flags below)]
      (--on NAME | --memory GiB --bandwidth GBs --family F [--unified]) [--json]
                                   does it fit on this hardware, and how fast (FAMILIES)
  fitclaim estimate --permalink LINK  the same for a page link of the hardware mode or an
                                   estimate.json link [--json]
  fitclaim check --slices FILE|- MODEL [flags] [--json]   will the claim find devices in my
                                   cluster? (kubectl get resourceslices -o yaml, or
                                   resourceslices,devicetaintrules); exit 3 if not
      [--claims FILE|-]            devices the cluster's claims hold are not free
                                   (kubectl get resourceclaims -A -o yaml)
      [--nodes FILE|-]             place the claim on the cluster's real nodes, whose labels
                                   resolve node-selector slices (kubectl get nodes -o yaml)
      [--pod FILE|-]               with --nodes, only on the nodes the workload's pod can be
                                   scheduled to: its nodeSelector, required node affinity and
                                   tolerations (fitclaim deploy's output, a Deployment, a Pod)
  fitclaim models [QUERY] [--limit N] [--json]   search the catalog (LISTLIMIT)
  fitclaim version [--json]

Exit status:
EXITSTATUS
Claim flags (defaults are llmfit's):
  --json               write the fit as JSON instead of YAML
  --permalink LINK     read the whole target from a page link or API query
TARGETFLAGS`

// exitStatusHelp lists the exit statuses, from their constants, for scripts (README.md says
// the same): the usage named only check's 3.
func exitStatusHelp() string {
	var b strings.Builder
	for _, e := range []struct {
		code int
		what string
	}{
		{0, "done: written, or estimate's answer whether the model fits or not"},
		{exitError, "refused: a bad target, model or input, or a target flag given twice (the\n" +
			"     message on stderr names the field by its flag and what it allows);\n" +
			"     models: nothing matches (with --json: [] and 0); or the output could not be written"},
		{exitUsage, "a command line that cannot be read: an unknown command or flag, a flag\n" +
			"     without its value, a second --permalink, --slices or --limit"},
		{exitNotAllocatable, "check: the claim cannot be allocated on the cluster given"},
	} {
		fmt.Fprintf(&b, "  %d  %s\n", e.code, e.what)
	}
	return b.String()
}

// claimFlagsHelp lists the target's flags from the field table: help, allowed values, default.
func claimFlagsHelp() string {
	var b strings.Builder
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.Flag == "" {
			continue // the positional MODEL
		}
		flag := "--" + f.Flag
		if f.Arg != "" {
			flag += " " + f.Arg
		}
		line := "  " + flag + strings.Repeat(" ", max(1, 21-len(flag))) + helpFlags().Replace(f.Help)
		if f.Kind() != target.KindBool {
			line += ": " + f.Range()
		}
		switch {
		case f.Default != "":
			line += " (" + f.Default + ")"
		case f.Derived != "":
			line += " (" + f.DerivedText() + ")"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// helpFlags rewrites the JSON names the table's help names another field by ("with
// capacityRequest: …") as the command line's flags ("with --capacity-request: …"); the names in
// camelCase only, which no English word of a help is.
var helpFlags = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.Flag != "" && strings.ToLower(f.Name) != f.Name {
			pairs = append(pairs, f.Name, "--"+f.Flag)
		}
	}
	return strings.NewReplacer(pairs...)
})

// cliMessage is an error as the command line says it. A field's error names the flag that
// gives it ("Target decode speed (--min-tps): must be …"), as the user typed it, where the page
// and the API name the field's JSON name and link key ("(minTps, tps)"); the model, the
// positional argument, by its label alone. From --permalink the user typed a link's keys: the
// engine's message, which names them. (claim, deploy and check named the JSON name and key
// for a flag, estimate the flag.)
func cliMessage(err error, fromLink bool) string {
	fe, ok := errors.AsType[*target.FieldError](err)
	if !ok || fromLink || fe.Error() != err.Error() { // not a field's, or wrapped in words of its own
		return err.Error()
	}
	f, ok := target.ByName(fe.Field)
	switch {
	case !ok:
		return err.Error()
	case f.Flag == "":
		return f.Label + ": " + otherFlags().Replace(fe.Msg)
	}
	return f.Label + " (--" + f.Flag + "): " + otherFlags().Replace(fe.Msg)
}

// otherFlags rewrites the other fields a message names as the engine names them
// (target.Field.Ref: "give Parameters (paramsB, p) for a model …", "set Request memory as
// capacity (capacityRequest, cap=1) too") with their flags ("Parameters (--params)").
var otherFlags = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.Flag == "" {
			continue
		}
		to := f.Label + " (--" + f.Flag + ")"
		for _, from := range []string{" (" + f.Name + ")", " (" + f.Name + ", " + f.Key + ")", " (" + f.Name + ", " + f.Key + "=1)"} {
			pairs = append(pairs, f.Label+from, to)
		}
	}
	return strings.NewReplacer(pairs...)
})

// usageError says what is wrong with a command's arguments and where the usage is; it returns
// the exit code. (It printed the whole usage, some 70 lines, after the one that mattered.)
func usageError(stderr io.Writer, command string, err error) int {
	fmt.Fprintf(stderr, "fitclaim %s: %v\nrun 'fitclaim %s --help' for the usage\n", command, err, command)
	return exitUsage
}
