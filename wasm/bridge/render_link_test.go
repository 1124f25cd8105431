package bridge

import (
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// renderLink is the target a permalink names and its render; an error ends the test or
// benchmark.
func renderLink(tb testing.TB, link string) (target.Target, claim.Result) {
	tb.Helper()
	tg, err := target.ParsePermalink(link)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := claim.Render(tg)
	if err != nil {
		tb.Fatal(err)
	}
	return tg, r
}
