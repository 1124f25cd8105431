// Package precompress writes the precompressed copies a static server sends (NAME.br, NAME.gz
// beside each compressible file): tools/cmd/site writes them into the site it builds, and
// tools/cmd/pagebench into its copy of the minimal Go wasm page, so the page bench's yardstick
// is served as the site is (tools/internal/netlify's server sends them).
package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// compressible: the text files and the wasm; images are compressed already.
var compressible = []string{".html", ".js", ".css", ".wasm", ".svg", ".webmanifest", ".json", ".txt"}

// Dir writes NAME.gz (gzip -9) and, when the brotli command is installed, NAME.br
// (brotli -q 11) beside each compressible file, keeping only copies smaller than the file.
// A server that sends precompressed files (tools/internal/netlify does) then spends no time
// compressing, and the bench measures the bytes a visitor receives.
func Dir(dir string) error {
	brotli, _ := exec.LookPath("brotli")
	if brotli == "" {
		fmt.Fprintln(os.Stderr, "==> note: no brotli command; writing gzip copies only")
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !Compressible(p) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var gz bytes.Buffer
		w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		if err != nil {
			return err
		}
		w.Write(b)
		if err := w.Close(); err != nil {
			return err
		}
		if err := writeSmaller(p+".gz", gz.Bytes(), len(b)); err != nil {
			return err
		}
		if brotli == "" {
			return nil
		}
		br, err := exec.Command(brotli, "-c", "-q", "11", p).Output()
		if err != nil {
			return fmt.Errorf("brotli %s: %w", p, err)
		}
		return writeSmaller(p+".br", br, len(b))
	})
}

// Compressible reports whether Dir writes copies of the file p (by its name).
func Compressible(p string) bool {
	for _, ext := range compressible {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

func writeSmaller(p string, b []byte, than int) error {
	if len(b) >= than {
		return nil
	}
	return os.WriteFile(p, b, 0o644)
}
