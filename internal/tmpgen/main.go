package main

import (
	"os"

	"github.com/planls/planls/internal/plangen"
)

func main() { os.Stdout.Write(plangen.Generate(1000, 1)) }
