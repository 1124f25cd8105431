package conformance

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var readmeText = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile("../README.md")
	return strings.Join(strings.Fields(string(b)), " "), err
})

// readmeFigure holds a figure README.md's "How it is proven" states to what the test counted:
// pattern is a regexp of the flattened text whose one group is the figure ("1,740"). A short run
// counts a sample and is not compared.
func readmeFigure(t *testing.T, pattern string, got int) {
	t.Helper()
	if testing.Short() {
		return
	}
	text, err := readmeText()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Errorf("README.md no longer states %s", pattern)
		return
	}
	if n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); n != got {
		t.Errorf("README.md says %s where the test counts %d (%s): update the README", m[0], got, pattern)
	}
}
