package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/planls/planls/store"
)

// planlsBin is the real binary, built once by TestMain for the tests and
// benchmarks that run many processes (concurrency, kill -9, process cost).
var planlsBin string

// buildFirst builds the binary before any test runs.
type buildFirst struct{ m *testing.M }

func (b buildFirst) Run() int {
	dir, err := os.MkdirTemp("", "planls-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	planlsBin = filepath.Join(dir, "planls")
	// go test puts its own toolchain first in PATH. Built as the README
	// builds it: static (CGO_ENABLED=0), so the process benchmarks measure
	// the binary users run.
	build := exec.Command("go", "build", "-o", planlsBin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build planls:", err)
		return 2
	}
	return b.m.Run()
}

func TestMain(m *testing.M) {
	testscript.Main(buildFirst{m}, map[string]func(){
		"planls": func() { os.Exit(run(os.Args[1:])) },
		// planls-holdlock ROOT SIGNALFILE: holds the state lock (actor
		// test-holder) until killed, after creating SIGNALFILE.
		"planls-holdlock": func() {
			release, err := store.Open(os.Args[1], "test-holder").Lock(context.Background())
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
			defer release()
			if err := os.WriteFile(os.Args[2], []byte("locked\n"), 0o644); err != nil {
				os.Exit(3)
			}
			time.Sleep(time.Minute)
		},
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		// PLANLS_UPDATE_SCRIPTS=1 rewrites the files `cmp` compares with.
		UpdateScripts: os.Getenv("PLANLS_UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			// Scripts name places and zones exactly: no inherited root,
			// lock timeout or zone.
			env.Setenv("PLANLS_ROOT", "")
			env.Setenv("PLANLS_LOCK_TIMEOUT", "")
			env.Setenv("TZ", "UTC")
			// The project id of $WORK as a root, for scripts that pass it.
			env.Setenv("WORK_PROJECT_ID", store.ProjectID(env.WorkDir))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"hexfile":  cmdHexfile,
			"waitfile": cmdWaitfile,
			"age":      cmdAge,
			"exitcode": cmdExitcode,
		},
	})
}

// hexfile PATH HEX...: writes the bytes (for BOMs and UTF-16 that txtar
// cannot hold readably).
func cmdHexfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: hexfile path hex...")
	}
	b, err := hex.DecodeString(strings.Join(args[1:], ""))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b, 0o644))
}

// waitfile PATH: waits up to 30 s for PATH to exist.
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile path")
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
	}
	ts.Fatalf("%s never appeared", args[0])
}

// age PATH DURATION: sets PATH's times DURATION into the past.
func cmdAge(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: age path duration")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	old := time.Now().Add(-d)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), old, old))
}

// exitcode N PROG ARGS...: runs PROG like exec and requires exit status N
// exactly (0, 1 and 2 mean different things to scripts); stdout and stderr
// are kept for the next stdout/stderr checks.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog args...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
