//go:build !(js && wasm)

package bridge

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// The page's engine makes a permalink's first claim from the link's shard of the model catalog
// (catalog.LoadShard, web/boot.js). For every catalog model, by every spelling a link may use
// (the full name, the name without its publisher, each in its own case, lower and upper case),
// in llmfit and kv mode, the claim from the shard is the whole catalog's, byte for byte, or the
// shard says it cannot answer (FirstClaimOrWait's wait: the page then loads the whole table).
// The shard is asked first, so a cache a shard's answer left behind would show in the whole
// catalog's answer after it.
func TestFirstClaimFromShard(t *testing.T) {
	shards := testShards()
	names := catalog.Names()
	answered, waited := 0, 0
	check := func(link, name string) {
		t.Helper()
		restore, err := catalog.EnterShardForTest(shards[catalog.ShardOf(name)])
		if err != nil {
			t.Fatal(err)
		}
		got, ok, wait := FirstClaimOrWait(link)
		restore()
		want, wantOK := FirstClaim(link)
		if wait {
			waited++
			return
		}
		answered++
		if ok != wantOK {
			t.Errorf("#%s: from its shard ok=%v, from the whole catalog %v", link, ok, wantOK)
			return
		}
		if !ok {
			return
		}
		if g, w := string(AppendFirstJSON(nil, &got)), string(AppendFirstJSON(nil, &want)); g != w {
			t.Errorf("#%s: the first claim from its shard differs from the whole catalog's:\n%.300s\nwant\n%.300s", link, g, w)
		}
		if g, w := string(AppendFirstRest(nil, &got)), string(AppendFirstRest(nil, &want)); g != w {
			t.Errorf("#%s: the rest of the first claim from its shard differs from the whole catalog's", link)
		}
	}
	for _, n := range names {
		short := n[strings.LastIndexByte(n, '/')+1:]
		for _, s := range []string{n, strings.ToLower(n), strings.ToUpper(n), short, strings.ToLower(short), strings.ToUpper(short)} {
			check("m="+url.QueryEscape(s), s)
		}
		kv := target.Default()
		kv.Model, kv.Sizing, kv.Context, kv.Sequences, kv.Driver = n, target.SizingKV, 8192, 2, "nvidia"
		check(target.Permalink(kv), n)
		kv.Engine = "vllm"
		check(target.Permalink(kv), n)
	}
	// Names the shard cannot resolve alone: a substring, a typo, an ambiguous name, an address.
	for _, s := range []string{"llama-2-7b-chat", "Qwen3-8", "qwen", "NousResearch/Llama-2-7b-chat-hg", "https://huggingface.co/Qwen/Qwen3-8B", " Qwen/Qwen3-8B "} {
		check("m="+url.QueryEscape(s), s)
	}
	t.Logf("%d links: %d answered from their shard, %d waited for the whole catalog", answered+waited, answered, waited)
	// Every model's full name in llmfit mode is answered from its shard: the page's own links.
	for _, n := range names {
		restore, err := catalog.EnterShardForTest(shards[catalog.ShardOf(n)])
		if err != nil {
			t.Fatal(err)
		}
		_, _, wait := FirstClaimOrWait("m=" + url.QueryEscape(n))
		restore()
		if wait {
			t.Errorf("#m=%s waits for the whole catalog; its shard holds its entry", n)
		}
	}
}

// A shard answers nothing outside its names, and an engine without a catalog says so.
func TestCatalogShardRefuses(t *testing.T) {
	shards := testShards()
	name := "NousResearch/Llama-2-7b-chat-hf"
	other := shards[(catalog.ShardOf(name)+1)%catalog.ShardCount]
	restore, err := catalog.EnterShardForTest(other)
	if err != nil {
		t.Fatal(err)
	}
	_, _, wait := FirstClaimOrWait("m=" + url.QueryEscape(name))
	restore()
	if !wait {
		t.Errorf("another shard answered #m=%s", name)
	}
	for _, bad := range []string{"", "hello\n", strings.Replace(shards[0], "#fitclaim-catalog-shard 1 ", "#fitclaim-catalog-shard 1 0", 1), shards[0] + "12\tx\n"} {
		if restore, err := catalog.EnterShardForTest(bad); err == nil {
			restore()
			t.Errorf("LoadShard(%.40q) took it", bad)
		}
	}
	if err := LoadCatalog("not the catalog\n", false); err == nil || !strings.Contains(err.Error(), "not the one this engine was built with") {
		t.Errorf("LoadCatalog(not the catalog) = %v", err)
	}
	if err := LoadCatalog(catalog.Text(), false); err != nil {
		t.Errorf("LoadCatalog(the catalog) = %v", err)
	}
}

// testShards is CatalogShards, made once for the tests (it makes some 4,000 claims).
var testShards = sync.OnceValue(CatalogShards)
