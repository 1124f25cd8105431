// Package claim turns a target and its bounds into a Kubernetes DRA ResourceClaim or
// ResourceClaimTemplate (resource.k8s.io/v1) as YAML, the same fit as JSON, and back and forth
// between a Target and its permalink/query spelling. It writes text directly instead of using a
// YAML or JSON library: the output layout is fixed (byte-identical to llmfit's), and leaving
// those libraries out keeps the browser build small.
package claim

import "github.com/fitclaim/fitclaim/catalog"

// Release is fitclaim's own version.
const Release = "0.1.0"

// Version is the release with the catalog's date as semver build metadata, so every output
// says which data it was computed from.
var Version = Release + "+catalog." + catalog.Date
