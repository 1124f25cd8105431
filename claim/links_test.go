package claim

import (
	"errors"
	"testing"

	"github.com/fitclaim/fitclaim/target"
)

// A parsed link renders, or fails with a FieldError: never anything else.
func TestParsedLinksRender(t *testing.T) {
	for _, s := range []string{
		"m=NousResearch%2FLlama-2-7b-chat-hf&tps=30&eff=60",
		"m=Qwen%2FQwen3-30B-A3B-Instruct-2507&s=kv&ctx=32768&drv=nvidia",
		"p=405&drv=nvidia",
		"p=405&drv=nvidia&n=2&tpl=1",
		"p=100&ap=10&L=48&kvh=8&hd=128&s=kv&seq=8&kv=q4_0&drv=any&n=4",
		"m=llama-2-7b-chat",
		"p=7&name=Bad_Name",
		"p=7&dc=UPPER",
		"p=7&s=kv&ctx=0",
	} {
		tg, err := target.ParsePermalink(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		r, err := Render(tg)
		var fe *target.FieldError
		if err != nil && !errors.As(err, &fe) {
			t.Errorf("%s: %v is not a FieldError", s, err)
		}
		if err == nil {
			parseYAML(t, r.YAML)
		}
	}
}
