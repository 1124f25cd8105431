package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Every relative link of the repository's Markdown reaches a file, and every #anchor a heading of
// it (GitHub's slugs); a backticked path that names a file of this repository, given from the
// root (`fit/vllm_refuse.go`), names one that exists.
func TestMarkdownLinks(t *testing.T) {
	root := "../.."
	var docs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "node_modules" || d.Name() == "dist" || d.Name() == "dist-edge" || d.Name() == "artifacts") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			docs = append(docs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("(?s)```.*?```")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	code := regexp.MustCompile("`((?:bench|catalog|claim|cluster|cmd|conformance|data|deploy|docs|edge|estimate|fit|internal|target|tools|wasm|web)/[A-Za-z0-9_./-]+)`")
	links := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := fence.ReplaceAllString(string(b), "")
		rel, _ := filepath.Rel(root, doc)
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, anchor, _ := strings.Cut(target, "#")
			file := doc
			if path != "" {
				file = filepath.Join(filepath.Dir(doc), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: no such file", rel, target)
				continue
			}
			if anchor != "" && strings.HasSuffix(file, ".md") && !hasAnchor(t, file, anchor) {
				t.Errorf("%s: link %s: no heading with that anchor", rel, target)
			}
		}
		for _, m := range code.FindAllStringSubmatch(text, -1) {
			p := strings.TrimRight(m[1], ".")
			dir, name := filepath.Split(p)
			ext := filepath.Ext(name)
			if strings.ContainsAny(p, "*") || strings.Contains(p, "...") || ext == "" || ext != strings.ToLower(ext) ||
				upstreamPaths[p] {
				continue // a directory or package (Go's own internal/runtime), a Go name (edge/wire.Request), a pattern
			}
			if _, err := os.Stat(filepath.Join(root, dir)); err != nil {
				continue // another repository's path (vLLM's docs/source/…, NVIDIA's cmd/gpu-kubelet-plugin/…)
			}
			links++
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s: `%s` names no file or directory of the repository", rel, p)
			}
		}
	}
	if links < 50 {
		t.Errorf("only %d links and paths checked in %d documents", links, len(docs))
	}
}

// upstreamPaths are paths of other repositories that a document cites in a directory this
// repository also has.
var upstreamPaths = map[string]bool{
	"docs/driver-attributes.md": true, // NVIDIA's k8s-dra-driver-gpu (cluster/testdata/README.md)
}

// hasAnchor reports whether a heading of the Markdown file has GitHub's slug anchor.
func hasAnchor(t *testing.T, file, anchor string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var s strings.Builder
		for _, r := range h {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
				s.WriteRune(r)
			case r == ' ':
				s.WriteByte('-')
			}
		}
		if s.String() == anchor {
			return true
		}
	}
	return false
}
