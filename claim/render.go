package claim

import (
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
	t := b.Target
	name := t.Name
	if name == "" {
		name = DeriveName(b.Model.Name)
	} else if err := checkSubdomain("name", name); err != nil {
		return Result{}, err
	}
	if t.DeviceClass != "" {
		if err := checkSubdomain("deviceClass", t.DeviceClass); err != nil {
			return Result{}, err
		}
	}
	r := Result{Bounds: b, Name: name}
	r.YAML = renderYAML(&b, name, version)
	r.JSON = renderJSON(&b, name, version)
	r.Matches = fit.Matches(b)
	r.Warnings = warnings(&b, name, r.Matches)
	return r, nil
}
