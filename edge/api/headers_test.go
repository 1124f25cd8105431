package api

import (
	"net/textproto"
	"testing"
)

// TestHeaderNamesCanonical: serve sets these names into the header map directly, so each must
// be its own canonical form, the key Header.Set would have used.
func TestHeaderNamesCanonical(t *testing.T) {
	for _, name := range []string{hAllowOrigin, hNoSniff, hETag, hCacheControl, hExposeHeaders, hContentType, hContentLength} {
		if c := textproto.CanonicalMIMEHeaderKey(name); c != name {
			t.Errorf("header name %q is not canonical (%q)", name, c)
		}
	}
}
