package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

// web/boot.js fetches a permalink's shard by its own shardKey and shardOf: for every catalog
// name, in its own, lower and upper case, with and without its publisher, and a few other
// spellings, they must give catalog.ShardOf's shard (run under Node), else the page would fetch
// a shard that cannot answer and wait for the whole table.
func TestBootShardOfIsCatalogs(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node not found (CI installs it)")
		}
		t.Skip("node not found")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "web", "boot.js"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	from, to := strings.Index(src, "  // shardKey and shardOf are"), strings.Index(src, "  boot.shardOf = shardOf;")
	if from < 0 || to < from {
		t.Fatal("web/boot.js: no shardKey and shardOf between their comment and boot.shardOf")
	}
	var names []string
	for _, n := range catalog.Names() {
		short := n[strings.LastIndexByte(n, '/')+1:]
		names = append(names, n, strings.ToLower(n), strings.ToUpper(n), short, strings.ToUpper(short), " "+n+"\t")
	}
	names = append(names, "", "/", "a/b/c", "Ünïcödé/Ñame", "x\u00a0")
	in, err := json.Marshal(names)
	if err != nil {
		t.Fatal(err)
	}
	script := src[from:to] + `
const names = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(names.map((n) => shardOf(n, ` + "64" + `))));
`
	if catalog.ShardCount != 64 {
		t.Fatalf("catalog.ShardCount is %d: this test and index.html's data-count say 64", catalog.ShardCount)
	}
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []int
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(names) {
		t.Fatalf("node printed %.200s (%v)", out, err)
	}
	bad := 0
	for i, n := range names {
		if want := catalog.ShardOf(n); got[i] != want && bad < 10 {
			bad++
			t.Errorf("boot.js puts %q in shard %d, catalog.ShardOf in %d", n, got[i], want)
		}
	}
}
