package target

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Form is the shape a text field's value must have besides its length (the table's MaxLen):
// a Kubernetes name, a container image. Validate does not check it: the package that uses the
// value does, with CheckForm (package claim: the claim's name and its device class; package
// deploy: the image), so a command that does not use the value takes it as it always did
// (estimate --name, claim --image). RepairLink checks every field's, for the page, which shows
// the claim and the Deployment from one link: a bad name there dropped the whole link.
type Form uint8

const (
	FormText      Form = iota // any text within MaxLen
	FormSubdomain             // a DNS-1123 subdomain, as Kubernetes names objects and DeviceClasses
	FormImage                 // a container image reference
	FormQuantity              // a Kubernetes resource quantity above 0 (8, 500m, 64Gi)
)

// CheckForm checks the field's value against its Form; the zero value ("": derived) passes,
// as does every field without a Form.
func (f *Field) CheckForm(t *Target) error {
	if f.Form == FormText || f.str == nil {
		return nil
	}
	s := *f.str(t)
	if s == "" {
		return nil
	}
	switch f.Form {
	case FormSubdomain:
		return f.checkSubdomain(s)
	case FormImage:
		return f.checkImage(s)
	case FormQuantity:
		return f.checkQuantity(s)
	}
	return nil
}

// checkSubdomain validates a DNS-1123 subdomain (≤ 253 characters of lower-case letters,
// digits, '-' and '.', each dot-separated part starting and ending with a letter or digit),
// exactly as Kubernetes' IsDNS1123Subdomain applies it to object and DeviceClass names: unlike
// RFC 1123 it sets no 63-character limit on a part, so neither does fitclaim.
func (f *Field) checkSubdomain(s string) error {
	const maxSubdomain = 253
	// Characters, as the message says: Kubernetes counts bytes, but a name of any other byte than
	// ASCII letters, digits, '-' and '.' is refused below anyway (150 of "é" are 300 bytes and
	// were "at most 253 characters (got 300)"; they are not a subdomain at all).
	if n := utf8.RuneCountInString(s); n > maxSubdomain {
		return f.Err("must be at most 253 characters (got " + strconv.Itoa(n) + ")")
	}
	for _, part := range strings.Split(s, ".") {
		if !isLabelChars(part) {
			return f.Err("must be a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', " +
				"starting and ending with a letter or digit, at most 253 characters (got " + QuoteShort(s) + ")")
		}
	}
	return nil
}

// isLabel reports whether s is a DNS-1123 label (at most 63 characters).
func isLabel(s string) bool { return len(s) <= 63 && isLabelChars(s) }

// isLabelChars reports whether s is made like a DNS-1123 label, whatever its length: letters
// and digits, with '-' inside.
func isLabelChars(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// checkImage accepts the characters of the OCI reference grammar (name, ':' tag, '@' digest),
// starting with a letter or digit. Kubernetes itself only refuses surrounding spaces; the
// narrower set keeps the reference a plain YAML scalar and a single shell word. The table
// bounds its length.
func (f *Field) checkImage(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			i > 0 && strings.IndexByte("._-/:@", c) >= 0
		if !ok {
			return f.Err("must be a container image reference such as registry.example/vllm/vllm-openai:v0.20.0 " +
				"(letters, digits and . _ - / : @ only; got " + QuoteShort(s) + ")")
		}
	}
	return nil
}

// quantitySuffixes are the suffixes of Kubernetes' quantity grammar (k8s.io/apimachinery's
// resource.Quantity) a request is written with: the binary (Ki … Ei) and decimal (m, k … E) ones.
// Its exponent form (1e3) and the nano and micro suffixes are not taken: no request needs them.
var quantitySuffixes = []string{"", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// checkQuantity accepts a Kubernetes quantity a resource request is written with: digits, an
// optional fraction, and one of quantitySuffixes, above 0 (a request of 0 is none). Every value it
// accepts, Kubernetes' ParseQuantity reads and its validation of a container's requests passes
// (conformance checks both).
func (f *Field) checkQuantity(s string) error {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	digits := i > 0
	nonZero := strings.Trim(s[:i], "0") != ""
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		digits = digits && j > i+1
		nonZero = nonZero || strings.Trim(s[i+1:j], "0") != ""
		i = j
	}
	bad := func(why string) error {
		return f.Err("must be " + why + " Kubernetes quantity such as 8, 500m or 64Gi (digits, an optional fraction, then " +
			"m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei or none; got " + QuoteShort(s) + ")")
	}
	if !digits || !slices.Contains(quantitySuffixes, s[i:]) {
		return bad("a")
	}
	if !nonZero {
		return bad("more than 0 (leave it out for no request), a")
	}
	return nil
}
