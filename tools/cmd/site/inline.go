package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fitclaim/fitclaim/tools/internal/netlify"
)

// A page's script written into the page itself: web/index.html says
// <script src="boot.js" data-inline></script>, and the built page has boot.js's text in that
// element, so the head's first script neither waits for a download nor blocks the parser while
// one arrives (issue 10 §2: the engine's compile started ~145 ms after its preload was asked for,
// behind two blocking scripts fetched in turn). The page's policy allows exactly that text: its
// 'sha256-…' goes into the Content-Security-Policy of the page's <meta> here, and must be in
// netlify.toml's too (the header and the <meta> are both enforced), which the build checks;
// there is no 'unsafe-inline'.
var inlineTag = regexp.MustCompile(`<script src="([A-Za-z0-9._-]+\.js)" data-inline></script>`)

// inlineNames lists the scripts a page writes into itself (they are not hashed assets).
func inlineNames(page []byte) []string {
	var out []string
	for _, m := range inlineTag.FindAllSubmatch(page, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// scriptHash is the CSP source that allows an inline script whose text is exactly b.
func scriptHash(b []byte) string {
	sum := sha256.Sum256(b)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// inlineScripts writes each data-inline script of page (read from web) into it, adds each one's
// hash to the script-src of the page's <meta> policy, and checks that the policy netlify.toml
// (config; "" when there is none) sends with the page allows them too. A script written in may
// name no hashed asset: the name would change its text, so its hash, with every build.
func (s *site) inlineScripts(page []byte, web string, extra map[string]string, config string) ([]byte, error) {
	var hashes []string
	var failed error
	out := inlineTag.ReplaceAllFunc(page, func(tag []byte) []byte {
		name := string(inlineTag.FindSubmatch(tag)[1])
		path := filepath.Join(web, name)
		if p, ok := extra[name]; ok {
			path = p
		}
		b, err := os.ReadFile(path)
		// In a script element, "</script" ends it, and "<!--" with "<script" changes how the
		// parser reads on (the "double escaped" state).
		if lower := strings.ToLower(string(b)); err == nil && (strings.Contains(lower, "</script") || strings.Contains(lower, "<!--") || strings.Contains(lower, "<script")) {
			err = fmt.Errorf("%s: contains </script, <script or <!--, so it cannot be written into the page as it is", name)
		}
		if err == nil && string(s.rewrite(b)) != string(b) {
			err = fmt.Errorf("%s: names a hashed asset, so it cannot be written into the page (its hash would change with every build)", name)
		}
		if err != nil {
			failed = err
			return tag
		}
		hashes = append(hashes, scriptHash(b))
		return append(append([]byte("<script>"), b...), "</script>"...)
	})
	if failed != nil {
		return nil, failed
	}
	if len(hashes) == 0 {
		return page, nil
	}
	meta := regexp.MustCompile(`(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src 'self')`)
	if len(meta.FindAll(out, -1)) != 1 {
		return nil, fmt.Errorf("index.html: want one <meta> Content-Security-Policy with script-src 'self' for the inline scripts' hashes")
	}
	out = meta.ReplaceAll(out, []byte("${1} "+strings.Join(hashes, " ")))
	if config == "" {
		return out, nil
	}
	cfg, err := netlify.Load(config)
	if err != nil {
		return nil, err
	}
	for _, path := range []string{"/", "/index.html"} {
		csp := cfg.HeadersFor(path).Get("Content-Security-Policy")
		for _, h := range hashes {
			if csp != "" && !strings.Contains(csp, h) {
				return nil, fmt.Errorf("%s: the Content-Security-Policy for %s does not allow the page's inline script: add %s to its script-src (after 'self'), and drop the hash of the script's old text", config, path, h)
			}
		}
	}
	return out, nil
}
