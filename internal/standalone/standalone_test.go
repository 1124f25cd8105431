// Package standalone holds one test: the repository stands alone. A clone must build, serve and
// pass its tests with nothing beside it, so no tracked file may reach outside the repository
// for data, as the project once read its shared data folder.
package standalone

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// outside is the path that once led out of the repository. It is spelled in two halves so this
// file does not match itself.
var outside = []byte("../" + "shared")

func TestNoTrackedFileReadsOutsideTheRepository(t *testing.T) {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not a git checkout: nothing to scan")
	}
	root := strings.TrimSpace(string(top))
	list, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var offenders []string
	for _, name := range strings.Split(string(list), "\x00") {
		if name == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet committed
			}
			t.Fatalf("%s: %v", name, err)
		}
		if bytes.Contains(b, outside) {
			offenders = append(offenders, name)
		}
	}
	if len(offenders) > 0 {
		t.Errorf("these tracked files refer to %s; copy what they need into the repository instead: %s",
			outside, strings.Join(offenders, ", "))
	}
}
