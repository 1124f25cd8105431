package deploy

import (
	"strings"

	"github.com/fitclaim/fitclaim/target"
)

// Engines lists the accepted engine names, the default first.
func Engines() []string { return target.Engines() }

// engineOf is the target's engine, "" meaning vLLM; errors are *target.FieldError naming the
// field by its label. The table leaves the engine open (a claim does not depend on it), so the
// check is here.
func engineOf(t *target.Target) (string, error) {
	switch t.Engine {
	case "":
		return target.EngineVLLM, nil
	case target.EngineVLLM, target.EngineLlamaCpp:
		return t.Engine, nil
	}
	return "", target.NewFieldError("engine", "must be "+strings.Join(Engines(), " or ")+" (got "+target.QuoteShort(t.Engine)+")")
}

// checkImage accepts the characters of the OCI reference grammar (name, ':' tag, '@' digest),
// starting with a letter or digit. Kubernetes itself only refuses surrounding spaces; the
// narrower set keeps the reference a plain YAML scalar and a single shell word. The table
// bounds its length.
func checkImage(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			i > 0 && strings.IndexByte("._-/:@", c) >= 0
		if !ok {
			return target.NewFieldError("image", "must be a container image reference such as registry.example/vllm/vllm-openai:v0.20.0 "+
				"(letters, digits and . _ - / : @ only; got "+target.QuoteShort(s)+")")
		}
	}
	return nil
}
