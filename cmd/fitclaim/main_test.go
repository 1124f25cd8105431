package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

func runCLI(args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// The command line prints exactly the bytes the engine renders for the same target.
func TestClaimMatchesEngine(t *testing.T) {
	target, err := target.ParsePermalink("m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60&tpl=1")
	if err != nil {
		t.Fatal(err)
	}
	want, err := claim.Render(target)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI("claim", "NousResearch/Llama-2-7b-chat-hf", "--min-tps", "30", "--efficiency=60", "--template")
	if code != 0 || out != want.YAML {
		t.Fatalf("exit %d, YAML:\n%s\nwant:\n%s", code, out, want.YAML)
	}
	out, _, code = runCLI("claim", "--permalink", "https://fitclaim.example/#m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60&tpl=1", "--json")
	if code != 0 || out != want.JSON+"\n" {
		t.Fatalf("exit %d, JSON:\n%s\nwant:\n%s", code, out, want.JSON)
	}
}

func TestClaimKVFlags(t *testing.T) {
	target, err := target.ParsePermalink("m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=4096&seq=2&kv=fp8&drv=nvidia")
	if err != nil {
		t.Fatal(err)
	}
	want, err := claim.Render(target)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI("claim", "Qwen/Qwen3-30B-A3B-Instruct-2507", "--sizing", "kv", "--context", "4096",
		"--sequences", "2", "--kv-cache", "fp8", "--driver", "nvidia")
	if code != 0 || out != want.YAML {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestClaimErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"claim", "meta-llama/Llama-3.1-8B-Instruct", "--min-tps", "0"}, exitError, "fitclaim claim: Target decode speed (--min-tps): must be a decimal number greater than 0"},
		{[]string{"claim", "meta-llama/Llama-3.1-8B-Instruct", "--efficiency", "101"}, exitError, "fitclaim claim: Bandwidth efficiency (--efficiency): must be a whole number from 1 to 100 percent"},
		{[]string{"claim", "meta-llama/Llama-3.1-8B-Instruct", "--quant", "Q9"}, exitError, "fitclaim claim: Quantization (--quant): unknown quantization \"Q9\"; known: F32"},
		{[]string{"claim", "no-such-model-anywhere-xyz"}, exitError, "fitclaim claim: Model: no model in the catalog matches \"no-such-model-anywhere-xyz\"; or give Parameters (--params) for a model"},
		{[]string{"claim", "meta-llama/Llama-3.1-8B-Instruct", "--name", "Bad_Name"}, exitError, "fitclaim claim: Claim name (--name): must be a DNS-1123 subdomain"},
		{[]string{"claim", "--bogus"}, exitUsage, "unknown flag --bogus"},
		// The flag as typed: a permalink key tried as a short flag was reported as "--s".
		{[]string{"claim", "x", "-s", "kv"}, exitUsage, "unknown flag -s (did you mean --sizing?)\n"},
		// A link key, a JSON name or a flag in another case says which flag it means.
		{[]string{"claim", "x", "--tps", "30"}, exitUsage, "unknown flag --tps (did you mean --min-tps?)\n"},
		{[]string{"claim", "x", "--minTps=30"}, exitUsage, "unknown flag --minTps (did you mean --min-tps?)\n"},
		{[]string{"deploy", "x", "--MIN-TPS", "30"}, exitUsage, "unknown flag --MIN-TPS (did you mean --min-tps?)\n"},
		{[]string{"claim", "--model", "x"}, exitUsage, "unknown flag --model (the model is the argument, not a flag)\n"},
		{[]string{"claim", "x", "--bogus=1"}, exitUsage, "unknown flag --bogus\n"},
		{[]string{"claim", "a", "b"}, exitUsage, "one model at a time"},
		{[]string{"claim", "x", "--min-tps"}, exitUsage, "--min-tps needs a value"},
		{[]string{"claim", "--permalink", "m=x", "--min-tps", "3"}, exitUsage, "--permalink carries the whole target"},
		// A repeated --permalink took the last silently; a repeated target flag is refused.
		{[]string{"claim", "--permalink", "m=x", "--permalink", "m=NousResearch%2FLlama-2-7b-chat-hf"}, exitUsage, "--permalink: given more than once; give it once"},
		{[]string{"estimate", "--permalink", "m=x&on=h100", "--permalink=m=y&on=h100"}, exitUsage, "--permalink: given more than once; give it once"},
		{[]string{"frobnicate"}, exitUsage, "unknown command"},
		{[]string{"models", "--limit", "0"}, exitUsage, "--limit must be a whole number from 1 to 100"},
	}
	for _, c := range cases {
		out, errOut, code := runCLI(c.args...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d (want %d), stdout %q, stderr %q (want %q)", c.args, code, c.code, out, errOut, c.want)
		}
	}
}

