// Command planls is the planls binary: the language server (`serve`), the MCP
// server (`mcp`), and the command line (`todo`, `approve`, `status`, `check`,
// `doctor`, `demo`, `version`).
package main

import "os"

func main() { os.Exit(run(os.Args[1:])) }
