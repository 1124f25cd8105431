//go:build tools

// Package tools pins, as direct requirements of this module, libraries that
// code in this module (tools/e2e) builds on even before it imports them:
// chromedp v0.14.2 is the version wasmbrowsertest v0.11.0 is known to work
// with against Debian's Chromium. The build tag keeps this file out of every
// build; wasmbrowsertest itself is pinned by the tool directive in go.mod.
package tools

import _ "github.com/chromedp/chromedp"
