package deploy

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// Any link either fails with a field error or gives three documents whose claim is claim's
// template, whose args are one quoted line each, and where nothing user-given starts a line.
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"m=Qwen%2FQwen3-8B", "m=Qwen%2FQwen3-8B&engine=llama.cpp&image=a%2Fb%3Ac", "m=qwen&s=kv&n=8&drv=any",
		"m=Qwen%2FQwen3-8B&image=%0Akind%3A+Secret", "m=Qwen%2FQwen3-8B&name=a.b.c&engine=VLLM", "p=7",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, link string) {
		tg, err := target.ParsePermalink(link)
		if err != nil {
			return
		}
		r, err := Render(tg)
		if err != nil {
			var fe *target.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("%q: %T %v, want a *target.FieldError", link, err, err)
			}
			return
		}
		docs := strings.Split(r.YAML, "\n---\n")
		if len(docs) != 3 || docs[0]+"\n" != r.Claim.YAML {
			t.Fatalf("%q: %d documents, or the first is not the claim", link, len(docs))
		}
		tpl, err := ClaimTarget(tg)
		if err != nil {
			t.Fatalf("%q: Render took a target ClaimTarget refuses: %v", link, err)
		}
		c, err := claim.Render(tpl)
		if err != nil || c.YAML != r.Claim.YAML {
			t.Fatalf("%q: the claim differs from claim's template (%v)", link, err)
		}
		args, inArgs := 0, false
		for _, l := range strings.Split(docs[1], "\n") {
			if strings.HasPrefix(l, "          ") && !strings.HasPrefix(l, "            ") {
				inArgs = l == "          args:" // the container's fields, at 10 spaces
			}
			if inArgs && strings.HasPrefix(l, "            - \"") {
				args++
			}
			if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, " ") && !strings.HasSuffix(l, ":") &&
				!strings.HasPrefix(l, "apiVersion: ") && !strings.HasPrefix(l, "kind: ") {
				t.Fatalf("%q: unexpected top-level line %q", link, l)
			}
		}
		if args != len(r.Args) {
			t.Fatalf("%q: %d arg lines for %d args", link, args, len(r.Args))
		}
	})
}
