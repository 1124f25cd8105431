package main

import (
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/fit"
)

// flagFields maps each flag to the target field it spells. Flags are the fields' names in
// kebab-case, except llmfit's --efficiency and the shorter --params and --active-params.
var flagFields = map[string]string{
	"min-tps": "minTps", "efficiency": "efficiencyPct", "quant": "quant", "template": "template",
	"name": "name", "device-class": "deviceClass", "sizing": "sizing", "context": "context",
	"sequences": "sequences", "kv-cache": "kvCache", "driver": "driver", "count": "count",
	"params": "paramsB", "layers": "layers", "kv-heads": "kvHeads", "head-dim": "headDim",
	"active-params": "activeParamsB",
}

// claimArgs is a parsed claim command line.
type claimArgs struct {
	values    url.Values // short permalink keys → values
	json      bool
	permalink string
	hasLink   bool
}

func parseClaimArgs(args []string) (claimArgs, error) {
	c := claimArgs{values: url.Values{}}
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
		switch name {
		case "json", "template":
			if hasValue && value != "true" && value != "false" {
				return c, fmt.Errorf("--%s takes no value (or =true, =false)", name)
			}
			on := !hasValue || value == "true"
			if name == "json" {
				c.json = on
			} else if on {
				c.values.Set(fit.Keys["template"], "1")
			}
			continue
		}
		field, known := flagFields[name]
		if !known && name != "permalink" {
			return c, fmt.Errorf("unknown flag --%s", name)
		}
		if !hasValue {
			if i+1 >= len(args) {
				return c, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if name == "permalink" {
			c.permalink, c.hasLink = value, true
			continue
		}
		c.values.Add(fit.Keys[field], value)
	}
	switch {
	case len(positional) > 1:
		return c, fmt.Errorf("one model at a time (got %q)", positional)
	case len(positional) == 1:
		c.values.Set(fit.Keys["model"], positional[0])
	}
	if c.hasLink && len(c.values) > 0 {
		return c, fmt.Errorf("--permalink carries the whole target; give no model or other target flags with it")
	}
	return c, nil
}

func runClaim(args []string, stdout, stderr io.Writer) int {
	c, err := parseClaimArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "fitclaim claim: %v\n\n%s", err, usage())
		return exitUsage
	}
	var t fit.Target
	if c.hasLink {
		link := c.permalink
		if at := strings.IndexAny(link, "#?"); at >= 0 {
			link = link[at+1:] // a whole page or API URL works too
		}
		t, err = claim.ParsePermalink(link)
	} else {
		t, err = claim.ParseQuery(c.values)
	}
	if err == nil {
		var r claim.Result
		if r, err = claim.Render(t); err == nil {
			for _, w := range r.Warnings {
				fmt.Fprintln(stderr, "fitclaim: warning:", w)
			}
			if c.json {
				fmt.Fprintln(stdout, r.JSON)
			} else {
				fmt.Fprint(stdout, r.YAML)
			}
			return 0
		}
	}
	fmt.Fprintln(stderr, "fitclaim claim:", err)
	return exitError
}
