package deploy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
)

// trustWords is what every surface says of the fix (the YAML's header, the summary, the page's
// list and the command line's stderr all print the plan's words).
const trustWords = "set trustRemoteCode (--trust-remote-code) if you trust "

// A model whose model_type (internvl_chat, minicpmv) neither transformers nor vLLM knows stops vLLM
// at its config without --trust-remote-code: the Deployment says it does not start, and why, in the
// summary and the header; with trustRemoteCode on, that reason is gone and it starts.
func TestVLLMNeedsTrustRemoteCode(t *testing.T) {
	for _, c := range []struct{ link, modelType string }{
		{"m=OpenGVLab%2FInternVL2_5-8B&q=BF16&s=kv&ctx=8192&drv=nvidia", "internvl_chat"},
		{"m=openbmb%2FMiniCPM-V-2_6&q=BF16&s=kv&ctx=8192&drv=nvidia", "minicpmv"},
	} {
		r := mustRender(t, c.link, with{})
		name := mustTarget(t, c.link).Model
		want := name + "'s config.json has model_type " + c.modelType
		if r.Starts || !strings.HasPrefix(r.Summary, "vLLM does not start") || !strings.Contains(r.Summary, want) ||
			!strings.HasSuffix(r.Summary, trustWords+name+"'s code") {
			t.Errorf("%s: starts %v, summary %q", name, r.Starts, r.Summary)
		}
		if !strings.Contains(unwrapped(r.YAML), want) || slices.Contains(r.Args, "--trust-remote-code") {
			t.Errorf("%s: the YAML does not say it, or has the flag", name)
		}

		tg := mustTarget(t, c.link)
		tg.TrustRemoteCode = true
		on, err := Render(tg)
		if err != nil {
			t.Fatal(err)
		}
		if !on.Starts || !slices.Contains(on.Args, "--trust-remote-code") || strings.Contains(on.Summary+strings.Join(on.Problems, "\n"), "trustRemoteCode") {
			t.Errorf("%s with trustRemoteCode: starts %v, %q, problems %q", name, on.Starts, on.Summary, on.Problems)
		}
	}
}

// unwrapped is the YAML's words with its comments' line breaks and "#" taken out.
func unwrapped(yaml string) string {
	return strings.Join(slices.DeleteFunc(strings.Fields(yaml), func(w string) bool { return w == "#" }), " ")
}

// A model vLLM loads without --trust-remote-code gets no word of it; with trustRemoteCode on, a
// note that it runs the repository's Python for nothing. llama.cpp reads GGUF and runs no Python:
// nothing either way, and nothing for a model whose model_type the catalog does not know.
func TestTrustRemoteCodeForNothing(t *testing.T) {
	const llama = "m=meta-llama%2FLlama-3.1-8B-Instruct&q=BF16&s=kv&ctx=8192&drv=nvidia"
	r := mustRender(t, llama, with{})
	if !r.Starts || strings.Contains(r.YAML+strings.Join(r.Problems, ""), "trust") {
		t.Errorf("llama: starts %v, problems %q", r.Starts, r.Problems)
	}
	tg := mustTarget(t, llama)
	tg.TrustRemoteCode = true
	on, err := Render(tg)
	if err != nil {
		t.Fatal(err)
	}
	if !on.Starts || !slices.ContainsFunc(on.Problems, func(p string) bool {
		return strings.HasPrefix(p, "trustRemoteCode (--trust-remote-code) runs meta-llama/Llama-3.1-8B-Instruct's Python for nothing")
	}) || !strings.Contains(unwrapped(on.YAML), "WARNING: trustRemoteCode (--trust-remote-code) runs") {
		t.Errorf("llama with trustRemoteCode: starts %v, problems %q", on.Starts, on.Problems)
	}

	for _, link := range []string{
		"m=OpenGVLab%2FInternVL2_5-8B&s=kv&ctx=8192&drv=nvidia",
		"m=OpenGVLab%2FInternVL2_5-8B&s=kv&ctx=8192&drv=nvidia&trc=1",
		llama + "&trc=1",
	} {
		l := mustRender(t, link, with{Engine: "llama.cpp"})
		if strings.Contains(l.Summary+strings.Join(l.Problems, ""), "trustRemoteCode (--trust-remote-code)") {
			t.Errorf("llama.cpp, %s: %q %q", link, l.Summary, l.Problems)
		}
	}

	// "unknown" in the catalog, and model_types vLLM's own configs know (kimi_k2, chatglm: their
	// repositories ship tokenizer code, which the flag may be for): nothing is said, on or off.
	unknown := "m=sonoisa%2Fsentence-bert-base-ja-mean-tokens&s=kv&ctx=512&drv=nvidia"
	kimi := "m=moonshotai%2FKimi-K2-Instruct&s=kv&ctx=8192&drv=nvidia&n=8"
	glm := "m=THUDM%2Fglm-4-9b-chat&s=kv&ctx=8192&drv=nvidia"
	for _, link := range []string{unknown, unknown + "&trc=1", kimi, kimi + "&trc=1", glm, glm + "&trc=1"} {
		u := mustRender(t, link, with{})
		if strings.Contains(u.Summary+strings.Join(u.Problems, ""), "trustRemoteCode (--trust-remote-code)") {
			t.Errorf("%s: %q %q", link, u.Summary, u.Problems)
		}
	}
}

// trustOf's binary search needs the names sorted and unique, and every name a catalog model's (the
// table is made from the catalog: a name that left it would never be asked).
func TestTrustTableSorted(t *testing.T) {
	for i := range trustEnds {
		name := trustName(i)
		if i > 0 && trustName(i-1) >= name {
			t.Fatalf("trustNames is not sorted at %d: %q, %q", i, trustName(i-1), name)
		}
		if m, err := catalog.Lookup(name); err != nil || m.Name != name {
			t.Errorf("%s is in trustNames but not in the catalog", name)
		}
		if mt, ok := trustOf(name); !ok || mt != trustTypes[trustType[i]] {
			t.Errorf("trustOf(%q) = %q, %v", name, mt, ok)
		}
	}
	if int(trustEnds[len(trustEnds)-1]) != len(trustNames) {
		t.Errorf("the last name ends at %d, the names are %d bytes", trustEnds[len(trustEnds)-1], len(trustNames))
	}
	for _, name := range []string{"meta-llama/Llama-3.1-8B-Instruct", "", "zzz", "00"} {
		if _, ok := trustOf(name); ok {
			t.Errorf("trustOf(%q) is listed", name)
		}
	}
	if mt, ok := trustOf("OpenGVLab/InternVL2_5-8B"); !ok || mt != "internvl_chat" {
		t.Errorf("trustOf(InternVL2_5-8B) = %q, %v", mt, ok)
	}
}

// TestTrustTableIsCurrent runs deploy/gen on data/ and demands its output, byte for byte, is the
// committed trust_gen.go (as catalog's TestGeneratedFilesAreCurrent does for its tables).
func TestTrustTableIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run ./gen")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool to run the generator: %v", err)
	}
	out := t.TempDir()
	if b, err := exec.Command(goTool, "run", "./gen", "-data", "../data", "-out", out).CombinedOutput(); err != nil {
		t.Fatalf("go run ./gen: %v\n%s", err, b)
	}
	want, err := os.ReadFile(filepath.Join(out, "trust_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("trust_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("trust_gen.go is stale: the generator writes %d bytes, the committed file has %d; run go generate ./deploy", len(want), len(got))
	}
}
