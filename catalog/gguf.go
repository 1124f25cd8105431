package catalog

import "strings"

// IsGGUFRepository reports whether a repository publishes GGUF files: its name says so
// ("unsloth/Qwen3-8B-GGUF") or architectures.csv records it as a GGUF re-upload.
func (m *Model) IsGGUFRepository() bool {
	return strings.Contains(strings.ToLower(m.Name), "gguf") || strings.Contains(strings.ToLower(m.Arch.Prequant), "gguf")
}

// GGUFRepository is the repository llama.cpp's -hf should download a model's GGUF files from:
// the model's own when it publishes GGUF files, else the most downloaded catalog repository
// named as a GGUF re-upload of it — the same name with "-GGUF" after it, under any
// organisation, or "ORG_NAME-GGUF" as bartowski names them (Qwen/Qwen3-8B → unsloth/Qwen3-8B-GGUF).
// A fine-tune's re-upload is never its base model's: only the name identifies the weights.
// ok is false when the catalog knows no GGUF repository for the model.
func GGUFRepository(m *Model) (repo string, reupload, ok bool) {
	if m.IsGGUFRepository() {
		return m.Name, false, true
	}
	org, name, found := strings.Cut(strings.ToLower(m.Name), "/")
	if !found {
		org, name = "", org
	}
	want := []string{name + "-gguf", org + "_" + name + "-gguf"}
	var best *Model
	all := Models()
	for i := range all {
		c := &all[i]
		_, cname, _ := strings.Cut(strings.ToLower(c.Name), "/")
		if (cname == want[0] || org != "" && cname == want[1]) && (best == nil || c.Downloads > best.Downloads) {
			best = c
		}
	}
	if best == nil {
		return "", false, false
	}
	return best.Name, true, true
}
