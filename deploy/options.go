package deploy

import (
	"strings"
	"sync"

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

// checkImage is the image's Form in the table (target.Field.CheckForm: the characters of the
// OCI reference grammar), which the page's link repair checks too; the table bounds its length.
func checkImage(t *target.Target) error {
	return imageRow().CheckForm(t)
}

var imageRow = sync.OnceValue(func() *target.Field {
	f, ok := target.ByName("image")
	if !ok {
		panic("deploy: no field image")
	}
	return f
})
