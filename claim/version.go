package claim

import (
	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// Release is fitclaim's own version.
const Release = "0.1.0"

// Version is the release with the catalog's date as semver build metadata, so every output
// says which data it was computed from.
var Version = Release + "+catalog." + catalog.Date

// About is what GET /api/v1/version and `fitclaim version --json` answer, in this order.
type About struct {
	Version       string `json:"version"`
	Release       string `json:"release"`
	CatalogDate   string `json:"catalogDate"`
	FormatVersion int    `json:"formatVersion"`
	API           string `json:"api"`
}

// AboutThis is this build's About.
func AboutThis() About {
	return About{Version, Release, catalog.Date, target.FormatVersion, "v1"}
}
