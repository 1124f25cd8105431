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
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// Exit statuses: 1 for a bad target or model, 2 for a command line that cannot be read.
const (
	exitError = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
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
		return runVersion(stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage())
		return 0
	}
	fmt.Fprintf(stderr, "fitclaim: unknown command %q\n\n%s", args[0], usage())
	return exitUsage
}

func usage() string {
	s := strings.Replace(usageText, "QUANTS", strings.Join(fit.Quants(), " "), 1)
	return strings.Replace(s, "FAMILIES", "F: "+strings.Join(fit.Families(), ", "), 1)
}

const usageText = `fitclaim sizes an LLM inference workload and writes the Kubernetes DRA claim for it.

Usage:
  fitclaim claim MODEL [flags]     write a ResourceClaim (YAML, or --json)
  fitclaim claim --params 7 [flags]  the same for a model that is not in the catalog
  fitclaim claim --permalink '#m=…&tps=30'  the same for a page link or API query
  fitclaim deploy MODEL [flags] [--engine E] [--image I]   the claim template, a Deployment
                                   that runs the model on it and a Service (YAML)
  fitclaim estimate MODEL | --params B [--active-params B --layers N --kv-heads N --head-dim N]
      [--quant Q] [--context N] [--sequences N] [--kv-cache T] [--count N]
      (--on NAME | --memory GiB --bandwidth GBs --family F [--unified]) [--json]
                                   does it fit on this hardware, and how fast (FAMILIES)
  fitclaim check --slices FILE|- MODEL [flags] [--json]   will the claim find devices in my
                                   cluster? (kubectl get resourceslices -o yaml); exit 3 if not
  fitclaim models [QUERY] [--limit N] [--json]   search the catalog
  fitclaim version

Claim flags (defaults are llmfit's):
  --min-tps N          target decode speed, tokens/s per sequence (20)
  --efficiency N       share of memory bandwidth reached, 1..100 percent (55)
  --quant Q            quantization (the model's own): QUANTS
  --template           write a ResourceClaimTemplate
  --name N             claim name (derived from the model)
  --device-class C     DeviceClass name (the driver's)
  --json               write the fit as JSON instead of YAML
  --sizing S           llmfit (parity) or kv (weights + KV cache + runtime overhead)
  --context N          kv: context tokens (the model's, at most 8192)
  --sequences N        kv: concurrent sequences (1)
  --kv-cache T         kv: fp16, fp8, q8_0 or q4_0 (fp16)
  --driver D           llmfit, nvidia, amd, intel or any (llmfit)
  --count N            devices to split the model over, 1..8 (1)
  --params B           a custom model's parameters, in billions
  --layers N --kv-heads N --head-dim N --active-params B   a custom model's architecture

Deploy flags:
  --engine E           vllm (default) or llama.cpp: the server the Deployment runs
  --image I            the container image, instead of the engine's pinned one
`
