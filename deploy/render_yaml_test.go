package deploy

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// TestRenderYAMLIsRender: RenderYAML, which skips the JSON, the warnings and (unless the vLLM
// plan reads them on NVIDIA's driver) the matches, gives Render's YAML and Render's error for
// every driver, engine, sizing and device count over a spread of catalog models, and for the
// targets whose plans read the matches (BF16 on the NVIDIA allow-list, an older board in it);
// RenderYAMLWarnings gives the same YAML and Render's Warnings() (the API's deploy.yaml headers).
func TestRenderYAMLIsRender(t *testing.T) {
	links := []string{
		"m=Qwen%2FQwen3-0.6B&q=BF16&s=kv&ctx=2048&drv=nvidia",
		"m=Qwen%2FQwen3-0.6B&q=F16&s=kv&ctx=2048&drv=nvidia",
		"m=Qwen%2FQwen2.5-7B-Instruct&s=kv&ctx=16384&engine=vllm",
		"m=Qwen%2FQwen3-8B&s=kv&kv=q8_0&drv=nvidia",
		"m=Qwen%2FQwen3-8B&tps=100000",
		"p=7",
	}
	models := catalog.Names()
	for i := 0; i < len(models); i += 97 {
		for _, drv := range []string{"llmfit", "nvidia", "amd", "intel", "any"} {
			for _, rest := range []string{"", "&s=kv&ctx=8192&seq=4", "&s=kv&n=2&kv=fp8"} {
				links = append(links, "m="+url.QueryEscape(models[i])+"&drv="+drv+rest)
			}
		}
	}
	checked := 0
	for _, link := range links {
		for _, engine := range []string{"", target.EngineVLLM, target.EngineLlamaCpp} {
			tg := mustTarget(t, link)
			tg.Engine = engine
			full, errFull := Render(tg)
			yaml, errYAML := RenderYAML(tg)
			yaml2, warnings, errWarned := RenderYAMLWarnings(tg)
			if (errWarned == nil) != (errYAML == nil) || yaml2 != yaml || errFull == nil && !reflect.DeepEqual(warnings, full.Warnings()) {
				t.Errorf("%s engine %q: RenderYAMLWarnings differs from Render: %q, Render's %q (%v)", link, engine, warnings, full.Warnings(), errWarned)
			}
			switch {
			case (errFull == nil) != (errYAML == nil) || errFull != nil && errFull.Error() != errYAML.Error():
				t.Errorf("%s engine %q: Render's error %v, RenderYAML's %v", link, engine, errFull, errYAML)
			case yaml != full.YAML:
				t.Errorf("%s engine %q: RenderYAML differs from Render's YAML", link, engine)
			}
			checked++
		}
	}
	t.Logf("%d targets", checked)
}
