// Package llmfitdata reads llmfit's model catalog as data/ holds it, for the generators that
// derive tables from it (catalog/gen, deploy/gen): one rule for which file that is.
package llmfitdata

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Read decodes data/'s one llmfit-hf-models-*.json (the name carries the day it was taken)
// into entries, and returns its path.
func Read(data string, entries any) (string, error) {
	matches, err := filepath.Glob(filepath.Join(data, "llmfit-hf-models-*.json"))
	if err != nil || len(matches) != 1 {
		return "", fmt.Errorf("want exactly one llmfit-hf-models-*.json in %s, found %v", data, matches)
	}
	raw, err := os.ReadFile(matches[0])
	if err != nil {
		return "", err
	}
	if err := json.Unmarshal(raw, entries); err != nil {
		return "", fmt.Errorf("%s: %w", matches[0], err)
	}
	return matches[0], nil
}
