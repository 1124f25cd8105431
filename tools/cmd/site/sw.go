package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// writeServiceWorker fills sw.js's two placeholders: a cache version that changes with any file
// of the site, and the precache list (the shell, the manifest and every hashed asset).
func writeServiceWorker(dir string) error {
	swPath := filepath.Join(dir, "sw.js")
	sw, err := os.ReadFile(swPath)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var files []string // slash paths relative to dir, in WalkDir's lexical order
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); rel != "sw.js" {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	h := sha256.New()
	precache := []string{"./", "index.html"}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		h.Write([]byte(f + "\x00"))
		h.Write(b)
		// Every asset, the second engine (fitclaim-later.wasm) too: the page fetches it only
		// when a panel needs it, but offline the Deployment tab, the hardware panel and the
		// cluster check need it cached. The worker installs once the first claim is shown.
		// Not the catalog's shards: a page the worker controls loads the whole table (boot.js).
		if f == "manifest.webmanifest" || strings.HasPrefix(f, "assets/") && !isShard(f) {
			precache = append(precache, f)
		}
	}
	list, err := json.Marshal(precache)
	if err != nil {
		return err
	}
	version := hex.EncodeToString(h.Sum(nil))[:16]
	out := strings.NewReplacer("__CACHE_VERSION__", version, "__PRECACHE__", string(list)).Replace(string(sw))
	return os.WriteFile(swPath, []byte(out), 0o644)
}
