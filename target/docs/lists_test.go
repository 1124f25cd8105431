package docs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// README.md's lists of keys written by hand beside the generated table are the table's: the
// choices read in any case (FoldsCase), and the numbers no range lets be 0 (neither ZeroOK, nor
// ZeroOK only as "absent", ZeroAbsent), which every surface refuses as 0.
func TestReadmeKeyListsAreTheTables(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	keys := func(re string) []string {
		m := regexp.MustCompile(re).FindStringSubmatch(flat)
		if m == nil {
			t.Fatalf("README.md has no %s", re)
		}
		var ks []string
		for _, k := range strings.Split(m[1], ",") {
			ks = append(ks, strings.Trim(strings.TrimSpace(k), "`"))
		}
		slices.Sort(ks)
		return ks
	}
	var folds, noZero []string
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.FoldsCase() {
			folds = append(folds, f.Key)
		}
		if k := f.Kind(); (k == target.KindNumber || k == target.KindInteger) && (!f.ZeroOK || f.ZeroAbsent) {
			noZero = append(noZero, f.Key)
		}
	}
	slices.Sort(folds)
	slices.Sort(noZero)
	if got := keys(`A choice \(([^)]*)\) is read in any case`); !slices.Equal(got, folds) {
		t.Errorf("README.md says the choices %q are read in any case; the table's are %q", got, folds)
	}
	if got := keys(`where no range holds 0 \(([^)]*)\) it is refused everywhere`); !slices.Equal(got, noZero) {
		t.Errorf("README.md says %q refuse 0; the table's are %q", got, noZero)
	}
}