// A command's --help prints the usage on stdout and exits 0, as `fitclaim --help` does.
func TestCommandHelp(t *testing.T) {
	want, _, code := runCLI("--help")
	if code != 0 || !strings.HasPrefix(want, "fitclaim sizes an LLM inference workload") {
		t.Fatalf("fitclaim --help: exit %d, %q", code, want)
	}
	for _, args := range [][]string{{"claim", "--help"}, {"deploy", "-h"}, {"check", "--help"}, {"estimate", "Qwen/Qwen3-8B", "--help"}, {"models", "-h"}} {
		out, errOut, code := runCLI(args...)
		if code != 0 || out != want || errOut != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout the usage: %v", args, code, errOut, out == want)
		}
	}
}

func TestWarningsGoToStderr(t *testing.T) {
	out, errOut, code := runCLI("claim", "Qwen/Qwen3-30B-A3B-Instruct-2507", "--driver", "amd")
	if code != 0 || !strings.HasPrefix(out, "# Generated by fitclaim") || !strings.Contains(errOut, "not enforced") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out[:min(len(out), 80)], errOut)
	}
}

func TestModels(t *testing.T) {
	out, _, code := runCLI("models", "Llama-2-7b-chat", "--limit", "5")
	if code != 0 || !strings.Contains(out, "MODEL") || !strings.Contains(out, "Llama-2-7b-chat") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI("models", "qwen3", "--json", "--limit=2")
	if code != 0 || !strings.Contains(out, `"paramsB"`) || strings.Count(out, `"name"`) != 2 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// BAAI/bge-small-en-v1.5 has 33,360,512 parameters: 0.033 B, printed as 33M (one decimal of
	// billions would say 0.0B); Llama-2-7b-chat-hf's 6.74 B (6,738,415,616) as 6.7B.
	out, _, code = runCLI("models", "BAAI/bge-small-en-v1.5", "--limit", "1")
	if code != 0 || !strings.Contains(out, "BAAI/bge-small-en-v1.5  33M ") {
		t.Fatalf("bge-small: exit %d:\n%s", code, out)
	}
	out, _, code = runCLI("models", "NousResearch/Llama-2-7b-chat-hf", "--limit", "1")
	if code != 0 || !strings.Contains(out, "NousResearch/Llama-2-7b-chat-hf  6.7B ") {
		t.Fatalf("llama-2-7b: exit %d:\n%s", code, out)
	}
	out, _, code = runCLI("version")
	if code != 0 || !strings.Contains(out, claim.Version) || !strings.Contains(out, "1852 models") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// --json=false is the table, not JSON; --json=maybe is refused.
func TestModelsJSONSwitch(t *testing.T) {
	out, _, code := runCLI("models", "qwen3", "--json=false", "--limit=2")
	if code != 0 || !strings.HasPrefix(out, "MODEL") || strings.Contains(out, `"name"`) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// --json= alone is off, as a target's switch given "=" alone (--template=): it was refused.
	for _, args := range [][]string{{"models", "qwen3", "--json=", "--limit=2"}, {"claim", "Qwen/Qwen3-8B", "--json="}} {
		if out, errOut, code := runCLI(args...); code != 0 || strings.HasPrefix(out, "[") || strings.HasPrefix(out, "{") {
			t.Errorf("%q: exit %d %q, %.20q", args, code, errOut, out)
		}
	}
	_, errOut, code := runCLI("models", "qwen3", "--json=maybe")
	if code != exitUsage || !strings.Contains(errOut, "--json takes no value (or =true, =false)") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, errOut, code = runCLI("models", "--limit", "2.5")
	if code != exitUsage || !strings.Contains(errOut, `--limit must be a whole number from 1 to 100 (got "2.5")`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// A choice given with surrounding space is that choice, as a number or a model name is: "Q4_K_M "
// (--quant, and q=Q4_K_M%20 in a link) was refused as an unknown quantization.
func TestChoicesTrimmed(t *testing.T) {
	want, _, code := runCLI("claim", "Qwen/Qwen3-30B-A3B-Instruct-2507", "--quant", "Q4_K_M", "--sizing", "kv", "--kv-cache", "q8_0", "--driver", "nvidia", "--engine", "llama.cpp")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, args := range [][]string{
		{"claim", "Qwen/Qwen3-30B-A3B-Instruct-2507", "--quant", "Q4_K_M ", "--sizing", " kv", "--kv-cache", "q8_0\t", "--driver", " nvidia ", "--engine", "llama.cpp "},
		{"claim", "--permalink", "m=Qwen%2FQwen3-30B-A3B-Instruct-2507&q=Q4_K_M%20&s=%20kv&kv=q8_0%09&drv=%20nvidia%20&engine=llama.cpp%20"},
	} {
		out, errOut, code := runCLI(args...)
		if code != 0 || out != want {
			t.Errorf("%q: exit %d, stderr %q, same YAML as without the spaces: %v", args, code, errOut, out == want)
		}
	}
}

// version --json writes what GET /api/v1/version answers; an argument it does not take is a
// usage error (version --json and version x printed the text and exited 0).
func TestVersionArguments(t *testing.T) {
	text, _, code := runCLI("version")
	if code != 0 || !strings.HasPrefix(text, "fitclaim "+claim.Version+" (catalog ") {
		t.Fatalf("version: exit %d, %q", code, text)
	}
	out, _, code := runCLI("version", "--json")
	var got claim.About
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got != claim.AboutThis() || got.Version != claim.Version {
		t.Errorf("version --json: exit %d, %v, %q", code, err, out)
	}
	if out, _, code := runCLI("version", "--json=false"); code != 0 || out != text {
		t.Errorf("version --json=false: exit %d, %q", code, out)
	}
	for _, args := range [][]string{{"version", "x"}, {"version", "--short"}, {"--version", "--json=maybe"}} {
		if out, errOut, code := runCLI(args...); code != exitUsage || out != "" || !strings.HasPrefix(errOut, "fitclaim version: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %.80q", args, code, out, errOut)
		}
	}
}

// A usage error is its line and where the usage is, with exit 2; it was followed by the whole
// usage (some 70 lines), the error scrolled off above it.
func TestUsageErrorIsShort(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"claim", "x", "--bogus"}, "fitclaim claim: unknown flag --bogus\nrun 'fitclaim claim --help' for the usage\n"},
		{[]string{"deploy", "x", "--json"}, "fitclaim deploy: --json: deploy writes YAML only (claim --json gives the fit as JSON)\nrun 'fitclaim deploy --help' for the usage\n"},
		{[]string{"check", "--params", "7"}, "fitclaim check: --slices FILE is required (kubectl get resourceslices -o yaml > FILE, or --slices - to read standard input)\nrun 'fitclaim check --help' for the usage\n"},
		{[]string{"estimate", "x", "--image", "i"}, "\nrun 'fitclaim estimate --help' for the usage\n"},
		{[]string{"version", "x"}, "fitclaim version: unknown argument x (version takes only --json)\nrun 'fitclaim version --help' for the usage\n"},
		{[]string{"frobnicate"}, "fitclaim: unknown command \"frobnicate\"\nrun 'fitclaim help' for the commands\n"},
		{[]string{"models", "--bogus"}, "fitclaim models: unknown flag --bogus\nrun 'fitclaim models --help' for the usage\n"},
		{[]string{"models", "--limit", "0"}, "fitclaim models: --limit must be a whole number from 1 to 100 (got \"0\")\nrun 'fitclaim models --help' for the usage\n"},
		// given twice: refused as --permalink and --slices are (and the API's limit), not the last silently
		{[]string{"models", "qwen", "--limit", "2", "--limit=3"}, "fitclaim models: --limit: given more than once; give it once\nrun 'fitclaim models --help' for the usage\n"},
	} {
		out, errOut, code := runCLI(c.args...)
		if code != exitUsage || out != "" || !strings.HasSuffix(errOut, c.want) || strings.Count(errOut, "\n") != 2 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
	// The usage itself is where the hint says.
	if out, _, code := runCLI("estimate", "--help"); code != 0 || !strings.Contains(out, "Usage:") {
		t.Errorf("estimate --help: exit %d", code)
	}
}

