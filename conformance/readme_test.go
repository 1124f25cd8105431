package conformance

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var docTexts sync.Map // path → the document's text, its whitespace runs made one space

func docText(path string) (string, error) {
	if s, ok := docTexts.Load(path); ok {
		return s.(string), nil
	}
	b, err := os.ReadFile(path)
	s := strings.Join(strings.Fields(string(b)), " ")
	docTexts.Store(path, s)
	return s, err
}

// readmeFigure holds a figure README.md's "How it is proven" states to what the test counted:
// pattern is a regexp of the flattened text whose one group is the figure ("1,740"). A short run
// counts a sample and is not compared.
func readmeFigure(t *testing.T, pattern string, got int) {
	t.Helper()
	docFigure(t, "../README.md", pattern, got)
}

// confFigure is readmeFigure for this module's README.md.
func confFigure(t *testing.T, pattern string, got int) {
	t.Helper()
	docFigure(t, "README.md", pattern, got)
}

func docFigure(t *testing.T, path, pattern string, got int) {
	t.Helper()
	if testing.Short() {
		return
	}
	text, err := docText(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Errorf("%s no longer states %s", path, pattern)
		return
	}
	if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n != got {
		t.Errorf("%s says %s where the test counts %d (%s): update it", path, m[0], got, pattern)
	}
}
