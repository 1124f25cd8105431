package cluster

import "strings"

// Label keys and values as the API server validates them (k8s.io/apimachinery's
// IsQualifiedName and IsValidLabelValue): a node selector's or a pod's that breaks these never
// reaches the scheduler, and k8s' nodeaffinity cannot parse it (a term it cannot parse selects
// no node), so they are refused when read rather than matched differently.

// labelValueRule says what a label value may be, for messages.
const labelValueRule = "a label value: at most 63 letters, digits, '-', '_' or '.', beginning and ending with a letter or digit"

// labelKeyRule says what a label key may be, for messages.
const labelKeyRule = "a label key: an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.', beginning and ending with a letter or digit"

// isLabelValue: empty, or a name part of at most 63 characters.
func isLabelValue(v string) bool { return v == "" || isNamePart(v) }

// isLabelKey: [prefix/]name, the prefix a DNS subdomain (lower-case) of at most 253 characters.
func isLabelKey(k string) bool {
	prefix, name, hasPrefix := strings.Cut(k, "/")
	if !hasPrefix {
		return isNamePart(k)
	}
	return isDNSSubdomain(prefix) && isNamePart(name)
}

// isNamePart: 1-63 characters of [A-Za-z0-9_.-], beginning and ending alphanumeric.
func isNamePart(s string) bool {
	if len(s) == 0 || len(s) > 63 || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNSSubdomain: at most 253 characters, dot-separated labels of [a-z0-9-], each beginning and
// ending with [a-z0-9].
func isDNSSubdomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) == 0 || !isLowerAlnum(label[0]) || !isLowerAlnum(label[len(label)-1]) {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isLowerAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

func isAlnum(c byte) bool      { return isLowerAlnum(c) || ('A' <= c && c <= 'Z') }
func isLowerAlnum(c byte) bool { return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') }
