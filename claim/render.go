package claim

import (
	"sync"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/fit"
	"github.com/fitclaim/fitclaim/target"
)

// Result is everything a surface shows for a target. YAML and JSON are the exact bytes every
// surface (page, API, command line) serves.
type Result struct {
	Bounds   fit.Bounds
	Name     string
	YAML     string
	JSON     string
	Warnings []string
	Matches  []fit.Match
}

// Render sizes a target and renders its claim, stamped with this fitclaim's Version.
func Render(t target.Target) (Result, error) { return RenderVersion(t, Version) }

// RenderVersion is Render with another generator version (tests compare with llmfit's goldens).
func RenderVersion(t target.Target, version string) (Result, error) {
	b, err := fit.Resolve(t)
	if err != nil {
		return Result{}, err
	}
	return render(b, version)
}

// renderModel renders a target for a given entry rather than a catalog lookup.
func renderModel(m catalog.Model, t target.Target, version string) (Result, error) {
	b, err := fit.ResolveEntry(t, m)
	if err != nil {
		return Result{}, err
	}
	return render(b, version)
}

func render(b fit.Bounds, version string) (Result, error) {
	name, err := claimName(&b)
	if err != nil {
		return Result{}, err
	}
	r := Result{Bounds: b, Name: name}
	AddMatches(&r)
	// the KV-aware YAML's header and JSON carry the warnings, these, computed once
	r.YAML = renderYAML(&b, name, version, r.Warnings)
	r.JSON = renderJSON(&b, name, version, r.Warnings)
	return r, nil
}

// RenderClaim is Render's claim alone: its Result holds the Bounds, Name, YAML and JSON (the
// same bytes and the same errors), and AddMatches then makes it Render's whole Result. The page
// shows a permalink's claim first and its table after (issue 10 §2): the matches, the warnings
// and their code are not on the way to the claim. The KV-aware YAML and JSON write the same
// warnings, computed once (kvWarnings: no matches judged unless nothing fits).
func RenderClaim(t target.Target) (Result, error) {
	b, name, err := resolveNamed(t)
	if err != nil {
		return Result{}, err
	}
	w := kvWarnings(b, name)
	return Result{Bounds: *b, Name: name, YAML: renderYAML(b, name, Version, w), JSON: renderJSON(b, name, Version, w)}, nil
}

// AddMatches adds the matches and the warnings (which read them) to a Result of RenderClaim.
func AddMatches(r *Result) { AddMatchesInto(r, nil) }

// AddMatchesInto is AddMatches with the matches written into buf's array when it has room
// (fit.AppendMatches): for a caller that writes the Result out and drops it, then renders again.
func AddMatchesInto(r *Result, buf []fit.Match) {
	r.Matches = fit.AppendMatches(buf, r.Bounds)
	r.Warnings = warnings(&r.Bounds, r.Name, r.Matches)
}

// RenderYAML is Render's YAML alone, and RenderJSON its JSON alone (the same bytes and the
// same errors): the API serves one format per request, and rendering the other, the matches
// and the warnings too was most of a request's work.
func RenderYAML(t target.Target) (string, error) {
	b, name, err := resolveNamed(t)
	if err != nil {
		return "", err
	}
	return renderYAML(b, name, Version, kvWarnings(b, name)), nil
}

// Warnings are the claim's warnings (Result.Warnings, the same words in the same order) for
// bounds and a claim name as RenderClaim resolves them, without the matches: what the API
// answers beside one format (edge/api). They judge the whole catalog only when no device the
// claim's driver can select meets its floors, to propose a device count.
func Warnings(b *fit.Bounds, name string) []string { return warnings(b, name, nil) }

// RenderYAMLResult is Render's Result with its Bounds, Name, YAML and Warnings only (no JSON
// or matches), the same errors: what the API's claim.yaml answers, and what a Deployment around
// the claim needs (package deploy's RenderYAML), which computes the matches itself only when it
// reads them. The warnings are Warnings': the matches are judged only when nothing fits.
func RenderYAMLResult(t target.Target) (Result, error) {
	b, name, err := resolveNamed(t)
	if err != nil {
		return Result{}, err
	}
	w := Warnings(b, name)
	return Result{Bounds: *b, Name: name, YAML: renderYAML(b, name, Version, w), Warnings: w}, nil
}

// RenderJSONResult is RenderYAMLResult with the JSON in place of the YAML: the API's claim.json.
func RenderJSONResult(t target.Target) (Result, error) {
	b, name, err := resolveNamed(t)
	if err != nil {
		return Result{}, err
	}
	w := Warnings(b, name)
	return Result{Bounds: *b, Name: name, JSON: renderJSON(b, name, Version, w), Warnings: w}, nil
}

// RenderJSON: see RenderYAML.
func RenderJSON(t target.Target) (string, error) {
	b, name, err := resolveNamed(t)
	if err != nil {
		return "", err
	}
	return renderJSON(b, name, Version, kvWarnings(b, name)), nil
}

// kvWarnings are the warnings renderYAML's header and renderJSON write: Warnings in the KV-aware
// mode, none (not asked) in llmfit mode, whose YAML and JSON are llmfit's and say none.
func kvWarnings(b *fit.Bounds, name string) []string {
	if b.Target.Sizing != target.SizingKV {
		return nil
	}
	return Warnings(b, name)
}

// resolveNamed resolves t and names its claim. The Bounds are on the heap already (claimName
// and the warnings let them escape): the pointer, not a copy, lets the warnings read them
// without a second copy on the heap.
func resolveNamed(t target.Target) (*fit.Bounds, string, error) {
	b, err := fit.Resolve(t)
	if err != nil {
		return nil, "", err
	}
	name, err := claimName(&b)
	return &b, name, err
}

// claimName is the claim's name (the target's, checked, or one derived from the model's), after
// checking the device class the claim names: each a DNS-1123 subdomain, the table's Form for
// them (target.Field.CheckForm), which the page's link repair checks too.
func claimName(b *fit.Bounds) (string, error) {
	t := &b.Target
	rows := nameRows()
	name := t.Name
	if name == "" {
		name = DeriveName(b.Model.Name)
	} else if err := rows[0].CheckForm(t); err != nil {
		return "", err
	}
	if err := rows[1].CheckForm(t); err != nil { // "" (the driver's class) passes
		return "", err
	}
	return name, nil
}

// nameRows are the table's rows of the names a claim writes, looked up once.
var nameRows = sync.OnceValue(func() [2]*target.Field {
	var rows [2]*target.Field
	for i, name := range [...]string{"name", "deviceClass"} {
		f, ok := target.ByName(name)
		if !ok {
			panic("claim: no field " + name)
		}
		rows[i] = f
	}
	return rows
})
