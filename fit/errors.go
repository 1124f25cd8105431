// Package fit is the physics of fitclaim: a Target (model, quantization, speed) in, the Bounds a
// device must meet out, and which accelerators meet them. It is pure Go and knows nothing of
// YAML, CEL or the browser.
package fit

// FieldError is a bad input, tied to the field it concerns so every surface (page, API, command
// line) can point at it. Field is the camelCase name used by the JSON and the bridge; Key is the
// short permalink and query key.
type FieldError struct {
	Field string
	Key   string
	Msg   string
}

func (e *FieldError) Error() string {
	if e.Key != "" && e.Key != e.Field {
		return e.Field + " (" + e.Key + "): " + e.Msg
	}
	return e.Field + ": " + e.Msg
}

// Keys maps each Target field's camelCase name to its short permalink key. It is the one table
// of names; the query codec in package claim reads it.
var Keys = map[string]string{
	"model": "m", "paramsB": "p", "quant": "q", "minTps": "tps", "efficiencyPct": "eff",
	"template": "tpl", "name": "name", "deviceClass": "dc",
	"sizing": "s", "context": "ctx", "sequences": "seq", "kvCache": "kv", "driver": "drv",
	"count": "n", "layers": "L", "kvHeads": "kvh", "headDim": "hd", "activeParamsB": "ap",
}

// fieldErr builds the FieldError for a field, filling in its short key.
func fieldErr(field, msg string) *FieldError {
	return &FieldError{Field: field, Key: Keys[field], Msg: msg}
}

// NewFieldError is fieldErr for other packages (the codec and the name rules in claim).
func NewFieldError(field, msg string) *FieldError { return fieldErr(field, msg) }
