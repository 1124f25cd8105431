package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CSP source of a script is 'sha256-' and the base64 of the SHA-256 of its exact text. For
// an empty script that is the SHA-256 of nothing, e3b0c442...b855, which in base64 is
// 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU= (the hash every CSP guide shows for "").
func TestScriptHashOfNothing(t *testing.T) {
	if got, want := scriptHash(nil), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"; got != want {
		t.Errorf("scriptHash(\"\") = %s, want %s", got, want)
	}
}

const testPage = `<head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'">
<script src="boot.js" data-inline></script>
<script src="a.js" defer></script>
<script src="b.js" defer></script>
</head>`

// newTestSite is a site whose output directory exists (assemble makes assets/ first).
func newTestSite(t *testing.T) *site {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	return newSite(dir)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInlineScripts(t *testing.T) {
	web := t.TempDir()
	boot := "console.log(1);\n"
	writeFiles(t, web, map[string]string{"boot.js": boot})
	hash := scriptHash([]byte(boot))
	cfgWith := filepath.Join(web, "with.toml")
	cfgWithout := filepath.Join(web, "without.toml")
	writeFiles(t, web, map[string]string{
		"with.toml":    "[[headers]]\n  for = \"/*\"\n  [headers.values]\n    Content-Security-Policy = \"script-src 'self' " + hash + "\"\n",
		"without.toml": "[[headers]]\n  for = \"/*\"\n  [headers.values]\n    Content-Security-Policy = \"script-src 'self'\"\n",
	})
	s := newTestSite(t)

	out, err := s.inlineScripts([]byte(testPage), web, nil, cfgWith)
	if err != nil {
		t.Fatal(err)
	}
	page := string(out)
	if !strings.Contains(page, "<script>"+boot+"</script>") || strings.Contains(page, `src="boot.js"`) {
		t.Errorf("boot.js not written in:\n%s", page)
	}
	if !strings.Contains(page, "script-src 'self' "+hash+" 'wasm-unsafe-eval'") {
		t.Errorf("the <meta> policy lacks %s:\n%s", hash, page)
	}
	if _, err := s.inlineScripts([]byte(testPage), web, nil, cfgWithout); err == nil || !strings.Contains(err.Error(), hash) {
		t.Errorf("a netlify.toml whose policy lacks the hash: error %v, want one naming %s", err, hash)
	}

	// Text that cannot stand in a script element as it is, or that names a hashed asset.
	for _, bad := range []string{"x = '</script>';", "// <!-- <script>", `fetch("icon.svg");`} {
		writeFiles(t, web, map[string]string{"boot.js": bad})
		s := newTestSite(t)
		if err := s.add("icon.svg", []byte("<svg/>")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.inlineScripts([]byte(testPage), web, nil, ""); err == nil {
			t.Errorf("boot.js %q was written in", bad)
		}
	}
}

func TestBundle(t *testing.T) {
	web := t.TempDir()
	writeFiles(t, web, map[string]string{
		"a.js": "\"use strict\";\n(() => { new Worker(\"w.js\"); })();",
		"b.js": "\"use strict\";\n// the comment names (a.js), not a URL\n(() => {})();\n",
	})
	s := newTestSite(t)
	if err := s.add("w.js", []byte("self.onmessage = null;\n")); err != nil {
		t.Fatal(err)
	}
	names := deferredNames([]byte(testPage))
	if strings.Join(names, " ") != "a.js b.js" {
		t.Fatalf("deferred scripts %q, want a.js b.js in document order", names)
	}
	if err := s.addBundle(web, names); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, s.hashed[bundleName]))
	if err != nil {
		t.Fatal(err)
	}
	want := "// ---- web/a.js\n\"use strict\";\n(() => { new Worker(\"" + s.hashed["w.js"] + "\"); })();\n" +
		"// ---- web/b.js\n\"use strict\";\n// the comment names (a.js), not a URL\n(() => {})();\n"
	if string(b) != want {
		t.Errorf("bundle:\n%s\nwant:\n%s", b, want)
	}
	page := string(useBundle([]byte(testPage)))
	if strings.Count(page, "<script src=") != 2 || !strings.Contains(page, `<script src="page.js" defer></script>`) {
		t.Errorf("page after useBundle:\n%s", page)
	}

	// A bundled script that names another by its URL would lose it: the build says so.
	writeFiles(t, web, map[string]string{"b.js": "fetch('a.js');\n"})
	if err := newTestSite(t).addBundle(web, names); err == nil {
		t.Error("b.js fetching the bundled a.js was bundled")
	}
}
