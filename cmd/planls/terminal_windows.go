//go:build windows

package main

// terminalName is the console, where verify --run asks.
const terminalName = "CONIN$"
