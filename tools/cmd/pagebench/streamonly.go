package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// streamOnlyJS is the page -stream-only loads: it fetches the site's engine and compiles it as
// web/boot.js does (WebAssembly.compileStreaming), runs nothing, and says "ready". Under the
// throttle it is the floor for the site's first claim with the site's own wasm: its bytes, the
// emulation's cost for them and V8's streamed read of them, without the rest of the page.
const streamOnlyJS = `(async () => {
  const resp = await fetch(WASM);
  await WebAssembly.compileStreaming(resp);
  window.minimal = { ready: true };
  document.getElementById("out").textContent = "ready";
})();
`

const streamOnlyHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>the site's wasm, streamed and compiled only</title>
<script src="boot.js" defer></script>
</head>
<body><p id="out">loading</p></body>
</html>
`

var preloadHref = regexp.MustCompile(`<link rel="preload" href="([^"]+\.wasm)"`)

// streamOnlyDir writes the -stream-only page into the profiles' directory, beside a copy of the
// site's engine (the file index.html's preload names) and its precompressed copies, the same
// bytes the site sends.
func (b *bench) streamOnlyDir(dist string) (string, error) {
	page, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return "", err
	}
	m := preloadHref.FindSubmatch(page)
	if m == nil {
		return "", fmt.Errorf("-stream-only: %s/index.html has no wasm preload", dist)
	}
	out, err := os.MkdirTemp(b.tmp, "stream-only-")
	if err != nil {
		return "", err
	}
	name := filepath.Base(string(m[1]))
	for _, suffix := range []string{"", ".br", ".gz"} {
		data, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(string(m[1]))+suffix))
		if err != nil {
			if suffix != "" && os.IsNotExist(err) {
				continue
			}
			return "", err
		}
		if err := os.WriteFile(filepath.Join(out, name+suffix), data, 0o644); err != nil {
			return "", err
		}
	}
	js := strings.Replace(streamOnlyJS, "WASM", jsString(name), 1)
	if err := os.WriteFile(filepath.Join(out, "boot.js"), []byte(js), 0o644); err != nil {
		return "", err
	}
	return out, os.WriteFile(filepath.Join(out, "index.html"), []byte(streamOnlyHTML), 0o644)
}
