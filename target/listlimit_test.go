package target_test

import (
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// The limit every surface checks is the most catalog.Search returns: a larger accepted limit
// would be cut short without a word, a smaller one would refuse lists Search can give.
func TestListLimitIsSearchCap(t *testing.T) {
	if target.MaxListLimit != catalog.MaxSearchResults {
		t.Fatalf("target.MaxListLimit %d, catalog.MaxSearchResults %d", target.MaxListLimit, catalog.MaxSearchResults)
	}
	if target.DefaultListLimit < 1 || target.DefaultListLimit > target.MaxListLimit {
		t.Fatalf("DefaultListLimit %d outside 1..%d", target.DefaultListLimit, target.MaxListLimit)
	}
}
