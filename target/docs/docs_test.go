package docs

import (
	"os"
	"strings"
	"testing"
)

// The committed documents hold what the field table generates today.
func TestDocsCurrent(t *testing.T) {
	for path, sections := range map[string][]string{"../../README.md": {"permalink-table"}, "../../docs/CONTRACT.md": {"bridge-fields", "bridge-result"}} {
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range sections {
			if !strings.Contains(string(old), beginMark+name+" -->\n") {
				t.Errorf("%s has no generated section %s", path, name)
			}
		}
		doc, err := Update(string(old))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if doc != string(old) {
			t.Errorf("%s is stale: run go generate ./target/... and commit it", path)
		}
	}
}

func TestUpdateRefusesBrokenMarkers(t *testing.T) {
	for _, doc := range []string{
		beginMark + "permalink-table -->\nno end",
		beginMark + "nope -->\n" + endMark + "nope -->",
		beginMark + "permalink-table",
	} {
		if _, err := Update(doc); err == nil {
			t.Errorf("%q: no error", doc)
		}
	}
}
