package later

import (
	"github.com/fitclaim/fitclaim/deploy"
	"github.com/fitclaim/fitclaim/internal/jsontext"
)

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
