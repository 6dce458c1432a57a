package main

import (
	"fmt"
	"os"
)

// run is replaced by the cobra root command (owned by the CLI work).
func run(args []string) int {
	_ = newServeCmd
	_ = newMCPCmd
	_ = newDemoCmd
	fmt.Fprintln(os.Stderr, "planls: not implemented")
	return 2
}
