package target_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/fit" // provides the choices package fit owns (quant, kvCache, driver, family)
	"github.com/fitclaim/fitclaim/target"
)

// The issues wrote the target's spellings out: the bridge's camelCase names, the permalink and API
// keys, the command line's flags. Scripts rely on them ("a CLI flag or JSON field written in an
// issue is a contract: add, never rename"), and every other spelling is derived from this table,
// so a rename here would pass every derived test and the generated docs. These are the issues'
// words, row by row: the table may grow, never rename one of them.
func TestIssuesSpellings(t *testing.T) {
	rows := []struct {
		issue, name, key, flag string
	}{
		// issue 2 (flags) and 3 (names and keys)
		{"2, 3", "model", "m", ""}, // MODEL is positional
		{"3, 4", "paramsB", "p", "params"},
		{"2, 3", "quant", "q", "quant"},
		{"2, 3", "minTps", "tps", "min-tps"},
		{"2, 3", "efficiencyPct", "eff", "efficiency"},
		{"2, 3", "template", "tpl", "template"},
		{"2, 3", "name", "name", "name"},
		{"2, 3", "deviceClass", "dc", "device-class"},
		// issue 4
		{"4", "sizing", "s", "sizing"},
		{"4", "context", "ctx", "context"},
		{"4", "sequences", "seq", "sequences"},
		{"4", "kvCache", "kv", "kv-cache"},
		{"4", "driver", "drv", "driver"},
		{"4", "count", "n", "count"},
		{"4", "layers", "L", "layers"},
		{"4", "kvHeads", "kvh", "kv-heads"},
		{"4", "headDim", "hd", "head-dim"},
		{"4", "activeParamsB", "ap", "active-params"},
		// issue 11 (fitclaim estimate's flags; the page's hardware mode "is in the permalink and the API too")
		{"11", "on", "", "on"},
		{"11", "memoryGiB", "", "memory"},
		{"11", "bandwidthGBs", "", "bandwidth"},
		{"11", "family", "", "family"},
		{"11", "unified", "", "unified"},
		// issue 12 (fitclaim deploy)
		{"12", "engine", "", "engine"},
		{"12", "image", "", "image"},
		// issue 13 (fitclaim estimate --engine vllm)
		{"13", "gpuMemoryUtilization", "", "gpu-memory-utilization"},
		{"13", "maxNumSeqs", "", "max-num-seqs"},
		{"13", "maxNumBatchedTokens", "", "max-num-batched-tokens"},
	}
	for _, r := range rows {
		f, ok := target.ByName(r.name)
		if !ok {
			t.Errorf("issue %s: no field %s", r.issue, r.name)
			continue
		}
		if r.key != "" && f.Key != r.key {
			t.Errorf("issue %s: %s's permalink key is %q, the issue's is %q", r.issue, r.name, f.Key, r.key)
		}
		if f.Flag != r.flag {
			t.Errorf("issue %s: %s's flag is --%s, the issue's is --%s", r.issue, r.name, f.Flag, r.flag)
		}
		if r.flag != "" {
			if g, ok := target.ByFlag(r.flag); !ok || g != f {
				t.Errorf("issue %s: --%s does not read %s", r.issue, r.flag, r.name)
			}
		}
	}
	// issue 3: "`v` format version (1 now; links of older versions keep working)"
	if target.FormatKey != "v" || target.FormatVersion < 1 {
		t.Errorf("format key %q, version %d", target.FormatKey, target.FormatVersion)
	}
	if _, err := target.ParsePermalink("v=1&p=7"); err != nil {
		t.Errorf("a version-1 link: %v", err)
	}
}

// The defaults and allowed values the issues wrote: llmfit's defaults (issue 2: "llmfit's flags
// and defaults"), issue 4's modes, types and drivers, issue 11's formats and families, issue
// 12's engines.
func TestIssuesDefaultsAndChoices(t *testing.T) {
	d := target.Default()
	defaults := []struct {
		issue, name string
		got, want   any
	}{
		{"2", "minTps", d.MinTps, 20.0},
		{"2", "efficiencyPct (llmfit's 55 when absent)", d.EfficiencyPct, 0},
		{"2", "template", d.Template, false},
		{"4", "sizing", d.Sizing, "llmfit"},
		{"4", "sequences", d.Sequences, 1},
		{"4", "kvCache", d.KVCache, "fp16"},
		{"4", "driver", d.Driver, "llmfit"},
		{"4", "count", d.Count, 1},
	}
	for _, c := range defaults {
		if c.got != c.want {
			t.Errorf("issue %s: %s defaults to %v, want %v", c.issue, c.name, c.got, c.want)
		}
	}
	choices := []struct {
		issue, name string
		want        []string
	}{
		{"4", "sizing", []string{"llmfit", "kv"}},
		{"4", "kvCache", []string{"fp16", "fp8", "q8_0", "q4_0"}},
		{"4", "driver", []string{"llmfit", "nvidia", "amd", "intel", "any"}},
		{"2, 11", "quant", []string{"F32", "F16", "BF16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0", "Q3_K_M", "Q2_K", "mlx-4bit", "mlx-8bit",
			"AWQ-4bit", "GPTQ-Int4", "AWQ-8bit", "GPTQ-Int8", "FP16", "FP8", "INT8", "MXFP4", "NVFP4"}},
		{"11", "family", []string{"nvidia", "nvidia-pascal", "nvidia-unified", "amd", "apple", "intel", "other"}},
		{"12", "engine", []string{"vllm", "llama.cpp"}},
	}
	for _, c := range choices {
		f, _ := target.ByName(c.name)
		for _, w := range c.want {
			if f.Choices == nil || !slices.Contains(f.Choices(), w) {
				t.Errorf("issue %s: %s does not take %q", c.issue, c.name, w)
			}
		}
	}
	// Issue 11 § 2: "KV cache in fp16/bf16, fp8, q8_0, q4_0": bf16 (any case) is the 16-bit cache,
	// read as fp16 (2 bytes an element either way), so its link is the default's.
	for _, spelling := range []string{"bf16", "BF16", " bf16 "} {
		tg, err := target.ParsePermalink("m=x&s=kv&kv=" + strings.ReplaceAll(spelling, " ", "%20"))
		if err == nil {
			err = tg.Validate()
		}
		if err != nil || tg.KVCache != "fp16" || target.Permalink(tg) != "m=x&s=kv" {
			t.Errorf("kv=%q: %v, %q, %s", spelling, err, tg.KVCache, target.Permalink(tg))
		}
	}
	// Ranges: issue 2 "efficiency outside 1..100 or fractional" and "minTps ≤ 0, NaN or infinite"
	// are errors; issue 4 "the smallest count N ≤ 8"; issue 4's context default "capped at 8,192".
	for _, bad := range []string{"eff=0", "eff=101", "eff=55.5", "tps=0", "tps=-1", "tps=NaN", "tps=Inf", "n=0", "n=9", "p=-1", "p=NaN"} {
		tg, err := target.ParsePermalink("m=x&" + bad)
		if err == nil {
			err = tg.Validate()
		}
		if err == nil {
			t.Errorf("%s is accepted", bad)
		}
	}
	for _, good := range []string{"eff=1", "eff=100", "n=8", "tps=0.5"} {
		tg, err := target.ParsePermalink("m=x&" + good)
		if err == nil {
			err = tg.Validate()
		}
		if err != nil {
			t.Errorf("%s is refused: %v", good, err)
		}
	}
	if fit.DefaultContextCap != 8192 {
		t.Errorf("issue 4: the default context is the entry's, capped at 8,192; the cap is %d", fit.DefaultContextCap)
	}
}
