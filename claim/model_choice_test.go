package claim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// Issue 12: "a name without its org resolves to the most-downloaded exact match and says which".
// The claim is the one for the full name, byte for byte, and the first warning names the model
// taken and the others the name stood for; a full name gets no such warning.
func TestNameWithoutOrgSaysWhich(t *testing.T) {
	short, err := Render(mustParse(t, "m=qwen3-8b&s=kv"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := Render(mustParse(t, "m=Qwen%2FQwen3-8B&s=kv"))
	if err != nil {
		t.Fatal(err)
	}
	// The JSON is the full name's but for its warnings (sixteenth session: the KV-aware JSON carries
	// the claim's warnings), which say which model was taken.
	var shortJSON, fullJSON map[string]any
	if err := json.Unmarshal([]byte(short.JSON), &shortJSON); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(full.JSON), &fullJSON); err != nil {
		t.Fatal(err)
	}
	shortWarnings, _ := shortJSON["warnings"].([]any)
	delete(shortJSON, "warnings")
	delete(fullJSON, "warnings")
	if !reflect.DeepEqual(shortJSON, fullJSON) {
		t.Errorf("qwen3-8b does not render Qwen/Qwen3-8B's claim")
	}
	if len(shortWarnings) != len(short.Warnings) || len(shortWarnings) == 0 || shortWarnings[0] != short.Warnings[0] {
		t.Errorf("qwen3-8b's JSON warnings %v, its claim's %q", shortWarnings, short.Warnings)
	}
	want := `model "qwen3-8b" is the name of 2 catalog models; took Qwen/Qwen3-8B, the most downloaded (also unsloth/Qwen3-8B); give the full name for another`
	// The YAML is the full name's with that warning in its header, last, before the manifest
	// (sixteenth session: the KV-aware header carries the claim's warnings).
	var entry strings.Builder
	WriteComment(&entry, "warning: "+want)
	if len(full.Warnings) > 0 {
		t.Fatalf("Qwen/Qwen3-8B warns: %q", full.Warnings)
	}
	if wantYAML := strings.Replace(full.YAML, "\napiVersion:", "\n"+entry.String()+"apiVersion:", 1); short.YAML != wantYAML {
		t.Errorf("qwen3-8b's YAML:\n%s\nwant Qwen/Qwen3-8B's with its warning:\n%s", short.YAML, wantYAML)
	}
	if len(short.Warnings) == 0 || short.Warnings[0] != want {
		t.Errorf("warnings = %q\nwant first %q", short.Warnings, want)
	}
	for _, w := range full.Warnings {
		if strings.Contains(w, "catalog models; took") {
			t.Errorf("the full name is warned about: %q", w)
		}
	}
}

func mustParse(t *testing.T, link string) target.Target {
	t.Helper()
	tg, err := target.ParsePermalink(link)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}
