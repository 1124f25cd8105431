package claim

import "github.com/fitclaim/fitclaim/catalog"

// Release is fitclaim's own version.
const Release = "0.1.0"

// Version is the release with the catalog's date as semver build metadata, so every output
// says which data it was computed from.
var Version = Release + "+catalog." + catalog.Date
