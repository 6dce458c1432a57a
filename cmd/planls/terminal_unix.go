//go:build !windows

package main

// terminalName is the controlling terminal, where verify --run asks.
const terminalName = "/dev/tty"
