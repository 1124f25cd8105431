// Command gen rewrites the generated sections of the documents named on its command line (see
// package docs).
package main

import (
	"fmt"
	"os"

	"github.com/fitclaim/fitclaim/target/docs"
)

func main() {
	for _, path := range os.Args[1:] {
		old, err := os.ReadFile(path)
		if err == nil {
			var doc string
			if doc, err = docs.Update(string(old)); err == nil && doc != string(old) {
				err = os.WriteFile(path, []byte(doc), 0o644)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", path+":", err)
			os.Exit(1)
		}
	}
}
