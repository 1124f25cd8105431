package main

import (
	"fmt"

	"github.com/fitclaim/fitclaim/target"
)

// readerOf names the one command that reads a field, for the fields only one command reads
// (the device of estimate; the container image, trust-remote-code and requests of deploy: the
// table's Deploy column); "" = every claim-writing command.
func readerOf(f *target.Field) string {
	switch {
	case f.Device:
		return "estimate"
	case f.Deploy:
		return "deploy"
	}
	return ""
}

// commandArgs reads the claim arguments of command, refusing the flags only another command
// reads.
func commandArgs(command string, args []string) (claimArgs, error) {
	c, err := parseClaimArgs(args)
	if err == nil {
		err = refuseForeignFlags(command, c)
	}
	return c, err
}

// refuseForeignFlags refuses, rather than ignores, a flag that only another command reads:
// `claim --image` or `claim --on nvidia-l4` would otherwise write a claim that silently is not
// what was asked. A --permalink may carry every key: the page's link holds its whole form.
func refuseForeignFlags(command string, c claimArgs) error {
	for i := range target.Fields {
		f := &target.Fields[i]
		if _, given := c.values[f.Key]; !given || f.Flag == "" {
			continue
		}
		if r := readerOf(f); r != "" && r != command {
			return fmt.Errorf("--%s: only fitclaim %s reads it", f.Flag, r)
		}
	}
	return nil
}
