package main

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/edge/api"
)

// The JSON is exactly the contract's keys: tokensPerSecond only when it fits, reason only when
// it does not; both verdicts exit 0.
func TestEstimateJSONContract(t *testing.T) {
	cases := []struct {
		args []string
		fits bool
		keys []string
	}{
		{[]string{"--params", "8", "--layers", "32", "--kv-heads", "8", "--head-dim", "128", "--memory", "24", "--bandwidth", "1000", "--family", "nvidia"},
			true, []string{"fits", "maxContextTokens", "maxSequences", "needGiB", "tokensPerSecond", "usableGiB"}},
		{[]string{"--params", "70", "--memory", "24", "--bandwidth", "1000", "--family", "nvidia"},
			false, []string{"fits", "maxContextTokens", "maxSequences", "needGiB", "reason", "usableGiB"}},
		{[]string{"NousResearch/Llama-2-7b-chat-hf", "--on", "nvidia-t4", "--context", "2048"},
			true, []string{"fits", "maxContextTokens", "maxSequences", "needGiB", "tokensPerSecond", "usableGiB"}},
	}
	for _, c := range cases {
		out, errOut, code := runCLI(append([]string{"estimate", "--json"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", c.args, code, errOut)
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%v: %v in %q", c.args, err, out)
		}
		var keys []string
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, c.keys) || obj["fits"] != c.fits {
			t.Errorf("%v: %s", c.args, out)
		}
	}
}

// The figures of fit's hand-computed case, rounded as the contract prints them:
// need 6.5344 → 6.53 GiB, 106.06 → 106 tok/s (whole at 10 and above: fit.SpeedDecimals), 151,270 tokens, 18 sequences.
func TestEstimateJSONFigures(t *testing.T) {
	out, errOut, code := runCLI("estimate", "--params", "8", "--layers", "32", "--kv-heads", "8", "--head-dim", "128",
		"--memory", "24", "--bandwidth", "1000", "--family", "nvidia", "--json")
	want := `{"fits":true,"needGiB":6.53,"usableGiB":24,"tokensPerSecond":106,"maxContextTokens":151270,"maxSequences":18}` + "\n"
	if code != 0 || out != want {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
}

// Bad input exits non-zero and names the field by its label, its flag and the allowed range.
func TestEstimateBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--params", "8", "--memory", "24", "--bandwidth", "1000", "--family", "tpu"}, exitError, []string{"Device family (--family)", "nvidia-pascal", "tpu"}},
		{[]string{"--params", "8", "--memory", "0", "--bandwidth", "1000", "--family", "amd"}, exitError, []string{"Device memory (--memory)", "greater than 0"}},
		{[]string{"--params", "8", "--memory", "24", "--bandwidth", "-5", "--family", "amd"}, exitError, []string{"Device bandwidth (--bandwidth)", "greater than 0"}},
		{[]string{"--params", "8", "--active-params", "9", "--on", "nvidia-t4"}, exitError, []string{"Active parameters (--active-params)", "at most"}},
		{[]string{"--params", "8", "--count", "9", "--on", "nvidia-t4"}, exitError, []string{"Devices (--count)", "1 to 8"}},
		{[]string{"--params", "8", "--context", "-1", "--on", "nvidia-t4"}, exitError, []string{"Context (--context)", "1 to"}},
		// The other device fields by their flags, as the user types them: the words were the
		// link keys ("choose a catalog device (on), or give its memory, bandwidth and family").
		{[]string{"--params", "8"}, exitError, []string{"Device (--on): choose a catalog Device (--on), or give Device memory (--memory), Device bandwidth (--bandwidth) and Device family (--family)\n"}},
		{[]string{"--params", "8", "--on", "nvidia-t4", "--memory", "16"}, exitError, []string{"Device (--on): names a catalog device; give either it or Device memory (--memory), Device bandwidth (--bandwidth), Device family (--family) and Unified memory (--unified), not both\n"}},
		// A family left out is missing, as a memory or bandwidth left out: it was `(got "")`.
		{[]string{"--params", "8", "--memory", "24", "--bandwidth", "1000"}, exitError, []string{"Device family (--family): missing: give one of nvidia, nvidia-pascal, nvidia-unified, amd, apple, intel, other\n"}},
		// A flag of another command says which reads it: it was "unknown flag --min-tps".
		{[]string{"--params", "8", "--on", "nvidia-t4", "--min-tps", "3"}, exitUsage, []string{"fitclaim estimate: --min-tps: only fitclaim claim, deploy and check read it; estimate sizes the model on the device given\n"}},
		{[]string{"--params", "8", "--on", "nvidia-t4", "--image", "x"}, exitUsage, []string{"fitclaim estimate: --image: only fitclaim deploy reads it; estimate sizes the model on the device given\n"}},
		{[]string{"--params", "8", "--on"}, exitUsage, []string{"--on needs a value"}},
	} {
		out, errOut, code := runCLI(append([]string{"estimate"}, c.args...)...)
		if code != c.code || out != "" {
			t.Errorf("%v: exit %d (want %d), stdout %q", c.args, code, c.code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: message %q lacks %q", c.args, errOut, w)
			}
		}
	}
}

