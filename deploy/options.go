package deploy

import (
	"strconv"
	"strings"

	"github.com/fitclaim/fitclaim/fit"
)

// The serving engines a Deployment can run.
const (
	EngineVLLM     = "vllm"
	EngineLlamaCpp = "llama.cpp"
)

// Engines lists the accepted engine names, the default first.
func Engines() []string { return []string{EngineVLLM, EngineLlamaCpp} }

// Options are what a Deployment adds to the target: the engine and, optionally, the image that
// replaces the engine's pinned one. Their query keys are their names (OptionKeys).
//
// Until the field table (issue 9) lands they are read here, in one place, by every surface; then
// they become two rows of that table.
type Options struct {
	Engine string // "" = vllm
	Image  string // "" = the engine's pinned image for the driver
}

// OptionKeys are the query keys and flag names of the options.
var OptionKeys = []string{"engine", "image"}

// maxImageLen bounds an image reference: a registry host, a repository path and a tag or digest
// stay far below it (the distribution spec caps a repository name at 255 characters).
const maxImageLen = 512

// normalize fills the default engine and checks both options; errors are *fit.FieldError.
func (o *Options) normalize() error {
	switch strings.ToLower(o.Engine) {
	case "", EngineVLLM:
		o.Engine = EngineVLLM
	case EngineLlamaCpp, "llamacpp", "llama-cpp":
		o.Engine = EngineLlamaCpp
	default:
		return fit.NewFieldError("engine", "must be "+strings.Join(Engines(), " or ")+" (got "+strconv.Quote(clip(o.Engine))+")")
	}
	if o.Image == "" {
		return nil
	}
	if len(o.Image) > maxImageLen {
		return fit.NewFieldError("image", "must be at most "+strconv.Itoa(maxImageLen)+" characters (got "+strconv.Itoa(len(o.Image))+")")
	}
	if !isImageRef(o.Image) {
		return fit.NewFieldError("image", "must be a container image reference such as registry.example/vllm/vllm-openai:v0.20.0 "+
			"(letters, digits and . _ - / : @ only; got "+strconv.Quote(clip(o.Image))+")")
	}
	return nil
}

// isImageRef accepts the characters of the OCI reference grammar (name, ':' tag, '@' digest),
// starting with a letter or digit. Kubernetes itself only refuses surrounding spaces; the
// narrower set keeps the reference a plain YAML scalar and a single shell word.
func isImageRef(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			i > 0 && strings.IndexByte("._-/:@", c) >= 0
		if !ok {
			return false
		}
	}
	return s != ""
}

// clip shortens user text for a message.
func clip(s string) string {
	if len(s) > 60 {
		return strings.ToValidUTF8(s[:60], "") + "…"
	}
	return s
}

// SplitQuery takes the options' pairs out of a raw query string (still percent-encoded, as the
// API receives it) and returns the rest for the claim's codec, which refuses keys it does not
// know.
func SplitQuery(raw string) (rest string, o Options, err error) {
	var kept []string
	seen := map[string]bool{}
	for _, pair := range strings.Split(raw, "&") {
		rawKey, v, _ := strings.Cut(pair, "=")
		k, badKey := unescape(rawKey)
		if badKey || k != "engine" && k != "image" {
			if pair != "" {
				kept = append(kept, pair)
			}
			continue
		}
		if seen[k] {
			return "", o, fit.NewFieldError(k, "given more than once; give it once")
		}
		seen[k] = true
		value, uerr := unescape(v)
		if uerr {
			return "", o, fit.NewFieldError(k, "invalid percent-encoding in "+strconv.Quote(clip(pair)))
		}
		if k == "engine" {
			o.Engine = value
		} else {
			o.Image = value
		}
	}
	return strings.Join(kept, "&"), o, nil
}

// unescape is query unescaping ('+' is a space); bad reports a malformed escape.
func unescape(s string) (out string, bad bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b.WriteByte(' ')
		case '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				return "", true
			}
			b.WriteByte(byte(unhex(s[i+1])<<4 | unhex(s[i+2])))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Query spells the options as query pairs to append to a target's query ("&engine=llama.cpp"),
// only those that differ from the defaults; an image's '/', ':' and '@' are percent-encoded as
// net/url's QueryEscape does.
func (o Options) Query() string {
	q := ""
	if o.Engine != "" && o.Engine != EngineVLLM {
		q += "&engine=" + o.Engine
	}
	if o.Image != "" {
		q += "&image=" + strings.NewReplacer("/", "%2F", ":", "%3A", "@", "%40").Replace(o.Image)
	}
	return q
}
