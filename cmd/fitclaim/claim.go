package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// claimArgs is a parsed claim command line.
type claimArgs struct {
	values    target.Values // permalink keys → values, from the flags the field table names
	json      bool
	permalink string
	hasLink   bool
}

// The claim command's own flags, beside the target's (target.Fields).
const (
	flagJSON      = "json"
	flagPermalink = "permalink"
)

func parseClaimArgs(args []string) (claimArgs, error) {
	c := claimArgs{values: target.Values{}}
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
		field, isField := target.ByFlag(name)
		if isField && field.Kind() == target.KindBool {
			// A target's switch: alone it is on; a value (--template=0) is read as a link's
			// boolean, by the field's codec, so --template=maybe is "Template (--template): must be
			// 1 or 0", as tpl=maybe is, and given twice it is refused as a key given twice.
			if !hasValue {
				value = "1"
			}
			c.values[field.Key] = append(c.values[field.Key], value)
			continue
		}
		if name == flagJSON {
			on, err := switchValue(name, value, hasValue)
			if err != nil {
				return c, err
			}
			c.json = on
			continue
		}
		if !isField && name != flagPermalink {
			typed, _, _ := strings.Cut(a, "=") // as typed: "-s" is not "--s"
			return c, fmt.Errorf("unknown flag %s%s", typed, meantFlag(name))
		}
		if !hasValue {
			if i+1 >= len(args) {
				return c, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if name == flagPermalink {
			if c.hasLink { // not the last silently, as a link or the API refuses a repeated key
				return c, fmt.Errorf("--%s: given more than once; give it once", name)
			}
			c.permalink, c.hasLink = value, true
			continue
		}
		c.values[field.Key] = append(c.values[field.Key], value)
	}
	model, _ := target.ByName("model")
	switch {
	case len(positional) > 1:
		return c, fmt.Errorf("one model at a time (got %q)", positional)
	case len(positional) == 1:
		c.values[model.Key] = []string{positional[0]}
	}
	if c.hasLink && len(c.values) > 0 {
		return c, fmt.Errorf("--permalink carries the whole target; give no model or other target flags with it")
	}
	return c, nil
}

// meantFlag says which flag an unknown one means when it is a field's link key, JSON name or
// flag in another case (--tps, --minTps, --MIN-TPS are --min-tps), or the model given as a flag.
func meantFlag(name string) string {
	f, ok := target.NearKey(name)
	switch {
	case !ok:
		return ""
	case f.Flag == "":
		return " (the model is the argument, not a flag)"
	}
	return " (did you mean --" + f.Flag + "?)"
}

// target reads the target: the whole of --permalink (a fragment, or a whole page or API URL),
// else the flags.
func (c claimArgs) target() (target.Target, error) {
	if !c.hasLink {
		return target.ParseQuery(c.values)
	}
	return target.ParsePermalink(linkTarget(c.permalink))
}

// linkTarget is the part of a link that holds the target: a page link's fragment, an API link's
// query (without a fragment pasted after it), or the key=value pairs themselves.
func linkTarget(link string) string {
	before, fragment, hasFragment := strings.Cut(link, "#")
	if hasFragment && fragment != "" && !strings.Contains(before, "/api/") {
		return fragment
	}
	if _, query, ok := strings.Cut(before, "?"); ok {
		return query
	}
	if hasFragment {
		return fragment
	}
	if strings.Contains(link, "://") { // a page or API address with no target in it
		return ""
	}
	return link
}

// switchValue reads a switch: --json, --json=true, --json=false.
func switchValue(name, value string, hasValue bool) (bool, error) {
	if !hasValue {
		return true, nil
	}
	switch strings.ToLower(value) { // the spellings a link's boolean takes (target.Field.Set)
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off", "": // "=" alone is off, as --template= (tpl=) is
		return false, nil
	}
	return false, fmt.Errorf("--%s takes no value (or =true, =false)", name)
}

func runClaim(args []string, stdout, stderr io.Writer) int {
	c, err := commandArgs("claim", args)
	if err != nil {
		return usageError(stderr, "claim", err)
	}
	t, err := c.target()
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
	fmt.Fprintln(stderr, "fitclaim claim:", cliMessage(err, c.hasLink))
	return exitError
}
