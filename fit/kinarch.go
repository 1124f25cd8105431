package fit

import "github.com/fitclaim/fitclaim/catalog"

// archKin is the entry of data/architectures.csv whose facts a catalog entry shares: its own row.
func archKin(m *catalog.Model) *catalog.Model {
	if m.Arch.Known() {
		return m
	}
	return nil
}
