// Package claim turns a target and its bounds into a Kubernetes DRA ResourceClaim or
// ResourceClaimTemplate (resource.k8s.io/v1) as YAML, the same fit as JSON, and the claim in
// words. It writes text directly instead of using a YAML or JSON library: the output layout is
// fixed (byte-identical to llmfit's), and leaving those libraries out keeps the browser build small.
//
// One file a concern:
//
//	render.go        Render: a target's bounds, name, YAML, JSON, warnings and matches
//	name.go          the claim's name: llmfit's derivation (its DNS-1123 check is the table's Form, target/form.go)
//	alternatives.go  the claim's one request and the ways it can be satisfied
//	cel.go           the CEL selector of a request
//	header.go        the header comment that explains every number
//	wrap.go          where fitclaim's own header lines wrap
//	words.go         numbers and user text as the header writes them
//	yaml.go          the manifest as YAML
//	json.go          the fit as llmfit's JSON
//	explain.go       the claim in words for the page: summary, verdict, split, lines
//	warnings.go      what a careful reviewer would point out
//	models.go        the catalog search as the picker and the models API show it
//	version.go       fitclaim's version
//
// The permalink and query codec is package target's.
package claim
