package target

import "strconv"

// The length of a list of catalog models (the models search and the fitting list): not a field
// of the Target, but read alike by the API (text), the bridge (a JS number) and the command
// line. MaxListLimit is catalog.MaxSearchResults, catalog.Search's own cap (TestListLimitIsSearchCap).
const (
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// ListLimitError is the error about a list limit out of range, the value spelled got.
func ListLimitError(got string) *FieldError {
	return &FieldError{Field: "limit", Msg: "must be a whole number from 1 to " + strconv.Itoa(MaxListLimit) + " (got " + got + ")"}
}
