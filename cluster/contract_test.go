package cluster

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// docs/CONTRACT.md's words on Report.JSON name every key it can write: each JSON name of Report,
// DeviceResult and ExcludedNode. It said "exactly" the devices' keys up to allocatedTo, without
// nodes and share (README.md had them).
func TestContractNamesEveryCheckKey(t *testing.T) {
	b, err := os.ReadFile("../docs/CONTRACT.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "- `Report.JSON()`")
	end := strings.Index(doc[max(start, 0):], "`Report.ViewJSON()`")
	if start < 0 || end < 0 {
		t.Fatal("docs/CONTRACT.md has no Report.JSON() item")
	}
	words := strings.Join(strings.Fields(doc[start:start+end]), " ")
	for _, v := range []any{Report{}, DeviceResult{}, ExcludedNode{}} {
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !strings.Contains(words, `"`+name+`"`) {
				t.Errorf("docs/CONTRACT.md's Report.JSON() does not name %s.%s's key %q", ty.Name(), ty.Field(i).Name, name)
			}
		}
	}
}
