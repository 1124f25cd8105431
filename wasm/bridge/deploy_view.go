package bridge

import (
	"sort"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

// DeployOptions reads the page's options object ({engine, image}, both strings, both optional).
func DeployOptions(obj map[string]Value) (deploy.Options, error) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var o deploy.Options
	for _, k := range keys {
		v := obj[k]
		var p *string
		switch k {
		case "engine":
			p = &o.Engine
		case "image":
			p = &o.Image
		default:
			return o, &fit.FieldError{Field: "options", Msg: "unknown key " + strconv.Quote(k) + "; known keys: " + strings.Join(deploy.OptionKeys, ", ")}
		}
		if v.Type != "string" {
			return o, fit.NewFieldError(k, "must be a string (got a "+v.Type+")")
		}
		*p = v.Str
	}
	return o, nil
}

// DeployJSON is a deploy result as the page consumes it, as JSON text: the bytes (yaml), the
// one-line verdict (summary, starts), the other problems, the claim's own warnings, and what
// the page shows around them (the workload's name, the engine, the image, the args, the API
// query that gives the same bytes).
func DeployJSON(r deploy.Result) string {
	var w jsontext.Writer
	w.Grow(len(r.YAML) + 2048)
	w.BeginObject()
	str(&w, "yaml", r.YAML)
	str(&w, "summary", r.Summary)
	boolean(&w, "starts", r.Starts)
	w.Key("problems")
	w.Strs(r.Problems)
	w.Key("warnings")
	w.Strs(r.Claim.Warnings)
	str(&w, "name", r.Name)
	str(&w, "claimName", r.Claim.Name)
	str(&w, "engine", r.Engine)
	str(&w, "image", r.Image)
	w.Key("args")
	w.Strs(r.Args)
	integer(&w, "port", int64(r.Port))
	str(&w, "apiQuery", r.Query)
	w.EndObject()
	return w.String()
}
