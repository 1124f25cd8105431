package gentest

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records a failure instead of ending the test.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Errorf(format string, a ...any) { r.failed, r.msg = true, format }
func (r *recorder) Fatal(a ...any)                 { r.failed = true }

func TestCurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.go")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Current(r, path, "new", false, "go generate ./x")
	if !r.failed {
		t.Fatal("a stale file passed")
	}
	r = &recorder{TB: t}
	Current(r, path, "new", true, "go generate ./x")
	if r.failed {
		t.Fatal("-update failed")
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "new" {
		t.Fatalf("-update wrote %q, want %q", got, "new")
	}
	r = &recorder{TB: t}
	Current(r, path, "new", false, "go generate ./x")
	if r.failed {
		t.Fatal("a current file failed")
	}
	r = &recorder{TB: t}
	Current(r, filepath.Join(t.TempDir(), "missing.go"), "new", false, "go generate ./x")
	if !r.failed {
		t.Fatal("a missing file passed")
	}
}
