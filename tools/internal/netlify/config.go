// Package netlify reads the part of netlify.toml that a static site uses
// ([build], [[headers]], [[redirects]]) and serves a directory the way Netlify
// would with those rules. It exists so that `./build.sh serve` and the
// end-to-end tests see the same headers and rewrites as the deployed site,
// without netlify-cli (which needs the network).
package netlify

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is the subset of netlify.toml that fitclaim relies on.
type Config struct {
	Build     Build
	Headers   []HeaderRule
	Redirects []Redirect
	// Ignored lists keys present in the file that this package does not
	// understand (for example [context.*] or redirect conditions). They are
	// not errors, but a caller may want to say they have no effect locally.
	Ignored []string
}

// Build is the [build] table.
type Build struct {
	Publish string
	Command string
}

// HeaderRule is one [[headers]] entry: the headers in Values are sent for
// every path that matches For.
type HeaderRule struct {
	For    string
	Values map[string]string
	re     *regexp.Regexp
}

// Redirect is one [[redirects]] entry.
type Redirect struct {
	From   string
	To     string
	Status int // 0 in the file means 301, as on Netlify
	Force  bool
	re     *regexp.Regexp
	names  []string // placeholder names, in the order of re's groups; "splat" for '*'
}

type rawConfig struct {
	Build struct {
		Publish string `toml:"publish"`
		Command string `toml:"command"`
	} `toml:"build"`
	Headers []struct {
		For    string         `toml:"for"`
		Values map[string]any `toml:"values"`
	} `toml:"headers"`
	Redirects []struct {
		From   string `toml:"from"`
		To     string `toml:"to"`
		Status int    `toml:"status"`
		Force  bool   `toml:"force"`
	} `toml:"redirects"`
}

// Load reads and parses a netlify.toml file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Parse parses the text of a netlify.toml file.
func Parse(data []byte) (*Config, error) {
	var raw rawConfig
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		return nil, err
	}
	c := &Config{Build: Build{Publish: raw.Build.Publish, Command: raw.Build.Command}}
	for _, k := range md.Undecoded() {
		c.Ignored = append(c.Ignored, k.String())
	}
	for i, h := range raw.Headers {
		forPath := strings.TrimSpace(h.For)
		if forPath == "" {
			return nil, fmt.Errorf("headers[%d]: missing \"for\"", i)
		}
		if !strings.HasPrefix(forPath, "/") {
			return nil, fmt.Errorf("headers[%d]: \"for\" must start with '/': %q", i, forPath)
		}
		rule := HeaderRule{For: forPath, Values: map[string]string{}, re: forRegexp(forPath)}
		for name, v := range h.Values {
			key := strings.TrimSpace(name)
			if key == "" {
				return nil, fmt.Errorf("headers[%d] (%s): empty header name", i, forPath)
			}
			val, err := headerValue(v)
			if err != nil {
				return nil, fmt.Errorf("headers[%d] (%s): %s: %w", i, forPath, key, err)
			}
			rule.Values[key] = val
		}
		if len(rule.Values) == 0 {
			continue // Netlify drops rules without values
		}
		c.Headers = append(c.Headers, rule)
	}
	for i, r := range raw.Redirects {
		from, to := strings.TrimSpace(r.From), strings.TrimSpace(r.To)
		if from == "" || to == "" {
			return nil, fmt.Errorf("redirects[%d]: both \"from\" and \"to\" are required", i)
		}
		if !strings.HasPrefix(from, "/") {
			return nil, fmt.Errorf("redirects[%d]: \"from\" must be a path starting with '/': %q", i, from)
		}
		status := r.Status
		if status == 0 {
			status = http.StatusMovedPermanently
		}
		if status < 200 || status > 599 {
			return nil, fmt.Errorf("redirects[%d]: bad status %d", i, status)
		}
		re, names, err := fromRegexp(from)
		if err != nil {
			return nil, fmt.Errorf("redirects[%d]: %w", i, err)
		}
		c.Redirects = append(c.Redirects, Redirect{From: from, To: to, Status: status, Force: r.Force, re: re, names: names})
	}
	return c, nil
}

var commaSpace = regexp.MustCompile(`\s*,\s*`)

