package claim

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// The vLLM-refused example (sixteenth session): `kubectl apply -f <claim.yaml URL>` and a
// reviewer of the committed YAML saw no warning; the KV-aware header now ends with it, as
// WriteComment wraps a "warning: " entry, just before apiVersion.
func TestHeaderWarningVLLMRefused(t *testing.T) {
	r, err := Render(mustParse(t, "m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# memory: ≥ 55,567 Mi (54.26 Gi) = ceil(15.26 GiB weights + 27.47 GiB KV cache +\n" +
		"#         11.54 GiB for vLLM V1 engine v0.11–v0.20: 5.61 activation peak + 0.11\n" +
		"#         non-torch + 5.38 outside --gpu-memory-utilization 0.9 (vLLM's CUDA\n" +
		"#         graphs, ≤ 1.12) + 0.44 the driver keeps = 55,566.02 MiB)\n" +
		"# warning: vLLM refuses --max-model-len 200000, above the model's 40960 tokens\n" +
		"#         (max_position_embeddings in its config.json): set context to at most\n" +
		"#         40960 (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 overrides it only where the\n" +
		"#         model card extends the context, e.g. with YaRN RoPE scaling)\n" +
		"apiVersion: resource.k8s.io/v1\n"
	if len(r.Warnings) != 1 || !strings.Contains(r.YAML, want) {
		t.Errorf("warnings %q; YAML\n%s\nwant it to hold\n%s", r.Warnings, r.YAML, want)
	}
}

// TestHeaderCarriesWarnings: a KV-aware claim's YAML is the YAML without warnings with each of
// Render's warnings (Result.Warnings: the list the JSON and the API's Warning headers read), in
// order, as a "warning: " entry wrapped at 80 columns, between the header's other entries and
// apiVersion; a claim without warnings keeps its bytes, and llmfit sizing's YAML (llmfit's, byte
// for byte) says none of its warnings. RenderClaim and RenderYAML write the same bytes.
func TestHeaderCarriesWarnings(t *testing.T) {
	models := catalog.Names()
	links := []string{
		"m=Qwen%2FQwen3-8B&tps=30&s=kv&ctx=200000&engine=vllm", "m=qwen3-8b&s=kv", "m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=amd",
		"p=70&s=kv&drv=any", "p=7&s=kv&tps=100000", "m=unsloth%2Fgpt-oss-20b-GGUF",
	}
	for i := 0; i < len(models); i += 97 {
		for _, rest := range []string{"&drv=nvidia", "&s=kv&drv=amd&tps=150&n=2", "&s=kv&engine=vllm&ctx=1000000", "&s=kv&drv=any&tps=100000&tpl=1"} {
			links = append(links, "m="+url.QueryEscape(models[i])+rest)
		}
	}
	var kvWarned, kvQuiet, llmfitWarned int
	for _, link := range links {
		tg := mustParse(t, link)
		r, err := Render(tg)
		if err != nil {
			continue
		}
		quiet := renderYAML(&r.Bounds, r.Name, Version, nil)
		want := quiet
		if tg.Sizing == target.SizingKV {
			var entries strings.Builder
			for _, w := range r.Warnings {
				WriteComment(&entries, "warning: "+w)
			}
			want = strings.Replace(quiet, "\napiVersion:", "\n"+entries.String()+"apiVersion:", 1)
			if len(r.Warnings) > 0 {
				kvWarned++
			} else {
				kvQuiet++
			}
		} else if len(r.Warnings) > 0 {
			llmfitWarned++
		}
		if r.YAML != want {
			t.Errorf("%s: warnings %q; YAML\n%s\nwant\n%s", link, r.Warnings, r.YAML, want)
			continue
		}
		for i, l := range strings.Split(r.YAML, "\n") {
			if !strings.HasPrefix(l, "#") {
				break
			}
			if strings.HasPrefix(l, "# warning:") && tg.Sizing != target.SizingKV {
				t.Errorf("%s: llmfit sizing's header says %q", link, l)
			}
			if llmfits := tg.Sizing == target.SizingLlmfit; i > 0 && !llmfits && utf8.RuneCountInString(l) > 80 {
				t.Errorf("%s: header line %d is %d columns:\n%s", link, i, utf8.RuneCountInString(l), l)
			}
		}
		c, err := RenderClaim(tg)
		if err != nil || c.YAML != r.YAML {
			t.Errorf("%s: RenderClaim's YAML differs from Render's (%v)", link, err)
		}
		if y, err := RenderYAML(tg); err != nil || y != r.YAML {
			t.Errorf("%s: RenderYAML differs from Render's (%v)", link, err)
		}
	}
	t.Logf("%d targets: %d KV-aware with warnings, %d without; %d llmfit-sized with warnings", len(links), kvWarned, kvQuiet, llmfitWarned)
	if kvWarned < 5 || kvQuiet == 0 || llmfitWarned == 0 {
		t.Errorf("the targets miss a case: %d KV-aware with warnings, %d without, %d llmfit-sized with warnings", kvWarned, kvQuiet, llmfitWarned)
	}
}