// The search text is held to the API's limit (q: 300 characters), counted in characters.
func TestModelsQueryLimit(t *testing.T) {
	if _, errOut, code := runCLI("models", strings.Repeat("模", 301)); code != exitUsage || !strings.Contains(errOut, "fitclaim models: QUERY must be at most 300 characters (got 301)") {
		t.Errorf("301 characters: exit %d %q", code, errOut)
	}
	if _, errOut, code := runCLI("models", strings.Repeat("模", 150), strings.Repeat("模", 149)); code != exitError || !strings.Contains(errOut, "nothing in the catalog") {
		t.Errorf("300 characters: exit %d %q", code, errOut)
	}
}

// The usage lists every exit status a script meets, and each is what the command returns: the
// usage named only check's 3 (README.md had them, piecemeal).
func TestUsageSaysExitStatuses(t *testing.T) {
	u := usage()
	_, section, ok := strings.Cut(u, "\nExit status:\n")
	if !ok {
		t.Fatal("the usage has no Exit status section")
	}
	section, _, _ = strings.Cut(section, "\n\n")
	listed := map[string]bool{}
	for _, l := range strings.Split(section, "\n") {
		if f := strings.Fields(l); len(f) > 1 && len(l) > 3 && l[2] != ' ' {
			listed[f[0]] = true
		}
	}
	f := t.TempDir() + "/slices.yaml"
	slices, err := os.ReadFile("../../cluster/testdata/amd.yaml")
	if err != nil || os.WriteFile(f, slices, 0o644) != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code int
		args []string
	}{
		{0, []string{"claim", "Qwen/Qwen3-8B"}},
		{0, []string{"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-t4", "--quant", "BF16"}}, // does not fit
		{exitError, []string{"claim", "Qwen/Qwen3-8B", "--min-tps", "fast"}},
		{exitError, []string{"claim", "Qwen/Qwen3-8B", "--min-tps", "3", "--min-tps", "4"}},
		{exitError, []string{"models", "zzzzqqqq"}},
		{0, []string{"models", "zzzzqqqq", "--json"}},
		{exitUsage, []string{"claim", "Qwen/Qwen3-8B", "--bogus"}},
		{exitUsage, []string{"claim", "Qwen/Qwen3-8B", "--min-tps"}},
		{exitUsage, []string{"models", "--limit", "2", "--limit", "3"}},
		{exitNotAllocatable, []string{"check", "--slices", f, "Qwen/Qwen3-8B"}},
	} {
		if _, _, code := runCLI(c.args...); code != c.code {
			t.Errorf("fitclaim %q exits %d, want %d", c.args, code, c.code)
		}
		if !listed[strconv.Itoa(c.code)] {
			t.Errorf("the usage's Exit status section does not list %d:\n%s", c.code, section)
		}
	}
	if len(listed) != 4 {
		t.Errorf("the usage lists exit statuses %v; the command has 0, %d, %d and %d", listed, exitError, exitUsage, exitNotAllocatable)
	}
}

