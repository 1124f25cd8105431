package target

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// Kubernetes' own pattern (k8s.io/apimachinery/pkg/util/validation), written out independently.
var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func TestIsLabelAgainstKubernetesPattern(t *testing.T) {
	for _, s := range []string{"", "a", "-", "a-", "-a", "a-b", "A", "a.b", strings.Repeat("z", 63), strings.Repeat("z", 64), "9", "a--b", "ä"} {
		if got, want := isLabel(s), len(s) <= 63 && dns1123Label.MatchString(s); got != want {
			t.Errorf("isLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

// A link's claim name, device class or image of the wrong form is dropped like any other bad
// pair, with the message the command line and the API give for it, and the rest of the link is
// kept (before, Validate passed it, and the page's render refused the whole claim for it).
func TestRepairLinkDropsBadForms(t *testing.T) {
	const subdomain = "must be a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters (got "
	const image = "must be a container image reference such as registry.example/vllm/vllm-openai:v0.20.0 (letters, digits and . _ - / : @ only; got "
	for _, c := range []struct {
		link, keep, pair, msg string
	}{
		{"p=7&name=💩", "p=7", "name=💩", "Claim name (name): " + subdomain + `"💩")`},
		{"p=7&name=%F0%9F%92%A9", "p=7", "name=💩", "Claim name (name): " + subdomain + `"💩")`},
		{"m=Qwen%2FQwen3-8B&name=Bad_Name!", "m=Qwen%2FQwen3-8B", "name=Bad_Name!", "Claim name (name): " + subdomain + `"Bad_Name!")`},
		{"m=x&name=a.&tps=30&n=2", "m=x&tps=30&n=2", "name=a.", "Claim name (name): " + subdomain + `"a.")`},
		{"m=x&dc=GPU.nvidia.com&seq=2", "m=x&seq=2", "dc=GPU.nvidia.com", "Device class (deviceClass, dc): " + subdomain + `"GPU.nvidia.com")`},
		{"m=x&image=a%20b&engine=llama.cpp", "m=x&engine=llama.cpp", "image=a b", "Container image (image): " + image + `"a b")`},
		{"m=x&image=-x", "m=x", "image=-x", "Container image (image): " + image + `"-x")`},
		// Too long: the table's own limit, one message.
		{"m=x&image=" + strings.Repeat("a", 600), "m=x", "image=" + strings.Repeat("a", 600), "Container image (image): must be at most 512 characters (got 600)"},
		// No model yet: the name is still dropped, the page asks for a model.
		{"name=Bad", "", "name=Bad", "Claim name (name): " + subdomain + `"Bad")`},
	} {
		r := RepairLink(c.link)
		if got := Permalink(r.Target); got != c.keep {
			t.Errorf("%s: kept %q, want %q", c.link, got, c.keep)
		}
		if len(r.Dropped) != 1 {
			t.Errorf("%s: dropped %d pairs, want 1: %s", c.link, len(r.Dropped), r.Message())
			continue
		}
		if d := r.Dropped[0]; d.Pair != c.pair || d.Err.Error() != c.msg {
			t.Errorf("%s: dropped %q: %q\n want %q: %q", c.link, d.Pair, d.Err.Error(), c.pair, c.msg)
		}
		if !strings.HasPrefix(r.Message(), "This link has a part that could not be used; the rest of it was kept.\n") {
			t.Errorf("%s: message %q", c.link, r.Message())
		}
	}
	// Good names, classes and images are kept.
	good := "m=x&name=my-claim.v1&dc=gpu.example.com&image=" + url.QueryEscape("registry.example/vllm/vllm-openai:v0.20.0")
	if r := RepairLink(good); len(r.Dropped) != 0 || r.Target.Name != "my-claim.v1" || r.Target.DeviceClass != "gpu.example.com" ||
		r.Target.Image != "registry.example/vllm/vllm-openai:v0.20.0" {
		t.Errorf("good forms: %+v %s", r.Target, r.Message())
	}
}

// Validate leaves a value's form to the package that uses it: a command that does not use the
// name or the image takes them as before (fitclaim estimate --name Bad_Name).
func TestValidateLeavesForms(t *testing.T) {
	tg := Default()
	tg.Model, tg.Name, tg.DeviceClass, tg.Image = "x", "Bad_Name", "GPU", "a b"
	if err := tg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	for _, name := range []string{"name", "deviceClass", "image"} {
		f, _ := ByName(name)
		if f.CheckForm(&tg) == nil {
			t.Errorf("%s: CheckForm passed %q", name, f.Get(&tg))
		}
	}
}

// A name's length is counted in characters, as its message says: 150 of "é" (300 bytes) are
// refused for what they are made of, 300 of them for their length, counted as 300.
func TestSubdomainCountsCharacters(t *testing.T) {
	f, ok := ByName("name")
	if !ok {
		t.Fatal("no name field")
	}
	for _, c := range []struct {
		n    int
		want string
	}{
		{150, "must be a DNS-1123 subdomain"},
		{300, "must be at most 253 characters (got 300)"},
	} {
		tg := Default()
		tg.Name = strings.Repeat("é", c.n)
		err := f.CheckForm(&tg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d of é: %v, want %q", c.n, err, c.want)
		}
	}
	tg := Default()
	tg.Name = strings.Repeat("a", 254)
	if err := f.CheckForm(&tg); err == nil || !strings.Contains(err.Error(), "at most 253 characters (got 254)") {
		t.Errorf("254 ASCII: %v", err)
	}
}
