// Package busytest is the busy cluster that the CLI's and the HTTP API's check tests both
// judge a target against: cluster/testdata's busy.yaml (node-g has four H100s) and
// busy-claims.yaml (ml/train-0 holds two of them). Only tests import it.
package busytest

import (
	"os"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/target"
)

// dir is cluster/testdata as seen from a test of a package two folders below the module's
// root (cmd/fitclaim, edge/api): go test runs a package's tests in its own folder.
const dir = "../../cluster/testdata/"

// Files reads the busy slices and claims.
func Files(t testing.TB) (slices, claims []byte) {
	t.Helper()
	slices, err := os.ReadFile(dir + "busy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	claims, err = os.ReadFile(dir + "busy-claims.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return slices, claims
}

// Check reads the busy slices and claims and gives the permalink's target with the engine's
// report for it against them: what the CLI and the API must answer for it, byte for byte.
func Check(t testing.TB, permalink string) (tg target.Target, slices, claims []byte, want cluster.Report) {
	t.Helper()
	slices, claims = Files(t)
	tg, err := target.ParsePermalink(permalink)
	if err != nil {
		t.Fatal(err)
	}
	want, err = cluster.CheckTargetInUse(tg, slices, claims)
	if err != nil {
		t.Fatal(err)
	}
	return tg, slices, claims, want
}
