//go:build !(js && wasm)

package bridge

import (
	"net/url"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// CatalogShards is the model catalog cut into the shards the site writes (catalog.Shard), each
// holding, besides the entries of its own names' keys, every key group the first claims of its
// names read too (the kin tables' entries, an architecture's base model, a GGUF twin): for each
// of its models, the links the page writes for it (llmfit mode, and kv mode) are made from the
// shard, and each entry or name the shard lacked (catalog.IncompleteError) adds its key, until
// the claim is made or needs more than entries (the whole table: the page then waits for it).
// Native only: the site build runs it (tools/cmd/site).
func CatalogShards() []string {
	names := catalog.Names()
	byShard := make([][]string, catalog.ShardCount)
	for _, n := range names {
		b := catalog.ShardOf(n)
		byShard[b] = append(byShard[b], n)
	}
	out := make([]string, catalog.ShardCount)
	for b := range out {
		var keys []string
		have := map[string]bool{}
		for _, n := range byShard[b] {
			kv := target.Default()
			kv.Model, kv.Sizing = n, target.SizingKV
			for _, link := range []string{"m=" + url.QueryEscape(n), target.Permalink(kv)} {
				for range 16 { // a bound: each round adds a key the claim read
					missing := firstClaimMisses(catalog.Shard(b, keys), link)
					if missing == nil {
						break
					}
					var k string
					switch {
					case missing.Entry >= 0:
						k = catalog.ShardKey(names[missing.Entry])
					case missing.Name != "":
						k = catalog.ShardKey(missing.Name)
					}
					if k == "" || have[k] || catalog.ShardOf(k) == b {
						break // the whole table, or a key the shard holds already: the page waits
					}
					have[k] = true
					keys = append(keys, k)
				}
			}
		}
		out[b] = catalog.Shard(b, keys)
	}
	return out
}

// firstClaimMisses makes the link's first claim from the shard and returns what the shard
// lacked for it (nil: it answered).
func firstClaimMisses(shard, link string) (missing *catalog.IncompleteError) {
	restore, err := catalog.EnterShardForTest(shard)
	if err != nil {
		panic(err) // catalog.Shard's own text
	}
	defer restore()
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(*catalog.IncompleteError)
			if !ok {
				panic(p)
			}
			missing = e
		}
	}()
	FirstClaim(link)
	return nil
}
