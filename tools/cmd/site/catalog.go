package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/wasm/bridge"
)

// The model catalog is an asset of its own (catalogName: catalog.Text(), content-hashed like
// the others), not part of the page's engine (pageTags), and is also cut into
// catalog.ShardCount shards (bridge.CatalogShards: every entry whose name's key falls in the shard),
// so a permalink's first claim fetches a few KB beside the engine instead of the whole table
// (web/boot.js). index.html names them in its head:
//
//	<meta name="fitclaim-catalog" content="catalog.txt" data-shards="catalog-shard.{}.txt" data-count="64">
//
// content is rewritten to the table's hashed name as any asset's; data-shards to the shards'
// names (shardPlaceholder), "{}" standing for a shard's number, under one hash of all of them;
// data-count must be catalog.ShardCount.
//
// web/boot.js: on a permalink load the link's shard (its key: catalog.ShardKey, boot.js's
// shardKey) is fetched beside the engine and the first claim is made from it
// (wasm/page/export.go: fitclaim_catalog, fitclaim_first); the whole table's download starts
// when the engine's compile ends (its bytes are all in). The table is given to the engine once
// app.js has adopted the claim the shard made and drawn its rest (the table, the pictures, the
// panels: that render's, which needs no other entry), or sooner when something else needs it
// (fitclaimBoot.wantCatalog; 3 s after the claim at the latest); at once when the claim is left
// to app.js or the shard cannot answer exactly as the table would (fitclaim_first answers -1),
// on a bare visit when the engine's compile starts, and when a service worker controls the page
// (it has the table cached, not the shards). fitclaimBoot.catalog settles once the engine has
// the whole table: app.js waits for it before anything but that claim's adoption asks the
// engine (its whole()), and gives it to its warm-up worker (web/firstclaim.js).

// catalogName is the whole table as web/ names it.
const catalogName = "catalog.txt"

// shardPlaceholder is the shards' names as index.html writes them.
const shardPlaceholder = "catalog-shard.{}.txt"

// writeShards writes the shards under assets/ and returns their names with "{}" for the number.
// The service worker does not precache them (sw.go): a page it controls loads the whole table.
func writeShards(dir string) (string, error) {
	texts := bridge.CatalogShards()
	h := sha256.New()
	for _, t := range texts {
		h.Write([]byte(t))
	}
	sum := hex.EncodeToString(h.Sum(nil))[:10]
	pattern := "assets/catalog-shard." + sum + ".{}.txt"
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		return "", err
	}
	for b, t := range texts {
		name := strings.Replace(pattern, "{}", strconv.Itoa(b), 1)
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(t), 0o644); err != nil {
			return "", err
		}
	}
	return pattern, nil
}

// isShard reports whether a path of the site (slash-separated) is one of the shards.
func isShard(rel string) bool { return strings.HasPrefix(rel, "assets/catalog-shard.") }

// nameShards writes the shards' names into index.html's catalog element, and checks its count.
func (s *site) nameShards(page []byte) ([]byte, error) {
	if !bytes.Contains(page, []byte(`name="fitclaim-catalog"`)) {
		return page, nil // a page without the catalog element (a test's)
	}
	if s.shards == "" {
		return nil, fmt.Errorf("index.html: the catalog's shards were not written")
	}
	attr := []byte(`data-shards="` + shardPlaceholder + `"`)
	if bytes.Count(page, attr) != 1 {
		return nil, fmt.Errorf("index.html: the fitclaim-catalog element must hold %s once", attr)
	}
	if count := []byte(`data-count="` + strconv.Itoa(catalog.ShardCount) + `"`); !bytes.Contains(page, count) {
		return nil, fmt.Errorf("index.html: the fitclaim-catalog element must say %s (catalog.ShardCount)", count)
	}
	return bytes.Replace(page, attr, []byte(`data-shards="`+s.shards+`"`), 1), nil
}
