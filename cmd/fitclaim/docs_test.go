package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/cluster"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// shellWords splits a documented command line as sh would for these commands: words, single
// quotes, a comment or a pipe ending the command.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted:
			if r == '\'' {
				quoted = false
			} else {
				w.WriteRune(r)
			}
		case r == '\'':
			quoted, inWord = true, true
		case r == '#' && !inWord, r == '|':
			if inWord {
				words = append(words, w.String())
			}
			return words
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// Every `go run ./cmd/fitclaim …` command README.md shows runs as written and exits 0 (a
// placeholder such as '#m=…' aside).
func TestDocumentedCommandsRun(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for i, l := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "go run ./cmd/fitclaim ")
		if !ok || strings.Contains(rest, "…") {
			continue
		}
		args := shellWords(rest)
		out, errOut, code := runCLI(args...)
		if code != 0 || out == "" {
			t.Errorf("README.md:%d: fitclaim %q exits %d, stdout %d bytes, stderr %q", i+1, args, code, len(out), errOut)
		}
		ran++
	}
	if ran < 7 {
		t.Errorf("only %d README commands found", ran)
	}
}

// README.md's bounds of the cluster check's inputs are the code's: the command line reads up to
// cluster.MaxInputLarge, the API (and the page) cluster.MaxInput a part.
func TestDocumentedCheckLimits(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	mib := func(n int) string { return strconv.Itoa(n>>20) + " MiB" }
	m := regexp.MustCompile(`resource\.k8s\.io v1, v1beta2 or v1beta1, at most ([0-9]+ MiB)`).FindStringSubmatch(flat)
	if m == nil || m[1] != mib(cluster.MaxInputLarge) {
		t.Errorf("README.md says fitclaim check reads %q; it reads up to %s", m, mib(cluster.MaxInputLarge))
	}
	m = regexp.MustCompile("`POST /api/v1/check\\?<permalink keys>` \\| `fitclaim check --json` for the slices in the body \\(YAML or JSON, ≤ ([0-9]+ MiB), else `413`\\)").FindStringSubmatch(flat)
	if m == nil || m[1] != mib(cluster.MaxInput) {
		t.Errorf("README.md says the API reads %q; it reads up to %s", m, mib(cluster.MaxInput))
	}
}

// README.md's example of bad slices is what the command prints for them, and its exit status.
func TestDocumentedBadSlices(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	m := regexp.MustCompile("Bad slices name the input, the object and the field \\(`([^`]+)`\\), and exit ([0-9])").FindStringSubmatch(flat)
	if m == nil {
		t.Fatal("README.md has no example of bad slices")
	}
	slices := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: resource.k8s.io/v1\n  kind: ResourceSlice\n  metadata: {name: node-a-gpu}\n" +
		"  spec:\n    driver: gpu.nvidia.com\n    nodeName: node-a\n    pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n" +
		"    devices:\n    - name: gpu-0\n      capacity:\n        memory: {value: lots}\n"
	f := t.TempDir() + "/slices.yaml"
	if err := os.WriteFile(f, []byte(slices), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI("check", "--slices", f, "Qwen/Qwen3-8B")
	if strings.TrimSpace(errOut) != m[1] || strconv.Itoa(code) != m[2] {
		t.Errorf("fitclaim check prints %q and exits %d; README.md says %q, exit %s", errOut, code, m[1], m[2])
	}
}

// fitclaim estimate's usage names every flag the command takes (estimate.Flags): each by name,
// or the architecture overrides as "the kv architecture flags" from --attention on.
func TestEstimateUsageNamesItsFlags(t *testing.T) {
	u := usage()
	start := strings.Index(u, "fitclaim estimate MODEL")
	end := strings.Index(u, "fitclaim check ")
	if start < 0 || end < start {
		t.Fatal("the usage has no estimate section before check's")
	}
	section := u[start:end]
	arch := false
	for i := range target.Fields {
		f := &target.Fields[i]
		switch f.Flag { // the architecture overrides: --attention … --experts-per-token
		case "attention":
			arch = true
		case "gpu-memory-utilization", "capacity-request":
			arch = false
		}
		if f.Flag == "" || !slices.Contains(estimate.Flags, f.Flag) {
			continue
		}
		if !strings.Contains(section, "--"+f.Flag+" ") && !strings.Contains(section, "--"+f.Flag+"]") && !(arch && strings.Contains(section, "(the kv architecture flags below)")) {
			t.Errorf("fitclaim estimate takes --%s; its usage does not say so:\n%s", f.Flag, section)
		}
	}
	for _, f := range estimate.Flags {
		if _, ok := target.ByFlag(f); !ok {
			t.Errorf("estimate.Flags names --%s, which is no field of the table", f)
		}
	}
}

// README.md describes every command the usage lists, each as "`fitclaim COMMAND": models and
// version appeared only in an example line.
func TestReadmeNamesEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  fitclaim ([a-z]+) `).FindAllStringSubmatch(usage(), -1) {
		seen[m[1]] = true
	}
	if len(seen) < 6 {
		t.Fatalf("the usage lists %d commands", len(seen))
	}
	for c := range seen {
		if !strings.Contains(string(b), "`fitclaim "+c) {
			t.Errorf("README.md does not describe fitclaim %s", c)
		}
	}
}

// docs/SPEED.md's gpt-oss-20b figures say what `fitclaim estimate` prints for each run's device
// and context: the estimates to a tenth were quoted as the command's, which prints them whole
// since speeds are printed by one rule (fit.SpeedDecimals).
func TestSpeedDocPrintedFigures(t *testing.T) {
	b, err := os.ReadFile("../../docs/SPEED.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(b)), " ")
	for _, c := range []struct {
		args  []string
		quote string
	}{
		{[]string{"--memory", "24", "--bandwidth", "273", "--family", "apple", "--unified", "--context", "179"}, "63.8 estimated at the average (printed %s)"},
		{[]string{"--on", "amd-rx-7900xt", "--context", "190"}, "131.1 at the average (printed %s)"},
		{[]string{"--on", "amd-rx-7900xt", "--context", "190", "--engine", "vllm"}, "`--engine vllm` (printed %s)"},
	} {
		out, errOut, code := runCLI(append([]string{"estimate", "openai/gpt-oss-20b", "--json"}, c.args...)...)
		var e struct{ TokensPerSecond json.Number }
		if code != 0 || json.Unmarshal([]byte(out), &e) != nil {
			t.Fatalf("%q: exit %d %q %q", c.args, code, out, errOut)
		}
		if q := fmt.Sprintf(c.quote, e.TokensPerSecond); !strings.Contains(flat, q) {
			t.Errorf("docs/SPEED.md does not say %q, what fitclaim estimate %q prints", q, c.args)
		}
	}
}