// headerValue turns a TOML header value into the header's text: a string is
// trimmed and its comma-separated parts (which may span lines in a
// multi-line string) joined with ", "; an array of strings is joined with ", ".
func headerValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return commaSpace.ReplaceAllString(strings.TrimSpace(v), ", "), nil
	case []any:
		parts := make([]string, 0, len(v))
		for _, p := range v {
			s, ok := p.(string)
			if !ok {
				return "", fmt.Errorf("array items must be strings, not %T", p)
			}
			parts = append(parts, strings.TrimSpace(s))
		}
		return strings.Join(parts, ", "), nil
	default:
		return "", fmt.Errorf("value must be a string or an array of strings, not %T", v)
	}
}

// forRegexp compiles a [[headers]] `for` path. Segments are matched
// case-insensitively; ":name" matches one segment; a segment that is just "*"
// matches any rest of the path, including nothing; a '*' inside a segment
// matches any characters (slashes included, so "/*.wasm" matches
// "/assets/x.wasm"); a trailing slash is optional.
func forRegexp(forPath string) *regexp.Regexp {
	var parts []string
	for _, seg := range strings.Split(forPath, "/") {
		seg = strings.TrimRight(seg, " \t")
		if seg == "" {
			continue
		}
		switch {
		case strings.HasPrefix(seg, ":"):
			parts = append(parts, "/[^/]+")
		case seg == "*":
			parts = append(parts, "(?:/.*)?")
		default:
			quoted := strings.Split(seg, "*")
			for i := range quoted {
				quoted[i] = regexp.QuoteMeta(quoted[i])
			}
			parts = append(parts, "/"+strings.Join(quoted, ".*"))
		}
	}
	return regexp.MustCompile(`(?i)^` + strings.Join(parts, "") + `/?$`)
}

// Matches reports whether the rule applies to a request path.
func (h HeaderRule) Matches(path string) bool {
	if h.re == nil {
		h.re = forRegexp(h.For)
	}
	return h.re.MatchString(path)
}

// HeadersFor returns the headers every matching rule sets for path. Rules
// apply in file order; when two set the same header, the later one wins.
func (c *Config) HeadersFor(path string) http.Header {
	out := http.Header{}
	for _, rule := range c.Headers {
		if !rule.Matches(path) {
			continue
		}
		keys := make([]string, 0, len(rule.Values))
		for k := range rule.Values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out.Set(k, rule.Values[k])
		}
	}
	return out
}

// fromRegexp compiles a [[redirects]] `from` path: ":name" matches one
// segment, a final "*" (the splat) matches the rest of the path, including
// nothing. Matching ignores case and a trailing slash.
func fromRegexp(from string) (*regexp.Regexp, []string, error) {
	var b strings.Builder
	var names []string
	segs := strings.Split(strings.Trim(from, "/"), "/")
	for i, seg := range segs {
		switch {
		case seg == "" && len(segs) == 1:
			// from = "/"
		case seg == "*":
			if i != len(segs)-1 {
				return nil, nil, fmt.Errorf("%q: '*' is only allowed as the last segment", from)
			}
			b.WriteString("(?:/(.*))?")
			names = append(names, "splat")
		case strings.HasPrefix(seg, ":") && len(seg) > 1:
			b.WriteString("/([^/]+)")
			names = append(names, seg[1:])
		case strings.Contains(seg, "*"):
			return nil, nil, fmt.Errorf("%q: '*' must be a whole segment", from)
		default:
			b.WriteString("/" + regexp.QuoteMeta(seg))
		}
	}
	re, err := regexp.Compile(`(?i)^` + b.String() + `/?$`)
	return re, names, err
}

// Target returns where the rule sends path (with ":splat" and ":name"
// placeholders filled in) and whether the rule matches at all.
func (r Redirect) Target(path string) (string, bool) {
	if r.re == nil {
		var err error
		if r.re, r.names, err = fromRegexp(r.From); err != nil {
			return "", false
		}
	}
	m := r.re.FindStringSubmatch(path)
	if m == nil {
		return "", false
	}
	values := map[string]string{}
	for i, name := range r.names {
		values[name] = m[i+1]
	}
	// Replace the longest names first so ":id" does not eat ":idx".
	names := append([]string(nil), r.names...)
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	to := r.To
	for _, name := range names {
		to = strings.ReplaceAll(to, ":"+name, values[name])
	}
	return to, true
}
