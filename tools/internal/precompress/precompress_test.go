package precompress

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	dir := t.TempDir()
	text := bytes.Repeat([]byte("fitclaim precompress "), 200)
	files := map[string][]byte{"a.wasm": text, "b.js": []byte("x"), "c.png": text}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Dir(dir); err != nil {
		t.Fatal(err)
	}
	gz, err := os.ReadFile(filepath.Join(dir, "a.wasm.gz"))
	if err != nil {
		t.Fatalf("a.wasm.gz: %v", err)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); !bytes.Equal(got, text) {
		t.Errorf("a.wasm.gz does not decode to a.wasm")
	}
	_, brErr := os.Stat(filepath.Join(dir, "a.wasm.br"))
	if _, err := exec.LookPath("brotli"); err == nil && brErr != nil {
		t.Errorf("brotli is installed but no a.wasm.br: %v", brErr)
	}
	for _, name := range []string{"b.js.gz", "b.js.br", "c.png.gz", "c.png.br"} {
		// b.js: a copy no smaller than the file is not kept; c.png: not compressible
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s written", name)
		}
	}
}