func TestEstimateText(t *testing.T) {
	out, _, code := runCLI("estimate", "--params", "70", "--memory", "24", "--bandwidth", "1000", "--family", "nvidia")
	if code != 0 || !strings.Contains(out, "does not fit: needs ") {
		t.Errorf("exit %d: %s", code, out)
	}
	out, _, code = runCLI("estimate", "--params", "8", "--on", "nvidia-rtx-4090", "--unified=false")
	if code != 0 || !strings.Contains(out, "fits: needs ") || !strings.Contains(out, "tokens/s per sequence") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// The help is whole: every placeholder of the usage text is filled in.
func TestUsageFilledIn(t *testing.T) {
	out, _, code := runCLI("estimate", "--help")
	if code != 0 || !strings.Contains(out, "--memory GiB") || !strings.Contains(out, "--min-tps N") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, p := range []string{"TARGETFLAGS", "FAMILIES", "QUANTS"} {
		if strings.Contains(out, p) {
			t.Errorf("the usage text still says %s", p)
		}
	}
}

// A script may pass the training data's own columns: --unified=1 and a device class name.
func TestEstimateDataSpellings(t *testing.T) {
	want, _, code := runCLI("estimate", "--params", "8", "--memory", "64", "--bandwidth", "400", "--family", "apple", "--unified", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	got, errOut, code := runCLI("estimate", "--params", "8", "--memory", "64", "--bandwidth", "400", "--family", "apple_unified", "--unified=1", "--json")
	if code != 0 || got != want {
		t.Errorf("exit %d: %s%s, want %s", code, got, errOut, want)
	}
}

// Of several flags estimate does not read, the message named one at random (a map's order):
// it names the first in the field table's order, every time.
func TestEstimateUnknownFlagsNamedInOrder(t *testing.T) {
	for range 20 {
		_, errOut, code := runCLI("estimate", "Qwen/Qwen3-8B", "--on", "nvidia-h100-sxm",
			"--driver", "nvidia", "--sizing", "kv", "--efficiency", "50", "--min-tps", "3")
		if code != exitUsage || !strings.Contains(errOut, "--min-tps: only fitclaim claim, deploy and check read it") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
	}
}

// The API's estimate.json and the page's hardware mode read the architecture's overrides (att,
// sw, sl, fal, csal, hcal, klr, qkr, ne, nept); fitclaim estimate refused their flags ("unknown
// flag --sliding-window"), so a link's estimate could not be asked on the command line.
func TestEstimateTakesTheAPIsArchitectureKeys(t *testing.T) {
	for _, c := range []struct {
		flags []string
		query string
	}{
		{[]string{"Qwen/Qwen3-8B", "--sliding-window", "1024", "--sliding-layers", "30"}, "m=Qwen%2FQwen3-8B&sw=1024&sl=30"},
		{[]string{"Qwen/Qwen3-8B", "--attention", "hybrid", "--full-attention-layers", "9"}, "m=Qwen%2FQwen3-8B&att=hybrid&fal=9"},
		{[]string{"--params", "70", "--layers", "61", "--attention", "mla", "--kv-lora-rank", "512", "--qk-rope-head-dim", "64"},
			"p=70&L=61&att=mla&klr=512&qkr=64"},
		{[]string{"--params", "30", "--active-params", "3", "--layers", "48", "--kv-heads", "4", "--head-dim", "128",
			"--experts", "128", "--experts-per-token", "8"}, "p=30&ap=3&L=48&kvh=4&hd=128&ne=128&nept=8"},
	} {
		out, errOut, code := runCLI(append([]string{"estimate", "--on", "nvidia-h100-sxm", "--json"}, c.flags...)...)
		w := httptest.NewRecorder()
		api.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/estimate.json?on=nvidia-h100-sxm&"+c.query, nil))
		if code != 0 || w.Code != 200 || strings.TrimSpace(out) != strings.TrimSpace(w.Body.String()) {
			t.Errorf("%q: exit %d %q\n got %s\nwant %s (%d)", c.flags, code, errOut, out, w.Body.String(), w.Code)
		}
	}
}

// claim, deploy and check take --permalink; estimate refused it ("unknown flag --permalink"), so
// the page's hardware mode and an estimate.json link could not be asked on the command line.
func TestEstimatePermalink(t *testing.T) {
	const q = "m=Qwen%2FQwen3-8B&on=nvidia-h100-sxm&sw=1024&sl=30"
	w := httptest.NewRecorder()
	api.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/estimate.json?"+q, nil))
	for _, link := range []string{"https://fitclaim.example/#" + q, "https://fitclaim.example/api/v1/estimate.json?" + q, q} {
		out, errOut, code := runCLI("estimate", "--json", "--permalink", link)
		if code != 0 || w.Code != 200 || strings.TrimSpace(out) != strings.TrimSpace(w.Body.String()) {
			t.Errorf("%s: exit %d %q\n got %s\nwant %s", link, code, errOut, out, w.Body.String())
		}
	}
	if _, errOut, code := runCLI("estimate", "--permalink", q, "--on", "nvidia-t4"); code != exitUsage || !strings.Contains(errOut, "--permalink carries the whole target") {
		t.Errorf("--permalink with --on: exit %d %q", code, errOut)
	}
}

// The API answers a command's query with the command's bytes, the last newline included, and
// every JSON answer ends in one: claim.json, estimate.json and fitting.json ended at the closing
// brace (models and version, and the command line, with a newline), so `curl URL` left the
// prompt on the brace and `curl URL | cmp - <(fitclaim … --json)` differed by that byte.
func TestAPIBytesAreTheCommandLines(t *testing.T) {
	get := func(path string) string {
		w := httptest.NewRecorder()
		api.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 200 {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
		return w.Body.String()
	}
	for _, c := range []struct {
		args []string
		path string
	}{
		{[]string{"claim", "Qwen/Qwen3-8B", "--json"}, "claim.json?m=Qwen%2FQwen3-8B"},
		{[]string{"claim", "Qwen/Qwen3-8B", "--json", "--sizing", "kv", "--driver", "any", "--count", "2"}, "claim.json?m=Qwen%2FQwen3-8B&s=kv&drv=any&n=2"},
		{[]string{"claim", "Qwen/Qwen3-8B", "--sizing", "kv"}, "claim.yaml?m=Qwen%2FQwen3-8B&s=kv"},
		{[]string{"deploy", "Qwen/Qwen3-8B", "--driver", "nvidia"}, "deploy.yaml?m=Qwen%2FQwen3-8B&drv=nvidia"},
		{[]string{"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-h100-sxm", "--json"}, "estimate.json?m=Qwen%2FQwen3-8B&on=nvidia-h100-sxm"},
		{[]string{"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-t4", "--quant", "BF16", "--json"}, "estimate.json?m=Qwen%2FQwen3-8B&on=nvidia-t4&q=BF16"},
	} {
		out, errOut, code := runCLI(c.args...)
		if body := get("/api/v1/" + c.path); code != 0 || body != out {
			t.Errorf("fitclaim %q (exit %d, %q) and GET %s differ:\n%q\n%q", c.args, code, errOut, c.path, out, body)
		}
	}
	for _, path := range []string{"claim.json?m=Qwen%2FQwen3-8B", "estimate.json?m=Qwen%2FQwen3-8B&on=nvidia-t4", "fitting.json?on=nvidia-t4&limit=2", "models?q=qwen&limit=2", "version"} {
		if body := get("/api/v1/" + path); !strings.HasSuffix(body, "\n") || !json.Valid([]byte(body)) {
			t.Errorf("GET %s: %q does not end in a newline or is no JSON", path, body[max(0, len(body)-20):])
		}
	}
}
