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

// checkDeployFields checks the Form of every field only the Deployment reads (the table's Deploy
// column: the image's characters of the OCI reference grammar, the requests' Kubernetes
// quantities; target.Field.CheckForm), which the page's link repair checks too; the table bounds
// their length.
func checkDeployFields(t *target.Target) error {
	for _, f := range deployRows() {
		if err := f.CheckForm(t); err != nil {
			return err
		}
	}
	return nil
}

var deployRows = sync.OnceValue(func() []*target.Field {
	var rows []*target.Field
	for i := range target.Fields {
		if f := &target.Fields[i]; f.Deploy {
			rows = append(rows, f)
		}
	}
	if len(rows) == 0 {
		panic("deploy: no field of the Deployment in the table")
	}
	return rows
})
