package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/fit"
)

// splitDeployArgs takes --engine and --image out of a deploy command line; the rest are claim
// flags, read by parseClaimArgs.
func splitDeployArgs(args []string) (rest []string, o deploy.Options, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || name != "engine" && name != "image" {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, o, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if name == "engine" {
			o.Engine = value
		} else {
			o.Image = value
		}
	}
	return rest, o, nil
}

func runDeploy(args []string, stdout, stderr io.Writer) int {
	rest, o, err := splitDeployArgs(args)
	var c claimArgs
	if err == nil {
		c, err = parseClaimArgs(rest)
	}
	if err == nil && c.json {
		err = fmt.Errorf("--json: deploy writes YAML only (claim --json gives the fit as JSON)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "fitclaim deploy: %v\n\n%s", err, usage())
		return exitUsage
	}
	var t fit.Target
	if c.hasLink {
		link := c.permalink
		if at := strings.IndexAny(link, "#?"); at >= 0 {
			link = link[at+1:]
		}
		var more deploy.Options
		if link, more, err = deploy.SplitQuery(link); err == nil {
			o = mergeOptions(o, more)
			t, err = claim.ParsePermalink(link)
		}
	} else {
		t, err = claim.ParseQuery(c.values)
	}
	if err == nil {
		var r deploy.Result
		if r, err = deploy.Render(t, o); err == nil {
			for _, w := range r.Claim.Warnings {
				fmt.Fprintln(stderr, "fitclaim: warning:", w)
			}
			fmt.Fprintln(stderr, "fitclaim:", r.Summary)
			for _, p := range r.Problems {
				fmt.Fprintln(stderr, "fitclaim: warning:", p)
			}
			fmt.Fprint(stdout, r.YAML)
			return 0
		}
	}
	fmt.Fprintln(stderr, "fitclaim deploy:", err)
	return exitError
}

// mergeOptions lets flags win over a link's own engine and image.
func mergeOptions(flags, link deploy.Options) deploy.Options {
	if flags.Engine == "" {
		flags.Engine = link.Engine
	}
	if flags.Image == "" {
		flags.Image = link.Image
	}
	return flags
}
