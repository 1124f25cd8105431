package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// site is the output directory being assembled and the assets hashed so far.
type site struct {
	dir    string
	config string            // netlify.toml, whose policy must allow the inline scripts ("": none)
	bundle bool              // serve index.html's deferred scripts as one asset (bundle.go)
	order  []string          // plain names in the order they were hashed
	hashed map[string]string // plain name -> "assets/<name>.<hash>.<ext>"
	shards string            // the catalog's shards' names, "{}" for the shard's number (writeShards)
}

func newSite(dir string) *site { return &site{dir: dir, hashed: map[string]string{}} }

// isRootFile: files of web/ that keep their name at the site root (pages, the service worker,
// the manifest, Netlify's control files); every other file is a cacheable, hashed asset.
func isRootFile(name string) bool {
	switch {
	case strings.HasSuffix(name, ".html"), name == "sw.js", strings.HasSuffix(name, ".webmanifest"),
		name == "robots.txt", strings.HasPrefix(name, "_"), strings.HasPrefix(name, "."):
		return true
	}
	return false
}

// assemble hashes the leaves (extra files and every web/ file that is neither CSS nor JS), then
// the stylesheets (which may refer to leaves), then the scripts (which may refer to both), each
// after its references are rewritten; then copies the root files with their references
// rewritten, and the example claim written into the pages.
func (s *site) assemble(web string, extra map[string]string, ex *example) error {
	if err := os.MkdirAll(filepath.Join(s.dir, "assets"), 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(web)
	if err != nil {
		return err
	}
	var leaves, styles, scripts, roots []string
	inline := map[string]bool{} // scripts that are not assets of their own: written in, or bundled
	var deferred []string       // index.html's deferred scripts, when they are bundled
	if page, err := os.ReadFile(filepath.Join(web, "index.html")); err == nil {
		for _, name := range inlineNames(page) {
			inline[name] = true
		}
		if s.bundle {
			deferred = deferredNames(page)
			for _, name := range deferred {
				inline[name] = true
			}
		}
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		switch name := e.Name(); {
		case isRootFile(name):
			roots = append(roots, name)
		case strings.HasSuffix(name, ".css"):
			styles = append(styles, name)
		case strings.HasSuffix(name, ".js"):
			if !inline[name] {
				scripts = append(scripts, name)
			}
		default:
			leaves = append(leaves, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		b, err := os.ReadFile(extra[name])
		if err != nil {
			return err
		}
		if err := s.add(name, b); err != nil {
			return err
		}
	}
	scripts, err = namedFirst(web, scripts)
	if err != nil {
		return err
	}
	for _, group := range [][]string{leaves, styles, scripts} {
		for _, name := range group {
			b, err := os.ReadFile(filepath.Join(web, name))
			if err != nil {
				return err
			}
			if strings.HasSuffix(name, ".css") || strings.HasSuffix(name, ".js") {
				b = s.rewrite(b)
			}
			if name == workerName {
				if b, err = withGlue(b, extra[glueName], filepath.Join(web, rendererName)); err != nil {
					return err
				}
			}
			if err := s.add(name, b); err != nil {
				return err
			}
		}
	}
	if len(deferred) > 0 {
		if err := s.addBundle(web, deferred); err != nil {
			return err
		}
	}
	var pages []byte
	for _, name := range roots {
		b, err := os.ReadFile(filepath.Join(web, name))
		if err != nil {
			return err
		}
		if name == "index.html" && len(deferred) > 0 {
			b = useBundle(b)
		}
		if name == "index.html" {
			if b, err = s.nameShards(b); err != nil {
				return err
			}
		}
		if strings.HasSuffix(name, ".html") { // before the rewrite: it would rename their src
			if b, err = s.inlineScripts(b, web, extra, s.config); err != nil {
				return err
			}
		}
		if strings.HasSuffix(name, ".html") || strings.HasSuffix(name, ".webmanifest") {
			b = s.rewrite(b)
		}
		if name == "index.html" && ex != nil {
			if b, err = ex.fill(b); err != nil {
				return err
			}
		}
		if name != "sw.js" {
			pages = append(pages, b...)
		}
		if err := os.WriteFile(filepath.Join(s.dir, name), b, 0o644); err != nil {
			return err
		}
	}
	// An asset no page, manifest, stylesheet or script names is probably misspelt in web/.
	for _, name := range s.order {
		if !strings.Contains(string(pages), s.hashed[name]) && !s.namedByAsset(name) {
			fmt.Fprintf(os.Stderr, "==> note: %s is not referenced by any page, manifest, stylesheet or script\n", name)
		}
	}
	return nil
}

// add writes an asset under its content-hashed name.
func (s *site) add(name string, b []byte) error {
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:])[:10]
	hashed := name + "." + h
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		hashed = name[:i] + "." + h + name[i:]
	}
	s.hashed[name] = "assets/" + hashed
	s.order = append(s.order, name)
	return os.WriteFile(filepath.Join(s.dir, "assets", hashed), b, 0o644)
}

