// Package gowasm builds a Go program for GOOS=js GOARCH=wasm with the site's linker flags, for
// the tests of the tools that rewrite the site's wasm files (wasmdata, wasmlines): a real module
// from the Go release the site is built with.
package gowasm

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build builds src, one main package, as the site builds its engines (-trimpath, -s -w) and
// returns the module. It skips the test under -short.
func Build(t testing.TB, src string) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a Go wasm")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"main.go": src, "go.mod": "module gowasmtest\n\ngo 1.21\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "m.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=", "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
