package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// fsWatcher watches, with fsnotify, the directories that hold each folder's
// plan files and state file: never the files themselves, whose inode an
// editor's rename-over save replaces. Until .planls/ exists its
// parent is watched, and the watch is re-armed when it appears.
//
// When the client watches files for us it still watches each .planls/:
// clients that accept the registration (eglot 1.9, coc.nvim) never report
// state.json replaced by rename nor files in a dot-directory, and those are
// exactly how the CLI and agents change the state. The plan files are then
// left to the client. An event seen twice (ours and the client's) costs
// nothing: both restart one debounce, and a re-read of unchanged bytes
// publishes nothing (readState compares hashes, which also skips our own
// writes).
type fsWatcher struct {
	w    *fsnotify.Watcher
	s    *server
	dirs map[string]bool // guarded by server.mu
}

// startFSWatch starts fsnotify, or re-syncs it when it runs: over every
// watched directory, or only the state directories while s.clientFS (caller
// holds s.mu). Nothing starts once the session is shut down; the loop is a
// group goroutine, which a stopped group refuses. Failure to start is logged: the server still works, it
// only misses outside writers.
func (s *server) startFSWatch() {
	if s.opts.noFSWatch || s.phase() == shutDown {
		return
	}
	if s.watcher != nil {
		s.watcher.sync(s)
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.log.Warn("fsnotify unavailable; outside changes are not seen", "err", err)
		return
	}
	fw := &fsWatcher{w: w, s: s, dirs: map[string]bool{}}
	if !s.grp.goFn(fw.loop) {
		_ = w.Close()
		return
	}
	s.watcher = fw
	fw.sync(s)
}

// sync adds and removes directory watches to match the folders and
// settings (caller holds s.mu). It returns the directories newly watched:
// files created in them before the watch existed were never reported.
func (fw *fsWatcher) sync(s *server) []string {
	want := map[string]bool{}
	for _, f := range s.folders {
		want[existingAncestor(filepath.Join(f.root, ".planls"), f.root)] = true
		// What moves HEAD (background.go): never left to the client, which
		// does not watch inside .git.
		for _, g := range f.gitFiles {
			want[filepath.Dir(g)] = true
		}
		if s.clientFS {
			continue
		}
		want[f.root] = true
		for _, g := range s.folderSettings(f).PlanFiles {
			want[existingAncestor(filepath.Dir(filepath.Join(f.root, filepath.FromSlash(g))), f.root)] = true
		}
		if f.planPath != "" {
			want[filepath.Dir(f.planPath)] = true
		}
	}
	var added []string
	for d := range want {
		if fw.dirs[d] {
			continue
		}
		if err := fw.w.Add(d); err != nil {
			s.log.Debug("watch failed", "dir", d, "err", err)
			continue
		}
		fw.dirs[d] = true
		added = append(added, d)
	}
	for d := range fw.dirs {
		if !want[d] {
			_ = fw.w.Remove(d)
			delete(fw.dirs, d)
		}
	}
	return added
}

// existingAncestor returns dir, or its nearest existing ancestor, never
// above stop. A directory whose path below stop holds a glob metacharacter
// (a planFiles pattern such as plans/*/PLAN.md) counts as not existing; the
// characters in stop itself are only characters (a project in
// "client [acme]/" is watched like any other).
func existingAncestor(dir, stop string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if rel, err := filepath.Rel(stop, d); err == nil && !strings.ContainsAny(rel, "*?[") {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
		}
		if keyOf(d) == keyOf(stop) || filepath.Dir(d) == d {
			return stop
		}
	}
}

// loop drains fsnotify's channels without ever blocking on the server for
// long: each relevant event only (re)starts a folder's debounce timer.
func (fw *fsWatcher) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-fw.w.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			fw.event(ev)
		case err, ok := <-fw.w.Errors:
			if !ok {
				return
			}
			fw.error(err)
		}
	}
}

func (fw *fsWatcher) event(ev fsnotify.Event) {
	s := fw.s
	s.mu.Lock()
	defer s.mu.Unlock()
	name := filepath.Clean(ev.Name)
	k := keyOf(name)
	rearm := false
	// A watched directory that goes away takes its watch with it; forget
	// it so it is watched again when it comes back (a checkout, rm -rf .planls).
	if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && fw.dirs[name] {
		delete(fw.dirs, name)
		rearm = true
	}
	for _, f := range s.folders {
		if slices.ContainsFunc(f.gitFiles, func(g string) bool { return keyOf(g) == k }) {
			s.headMoved(f)
			continue
		}
		if !within(f.key, k) {
			continue
		}
		isStateDir := keyOf(filepath.Join(f.root, ".planls")) == k
		relevant := isStateDir || keyOf(f.statePath()) == k ||
			(f.planPath != "" && keyOf(f.planPath) == k) || s.planCandidate(f, name)
		if isStateDir || ev.Op&fsnotify.Create != 0 {
			rearm = true
		}
		if relevant {
			s.scheduleDebounced(f)
		} else {
			s.extendDebounced(f)
		}
	}
	if rearm {
		for _, d := range fw.sync(s) {
			for _, f := range s.folders {
				if within(f.key, keyOf(d)) {
					s.scheduleDebounced(f)
				}
			}
		}
	}
}

// error handles fsnotify errors. An overflow means events were lost, so
// every folder is re-read from scratch.
func (fw *fsWatcher) error(err error) {
	s := fw.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		s.log.Warn("file events overflowed; re-reading every folder")
		for _, f := range s.folders {
			f.stateOK = false
			s.scheduleDebounced(f)
		}
		fw.sync(s)
		return
	}
	s.log.Warn("file watching error", "err", err)
}

// close ends the watches; the loop ends with them (or with the group).
func (fw *fsWatcher) close() { _ = fw.w.Close() }
