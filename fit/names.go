package fit

import "strings"

// namesOf lists the names of a table's rows in the table's order (the drivers, engines, serving
// formats, KV-cache types and device families each list theirs).
func namesOf[T any](rows []T, name func(*T) string) []string {
	out := make([]string, len(rows))
	for i := range rows {
		out[i] = name(&rows[i])
	}
	return out
}

// rowFold is the table's row whose name equals name ignoring case.
func rowFold[T any](rows []T, name string, nameOf func(*T) string) (*T, bool) {
	for i := range rows {
		if strings.EqualFold(nameOf(&rows[i]), name) {
			return &rows[i], true
		}
	}
	return nil, false
}
