package claim

import (
	"reflect"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// TestRenderOneFormat: RenderYAML and RenderJSON give Render's bytes and Render's errors, and
// RenderClaim then AddMatches Render's whole Result.
func TestRenderOneFormat(t *testing.T) {
	kv := target.Default()
	kv.Model, kv.Sizing, kv.Context, kv.Sequences, kv.Driver, kv.Count = "Qwen/Qwen2.5-7B-Instruct", "kv", 32768, 4, "nvidia", 2
	custom := target.Default()
	custom.ParamsB, custom.Template, custom.Name = 70, true, "my-claim"
	llmfit := target.Default()
	llmfit.Model = "meta-llama/Llama-3.1-8B-Instruct"
	badName, badClass := custom, custom
	badName.Name, badClass.DeviceClass = "Bad", "Not_A_Class"
	for name, tg := range map[string]target.Target{
		"llmfit": llmfit, "kv on 2 nvidia": kv, "custom template": custom,
		"bad name": badName, "bad device class": badClass, "no model": {},
	} {
		want, wantErr := Render(tg)
		y, yErr := RenderYAML(tg)
		j, jErr := RenderJSON(tg)
		c, cErr := RenderClaim(tg)
		if wantErr != nil {
			if yErr == nil || jErr == nil || cErr == nil || yErr.Error() != wantErr.Error() || jErr.Error() != wantErr.Error() || cErr.Error() != wantErr.Error() {
				t.Errorf("%s: errors %v, %v, %v; Render's %v", name, yErr, jErr, cErr, wantErr)
			}
			continue
		}
		if yErr != nil || jErr != nil || cErr != nil {
			t.Fatalf("%s: %v, %v, %v", name, yErr, jErr, cErr)
		}
		if c.YAML != want.YAML || c.JSON != want.JSON || c.Matches != nil || c.Warnings != nil {
			t.Errorf("%s: RenderClaim's claim differs from Render's, or it has matches already", name)
		}
		if AddMatches(&c); !reflect.DeepEqual(c, want) {
			t.Errorf("%s: RenderClaim then AddMatches differs from Render", name)
		}
		if y != want.YAML || j != want.JSON {
			t.Errorf("%s: RenderYAML or RenderJSON differs from Render", name)
		}
	}
}
