package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// The page's deferred scripts (web/index.html lists each file of web/ on its own, in the order
// they run) are served as one asset, bundleName: one request and one script to compile instead
// of eleven, beside the engine's download and compile on a first visit (issue 10 §2). Each file
// is an IIFE in strict mode, so putting them one after another changes nothing else; web/ keeps
// them apart, and each keeps its own name in the bundle's comments.
const bundleName = "page.js"

var deferTag = regexp.MustCompile(`<script src="([A-Za-z0-9._-]+\.js)" defer></script>\n?`)

// deferredNames lists the page's deferred scripts in document order.
func deferredNames(page []byte) []string {
	var out []string
	for _, m := range deferTag.FindAllSubmatch(page, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// addBundle joins the deferred scripts, each with its references to hashed assets rewritten, into
// one asset; it is hashed after every other script, so what they name carries its hash.
func (s *site) addBundle(web string, names []string) error {
	var b bytes.Buffer
	for _, name := range names {
		src, err := os.ReadFile(filepath.Join(web, name))
		if err != nil {
			return err
		}
		for _, other := range names {
			// A quoted name is a URL (a comment's "(deploy.js)" is not).
			if other != name && regexp.MustCompile("[\"'`](\\./)?"+regexp.QuoteMeta(other)+"[\"'`?#]").Match(src) {
				return fmt.Errorf("%s names %s, which is bundled into %s and has no URL of its own", name, other, bundleName)
			}
		}
		fmt.Fprintf(&b, "// ---- web/%s\n", name)
		b.Write(s.rewrite(src))
		if !bytes.HasSuffix(src, []byte("\n")) {
			b.WriteByte('\n')
		}
	}
	return s.add(bundleName, b.Bytes())
}

// useBundle replaces a page's deferred script elements with one for the bundle, where the first
// of them was.
func useBundle(page []byte) []byte {
	first := true
	return deferTag.ReplaceAllFunc(page, func([]byte) []byte {
		if !first {
			return nil
		}
		first = false
		return []byte(`<script src="` + bundleName + `" defer></script>` + "\n")
	})
}