// The flags' help names another field by its flag, as the user types it: --capacity-name said
// "with capacityRequest:", the JSON name.
func TestHelpNamesFlagsNotJSONNames(t *testing.T) {
	u := usage()
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.Flag != "" && strings.ToLower(f.Name) != f.Name && strings.Contains(u, f.Name) {
			t.Errorf("the usage names %s, the JSON name of --%s", f.Name, f.Flag)
		}
	}
	if !strings.Contains(u, "--capacity-name N    with --capacity-request: ") {
		t.Error("--capacity-name's help does not name --capacity-request")
	}
}

// failingWriter refuses every write, as a full disk does (`> /dev/full`).
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// Output that could not be written is an error, not exit 0: `fitclaim claim X > claim.yaml` on
// a full disk left the file empty and said nothing, and `&& kubectl apply -f claim.yaml` ran.
func TestUnwrittenOutputFails(t *testing.T) {
	for _, args := range [][]string{
		{"claim", "Qwen/Qwen3-8B"}, {"claim", "Qwen/Qwen3-8B", "--json"}, {"deploy", "Qwen/Qwen3-8B"},
		{"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-t4"}, {"models", "qwen"}, {"version"}, {"help"},
		{"check", "--slices", "../../cluster/testdata/amd.yaml", "Qwen/Qwen3-8B"},
	} {
		var errOut bytes.Buffer
		code := run(args, failingWriter{}, &errOut)
		if code != exitError || !strings.HasSuffix(errOut.String(), "fitclaim: writing the output: no space left on device\n") {
			t.Errorf("fitclaim %q to a full disk: exit %d, stderr %q", args, code, errOut.String())
		}
	}
}

// The usage says --limit's range and default, from the constants the command reads it by: it
// said "--limit N" only (the API's route tables gave 1–100, default 20).
func TestUsageSaysModelsLimit(t *testing.T) {
	want := "search the catalog (N: 1–" + strconv.Itoa(target.MaxListLimit) + ", default " + strconv.Itoa(target.DefaultListLimit) + ")"
	if !strings.Contains(usage(), want) {
		t.Errorf("the usage lacks %q", want)
	}
	out, _, code := runCLI("models", "--json")
	var found []any
	if code != 0 || json.Unmarshal([]byte(out), &found) != nil || len(found) != target.DefaultListLimit {
		t.Errorf("models without --limit: exit %d, %d models", code, len(found))
	}
}
