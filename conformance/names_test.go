package conformance

import (
	"errors"
	"strings"
	"testing"

	"github.com/fitclaim/fitclaim/claim"
	"github.com/fitclaim/fitclaim/target"
)

// fitclaim's checks of a name override and a device class override against
// the official validator: whatever fitclaim renders must pass it (never a
// name pasted unchecked), and what it refuses the validator must refuse too.
func TestOverridesAgreeWithValidator(t *testing.T) {
	long63 := strings.Repeat("a", 63)
	names := []string{
		"a", "0", "a-b", "a.b", "a-b.c-d", "llmfit.ai", "x1.y2.z3", "1.2.3",
		long63, long63 + "b", strings.Repeat("a", 100),
		strings.Repeat("ab.", 84)[:251], strings.Repeat("a", 253), strings.Repeat("a", 254),
		long63 + "." + long63 + "." + long63 + "." + strings.Repeat("c", 61),
		"-a", "a-", ".a", "a.", "a..b", "A", "aB", "a_b", "a b", " a", "a\n", "a/b", "é", "a:b", "-fit", "*",
	}
	for _, field := range []string{"name", "deviceClass"} {
		for _, n := range names {
			tg := target.Default()
			tg.Model = "Qwen/Qwen2.5-7B-Instruct"
			if field == "name" {
				tg.Name = n
			} else {
				tg.DeviceClass = n
			}
			r, renderErr := claim.Render(tg)
			var valErr error
			var yaml string
			if renderErr == nil {
				yaml = r.YAML
			} else {
				// What the validator says about the same manifest with this value.
				tg.Name, tg.DeviceClass = "", ""
				base, err := claim.Render(tg)
				if err != nil {
					t.Fatal(err)
				}
				yaml = base.YAML
				if field == "name" {
					yaml = strings.Replace(yaml, "name: "+base.Name+"\n", "name: "+quoteYAML(n)+"\n", 1)
				} else {
					yaml = strings.Replace(yaml, "deviceClassName: llmfit.ai\n", "deviceClassName: "+quoteYAML(n)+"\n", 1)
				}
			}
			m, valErr := DecodeAndValidate([]byte(yaml))
			if valErr == nil && renderErr == nil {
				if field == "name" && m.Name() != n || field == "deviceClass" && m.Spec().Devices.Requests[0].Exactly.DeviceClassName != n {
					t.Errorf("%s %q: the manifest says otherwise", field, n)
				}
			}
			short := n
			if len(short) > 40 {
				short = short[:20] + "…" + short[len(short)-10:]
			}
			switch {
			case renderErr == nil && valErr != nil:
				t.Errorf("%s %q (%d chars): rendered, but the validator refuses it: %v", field, short, len(n), valErr)
			case renderErr != nil && valErr == nil:
				t.Errorf("%s %q (%d chars): refused (%v), but the validator accepts it", field, short, len(n), renderErr)
			case renderErr != nil && !namesField(renderErr, field):
				t.Errorf("%s %q: the error does not name the field: %v", field, short, renderErr)
			}
		}
	}
}

// namesField reports whether err is the field error of field, as every surface shows it: the
// field's label first, then its JSON name and key in parentheses.
func namesField(err error, field string) bool {
	var fe *target.FieldError
	return errors.As(err, &fe) && fe.Field == field && strings.Contains(err.Error(), "("+field)
}

// quoteYAML writes s as a double-quoted YAML scalar.
func quoteYAML(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
