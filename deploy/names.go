package deploy

import "strings"

// maxLabel is a DNS-1123 label's length limit, which a Service name and label values share.
const maxLabel = 63

// workloadName is the Deployment's and the Service's name, derived from the claim's: a Service
// name must be a DNS-1035 label (at most 63 characters, letters, digits and '-', starting with a
// letter), stricter than the claim's DNS-1123 subdomain, so dots become '-', the name is cut to
// 63 characters and a leading digit gets an "m-" prefix. The same string is the pods' label, and
// a valid label value.
func workloadName(claimName string) string {
	s := strings.ReplaceAll(claimName, ".", "-")
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		s = "m-" + s
	}
	if len(s) > maxLabel {
		s = s[:maxLabel]
	}
	return strings.TrimRight(s, "-")
}
