package target

import (
	"strconv"
	"unicode/utf8"
)

// FieldError is a bad input, tied to the field it concerns so every surface (page, API, command
// line) can point at it and name it as its user knows it: Label for a person, Field (camelCase)
// for the JSON and the bridge, Key for links. Errors about no one field (an unknown key, a
// percent-encoding) have Field "query" or "target" and no Label.
type FieldError struct {
	Field string
	Key   string
	Label string
	Msg   string
}

// Error reads "Bandwidth efficiency (efficiencyPct, eff): must be a whole number from 1 to 100
// percent (got 500)".
func (e *FieldError) Error() string {
	names := e.Field
	if e.Key != "" && e.Key != e.Field {
		names += ", " + e.Key
	}
	if e.Label == "" {
		if e.Key != "" && e.Key != e.Field {
			return e.Field + " (" + e.Key + "): " + e.Msg
		}
		return e.Field + ": " + e.Msg
	}
	return e.Label + " (" + names + "): " + e.Msg
}

// NewFieldError is an error about the field named name (camelCase), or about something that is
// not a field (query, target, limit) when no field has that name.
func NewFieldError(name, msg string) *FieldError {
	if f, ok := ByName(name); ok {
		return f.Err(msg)
	}
	return &FieldError{Field: name, Msg: msg}
}

// QuoteShort quotes user text for an error message, cut to a readable length.
func QuoteShort(s string) string {
	c, cut := clip(s)
	if cut {
		return strconv.Quote(c) + "…"
	}
	return strconv.Quote(c)
}

// clip cuts user text shown back in a message to 60 bytes, at a character boundary; cut says
// whether it did.
func clip(s string) (clipped string, cut bool) {
	const max = 60
	if len(s) <= max {
		return s, false
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
