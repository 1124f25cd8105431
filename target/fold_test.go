package target_test

import (
	"net/url"
	"strings"
	"testing"
	"unicode"

	_ "github.com/fitclaim/fitclaim/fit" // the choices fit owns (quant, kvCache, driver, family, attention)
	"github.com/fitclaim/fitclaim/target"
)

// One rule for a choice's case, the table's: every field whose choices cannot collide by case
// reads them in any case (s=KV, drv=NVIDIA, att=GQA, engine=VLLM, capn=Qualified, as kv=FP8 and
// q=q4_k_m were read) and writes the choice's own spelling back into the link. Before, sizing,
// driver, attention, engine and capacityName refused another case while kvCache and family
// took it (a per-field Fold flag).
func TestChoicesFoldCase(t *testing.T) {
	swap := func(s string) string { // "kv" → "KV", "Q4_K_M" → "q4_k_m", "mlx-4bit" → "MLX-4BIT"
		return strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, s)
	}
	folding := 0
	for i := range target.Fields {
		f := &target.Fields[i]
		if f.Choices == nil {
			continue
		}
		if !f.FoldsCase() {
			t.Errorf("%s: its choices %v collide by case", f.Name, f.Choices())
			continue
		}
		folding++
		for _, c := range f.Choices() {
			for _, spelled := range []string{swap(c), strings.ToUpper(c), strings.ToLower(c)} {
				base := "m=x&s=kv&cap=1"
				if f.Key == "s" || f.Key == "cap" {
					base = "m=x&s=kv"
				}
				if f.Key == "s" {
					base = "m=x"
				}
				tg, err := target.ParsePermalink(base + "&" + f.Key + "=" + url.QueryEscape(spelled))
				if err == nil {
					err = tg.Validate()
				}
				if err != nil || f.Get(&tg) != c {
					t.Errorf("%s=%s: %v, read as %q; want the choice %q", f.Key, spelled, err, f.Get(&tg), c)
					continue
				}
				if link := target.Permalink(tg); strings.Contains(link, f.Key+"="+url.QueryEscape(spelled)) && spelled != c {
					t.Errorf("%s=%s: the link writes it back as given: %s", f.Key, spelled, link)
				}
			}
		}
	}
	if folding != 8 {
		t.Errorf("%d choice fields fold case; want the 8 of the table (quant, sizing, kvCache, driver, family, engine, attention, capacityName)", folding)
	}
	// Choices that differ only by case are read as spelled: a fold could not say which is meant.
	f := target.Field{Name: "x", Key: "x", MaxLen: 8, Choices: func() []string { return []string{"a", "A", "b"} }}
	if f.FoldsCase() || f.Canonical("B") != "B" || f.Canonical("a") != "a" {
		t.Errorf("choices a, A, b: FoldsCase %v, B read as %q", f.FoldsCase(), f.Canonical("B"))
	}
}
