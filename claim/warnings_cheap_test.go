package claim

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/fitclaim/fitclaim/catalog"
	"github.com/fitclaim/fitclaim/target"
)

// TestWarningsWithoutMatches: Warnings (what the API answers, which judges the matches only when
// nothing fits) are Render's warnings, word for word and in order, and RenderYAMLResult and
// RenderJSONResult carry them with Render's bytes; fit's AnySelectableFits is "some match is
// selectable and fits". Over every 61st catalog model under each driver, both sizings, one and
// two devices, and speeds from the default to ones nothing meets (so the split proposal and
// "even 8 of them" are both among them).
func TestWarningsWithoutMatches(t *testing.T) {
	models := catalog.Names()
	var links []string
	for i := 0; i < len(models); i += 61 {
		for _, drv := range []string{"llmfit", "nvidia", "amd", "any"} {
			for _, rest := range []string{"", "&tps=200", "&s=kv&ctx=8192", "&s=kv&tps=150&n=2&kv=fp8", "&s=kv&engine=vllm&ctx=1000000", "&tps=100000"} {
				links = append(links, "m="+url.QueryEscape(models[i])+"&drv="+drv+rest)
			}
		}
	}
	links = append(links, "m=deepseek-ai%2FDeepSeek-R1&s=kv&drv=amd", "p=405", "p=70&drv=any")
	var split, none, fits, warned int
	for _, link := range links {
		tg, err := target.ParsePermalink(link)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Render(tg)
		if err != nil {
			continue // a driver that selects nothing for this model: its error is RenderClaim's, tested elsewhere
		}
		if got := Warnings(&want.Bounds, want.Name); !reflect.DeepEqual(got, want.Warnings) {
			t.Errorf("%s: Warnings\n%q, Render's\n%q", link, got, want.Warnings)
		}
		y, err := RenderYAMLResult(tg)
		if err != nil || y.YAML != want.YAML || !reflect.DeepEqual(y.Warnings, want.Warnings) || y.JSON != "" || y.Matches != nil {
			t.Errorf("%s: RenderYAMLResult differs from Render (%v)", link, err)
		}
		j, err := RenderJSONResult(tg)
		if err != nil || j.JSON != want.JSON || !reflect.DeepEqual(j.Warnings, want.Warnings) || j.YAML != "" || j.Matches != nil {
			t.Errorf("%s: RenderJSONResult differs from Render (%v)", link, err)
		}
		any := false
		for i := range want.Matches {
			if want.Matches[i].Selectable && want.Matches[i].Fits() {
				any = true
			}
		}
		if got := want.Bounds.AnySelectableFits(); got != any {
			t.Errorf("%s: AnySelectableFits %v, the matches say %v", link, got, any)
		}
		if _, ok := SplitProposal(want.Matches); ok {
			split++
		} else if any {
			fits++
		} else {
			none++
		}
		if len(want.Warnings) > 0 {
			warned++
		}
	}
	t.Logf("%d targets: %d fit, %d with a split proposal, %d that nothing fits; %d with warnings", fits+split+none, fits, split, none, warned)
	if split == 0 || none == 0 || fits == 0 {
		t.Errorf("the targets miss a case: %d fit, %d split, %d none", fits, split, none)
	}
}