// rewrite replaces every quoted reference to an asset already hashed ("name", 'name', `name`,
// (name), optionally ./name, followed by a quote, ')', '?' or '#') with its hashed path.
func (s *site) rewrite(b []byte) []byte {
	for _, name := range s.order {
		re := regexp.MustCompile("([\"'`(])(\\./)?" + regexp.QuoteMeta(name) + "([\"'`)?#])")
		b = re.ReplaceAll(b, []byte("${1}"+s.hashed[name]+"${3}"))
	}
	return b
}

func (s *site) namedByAsset(name string) bool {
	for _, other := range s.order {
		if other == name {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.dir, s.hashed[other]))
		if err == nil && strings.Contains(string(b), s.hashed[name]) {
			return true
		}
	}
	return false
}

// namedFirst orders scripts so that a script another one names (app.js starts the worker
// firstclaim.js) is hashed before it: the one naming it must carry its hashed name, and its
// own hash covers that. Otherwise the order stays as given; of scripts that name each other
// (in comments: neither could carry the other's hash), the first in that order goes first.
func namedFirst(web string, scripts []string) ([]string, error) {
	text := map[string]string{}
	for _, name := range scripts {
		b, err := os.ReadFile(filepath.Join(web, name))
		if err != nil {
			return nil, err
		}
		text[name] = string(b)
	}
	names := func(in, name string) bool {
		re := regexp.MustCompile("[\"'`(](\\./)?" + regexp.QuoteMeta(name) + "[\"'`)?#]")
		return in != name && re.MatchString(text[in])
	}
	var out []string
	done := map[string]bool{}
	for len(out) < len(scripts) {
		progress := false
		for _, s := range scripts {
			if done[s] {
				continue
			}
			ready := true
			for _, dep := range scripts {
				if !done[dep] && names(s, dep) {
					ready = false
					break
				}
			}
			if ready {
				out = append(out, s)
				done[s] = true
				progress = true
			}
		}
		if !progress { // scripts that name each other (in comments, say): the first goes first
			for _, s := range scripts {
				if !done[s] {
					out = append(out, s)
					done[s] = true
					break
				}
			}
		}
	}
	return out, nil
}

// The page's worker (web/firstclaim.js, which app.js starts) runs Go's glue (wasm_exec.js) and
// the page's render call (render.js, which the page has in its bundle) too: they are put in front
// of the worker's own script here, so the worker does not wait for more, synchronous loads
// (importScripts) before it can start the engine; the worker loads the glue itself when it finds
// no Go, and renders through fitclaim.renderInto when it finds no render.js (served from web/ as
// it is).
const (
	workerName   = "firstclaim.js"
	glueName     = "wasm_exec.js"
	rendererName = "render.js"
)

func withGlue(worker []byte, gluePath, rendererPath string) ([]byte, error) {
	var out []byte
	for _, path := range []string{gluePath, rendererPath} {
		if path == "" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		out = append(append(out, b...), '\n')
	}
	return append(out, worker...), nil
}
