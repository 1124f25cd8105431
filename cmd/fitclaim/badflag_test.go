package main

import (
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/edge/api"
	"github.com/fitclaim/fitclaim/estimate"
	"github.com/fitclaim/fitclaim/target"
)

// badValues are values each kind of field refuses, by its own rule.
var badValues = map[target.Kind][]string{
	target.KindNumber:  {"abc", "-1", "1e308", "0x10", "NaN", "1_000", "5abc"},
	target.KindInteger: {"abc", "1.5", "-3", "99999999999", "0x10", "1e10", "Inf"},
	target.KindString:  {"no such value", "\x00", "\xff\xfe"},
	target.KindBool:    {"maybe", "2", "-1", "\x00"},
}

// TestBadFlagNamesTheFlag: a bad value given with a flag is refused on the command line with
// the flag the user typed ("Target decode speed (--min-tps): …"; it was "(minTps, tps)", the
// page's and the API's names, in claim, deploy and check; a switch's, --template=maybe, was
// "--template takes no value (or =true, =false)"), and the same value given to the API
// with the same words after the field's names (its key, as the API's user typed it); through
// --permalink the command line names the key too.
func TestBadFlagNamesTheFlag(t *testing.T) {
	checked := 0
	for i := range target.Fields {
		f := &target.Fields[i]
		for _, v := range badValues[f.Kind()] {
			if f.Flag == "" {
				continue
			}
			if refused := checkFlagAgreesWithAPI(t, f, v); !refused && !f.Open {
				t.Errorf("--%s %q: accepted", f.Flag, v) // an open field's text the engine may take as it is
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d cases checked", checked)
	}
}

// FuzzFlagAgreesWithAPI: any value of any flag is refused by the command line exactly when the
// API refuses it for the same key, with the same words after the field's names.
func FuzzFlagAgreesWithAPI(f *testing.F) {
	values := []string{"", " ", "0", "-0", "1", "+5", "1e3", "1.0", "1.5", "-1", "NaN", "Inf", "1e308", "1e-400", "2147483648",
		"0x10", "010", "1_000", "5abc", "٣", "\x00", "\xff\xfe", "true", "kv", "nvidia", "llama.cpp", "Q4_K_M", "fp8", "my-claim",
		"Bad_Name", "qualified", "nvidia-h100-sxm", "a b", strings.Repeat("x", 600), strings.Repeat("模", 301)}
	for i := range target.Fields {
		for j, v := range values {
			if (i+j)%3 == 0 {
				f.Add(uint8(i), v)
			}
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, v string) {
		fl := &target.Fields[int(i)%len(target.Fields)]
		if fl.Flag == "" || v == "-h" || v == "--help" {
			return // the model is positional; -h anywhere asks for the usage
		}
		checkFlagAgreesWithAPI(t, fl, v)
	})
}

// checkFlagAgreesWithAPI gives f the value v with its flag, on the command that reads it (with
// a model, or a device, to make the rest valid), and with its key to the matching API route,
// and checks that both refuse it or neither, in the same words; it reports whether they did.
func checkFlagAgreesWithAPI(t *testing.T, f *target.Field, v string) (refused bool) {
	t.Helper()
	command, route, base := "claim", "claim.json", "m=Qwen%2FQwen3-8B&s=kv"
	switch {
	case f.Device || slices.Contains(estimate.Flags, f.Flag) && readerOf(f) == "estimate":
		command, route, base = "estimate", "estimate.json", "m=Qwen%2FQwen3-8B&memory=80&bandwidth=1000&family=nvidia"
	case readerOf(f) == "deploy":
		command, route, base = "deploy", "deploy.yaml", "m=Qwen%2FQwen3-8B"
	}
	if f.Key == "on" {
		base = "m=Qwen%2FQwen3-8B"
	}
	if f.Key == "p" || f.Key == "ap" {
		base = strings.Replace(base, "m=Qwen%2FQwen3-8B", "p=70", 1)
	}
	vals, err := url.ParseQuery(base)
	if err != nil {
		t.Fatal(err)
	}
	vals.Del(f.Key)
	q := vals.Encode() + "&" + f.Key + "=" + url.QueryEscape(v)
	args := []string{command}
	for k, vs := range vals {
		if k == "m" {
			args = append(args, vs[0])
			continue
		}
		g, _ := target.ByKey(k)
		args = append(args, "--"+g.Flag, vs[0])
	}
	if f.Kind() == target.KindBool {
		args = append(args, "--"+f.Flag+"="+v) // a switch's value is given with '='
	} else {
		args = append(args, "--"+f.Flag, v)
	}
	_, cli, code := runCLI(args...)
	w := httptest.NewRecorder()
	api.Handler().ServeHTTP(w, httptest.NewRequest("GET", api.Prefix+route+"?"+q, nil))
	apiMsg := strings.TrimSuffix(w.Body.String(), "\n")
	switch {
	case code == 0 && w.Code == 200:
		return false
	case code != exitError || w.Code != 400:
		t.Fatalf("%s --%s %q: exit %d %q; API %s?%s: %d %q", command, f.Flag, v, code, cli, route, q, w.Code, apiMsg)
	}
	names := f.Label + " (" + f.Name + ", " + f.Key + "): "
	if f.Key == f.Name {
		names = f.Label + " (" + f.Name + "): "
	}
	msg, ok := strings.CutPrefix(apiMsg, names)
	if !ok {
		// Another field's error (a value that makes the rest invalid: --params 1e-400 is none, so
		// the model is missing): the same error, each naming it as its user knows it.
		if !utf8.ValidString(cli) || !strings.HasPrefix(cli, "fitclaim "+command+": ") {
			t.Fatalf("%s --%s %q: %q; API %q", command, f.Flag, v, cli, apiMsg)
		}
		return true
	}
	if want := "fitclaim " + command + ": " + f.Label + " (--" + f.Flag + "): " + otherFlags().Replace(msg) + "\n"; cli != want {
		t.Fatalf("%s --%s %q:\n got %q\nwant %q", command, f.Flag, v, cli, want)
	}
	if command == "claim" {
		_, viaLink, _ := runCLI(command, "--permalink", q)
		if want := "fitclaim " + command + ": " + apiMsg + "\n"; viaLink != want {
			t.Fatalf("%s --permalink %q:\n got %q\nwant %q", command, q, viaLink, want)
		}
	}
	return true
}

// A refusal on the command line names every field by its flag, the other fields it points to
// included: "describes a custom model (paramsB)" gave the JSON name, with no label for the
// rewrite to find.
func TestRefusalsNameNoJSONName(t *testing.T) {
	for _, args := range [][]string{
		{"claim"}, {"claim", "nosuchzzz"}, {"claim", "Qwen/Qwen3-8B", "--active-params", "3"},
		{"claim", "--params", "7", "--sizing", "kv", "--attention", "mla"},
		{"claim", "--params", "7", "--layers", "32"},
		{"claim", "Qwen/Qwen3-8B", "--capacity-name", "qualified"},
		{"estimate", "Qwen/Qwen3-8B"}, {"estimate", "Qwen/Qwen3-8B", "--on", "nvidia-t4", "--memory", "16"},
		{"deploy", "Qwen/Qwen3-8B", "--engine", "llama.cpp", "--gpu-memory-utilization", "0.8"},
	} {
		_, errOut, code := runCLI(args...)
		if code != exitError {
			t.Errorf("%q: exit %d %q", args, code, errOut)
		}
		for i := range target.Fields {
			f := &target.Fields[i]
			if f.Flag != "" && strings.ToLower(f.Name) != f.Name && strings.Contains(errOut, f.Name) {
				t.Errorf("%q: %q names %s, the JSON name of --%s", args, errOut, f.Name, f.Flag)
			}
		}
	}
	// The fields a refusal points to, by their flags: it named them by label alone.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"claim", "--params", "7", "--layers", "32"}, "fitclaim claim: KV heads (--kv-heads): Layers (--layers), KV heads (--kv-heads) and Head dimension (--head-dim) go together: give all three or none\n"},
		{[]string{"deploy", "Qwen/Qwen3-8B", "--engine", "llama.cpp", "--max-num-seqs", "8"}, "fitclaim deploy: vLLM max sequences (--max-num-seqs): is vLLM's argument: set Serving engine (--engine) to vllm, or leave it out\n"},
	} {
		if _, errOut, _ := runCLI(c.args...); errOut != c.want {
			t.Errorf("%q: %q, want %q", c.args, errOut, c.want)
		}
	}
}
