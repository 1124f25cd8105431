package llmfitdata

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's own data/ holds exactly one catalog, and Read decodes it; a folder with none
// or two is refused by name, never read at random.
func TestRead(t *testing.T) {
	var entries []struct {
		Name string `json:"name"`
	}
	path, err := Read("../../data", &entries)
	if err != nil || !strings.HasPrefix(filepath.Base(path), "llmfit-hf-models-") || len(entries) < 1000 {
		t.Fatalf("data/: %q, %d entries, %v", path, len(entries), err)
	}
	dir := t.TempDir()
	if _, err := Read(dir, &entries); err == nil || !strings.Contains(err.Error(), "want exactly one") {
		t.Errorf("no catalog: %v", err)
	}
	for _, day := range []string{"2026-01-01", "2026-02-01"} {
		if err := os.WriteFile(filepath.Join(dir, "llmfit-hf-models-"+day+".json"), []byte("[]"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Read(dir, &entries); err == nil || !strings.Contains(err.Error(), "found [") {
		t.Errorf("two catalogs: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "llmfit-hf-models-2026-02-01.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "llmfit-hf-models-2026-01-01.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dir, &entries); err == nil || !strings.Contains(err.Error(), "llmfit-hf-models-2026-01-01.json: ") {
		t.Errorf("bad JSON: %v", err)
	}
}
