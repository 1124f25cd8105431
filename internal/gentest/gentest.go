// Package gentest holds the one check a test makes of a committed generated file: the file is
// what its generator makes today, or, when the test runs with -update (the go:generate line's
// way in), it is rewritten to that.
package gentest

import (
	"os"
	"testing"
)

// Current rewrites path with want when update is set; otherwise it fails t when path's bytes
// are not want, naming regen, the command that makes the file again.
func Current(t testing.TB, path, want string, update bool, regen string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run %s and commit it", path, regen)
	}
}
