package deploy

import (
	"os"
	"strings"
	"testing"
)

// README.md names the images fitclaim deploy pins; they are the ones it writes.
func TestReadmeNamesThePinnedImages(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		"the pinned `" + VLLMImage + "` or `ghcr.io/ggml-org/llama.cpp:server-{cuda12,rocm,intel}-" + LlamaCppBuild + "`",
		"with the pinned " + VLLMVersion + " the Deployment warns",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	for _, drv := range []string{"nvidia", "amd", "intel"} {
		if img := llamaCppImage(drv); !strings.HasPrefix(img, "ghcr.io/ggml-org/llama.cpp:server-") || !strings.HasSuffix(img, "-"+LlamaCppBuild) {
			t.Errorf("%s: %s", drv, img)
		}
	}
}
