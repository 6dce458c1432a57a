package lsp

import "path/filepath"

// relativePattern is LSP 3.17 RelativePattern: a glob matched against
// paths relative to baseUri (a workspace folder).
type relativePattern struct {
	BaseURI string `json:"baseUri"`
	Pattern string `json:"pattern"`
}

// fileWatcher is LSP 3.17 FileSystemWatcher, whose globPattern is a
// string or a RelativePattern (go.lsp.dev/protocol v0.12.0 has only the
// string).
type fileWatcher struct {
	GlobPattern any `json:"globPattern"`
}

// clientWatchers are the watchers planls registers with the client. With
// workspace.didChangeWatchedFiles.relativePatternSupport they are per
// folder: {baseUri: folder, pattern: ".planls/state.json"} and one per
// planFiles glob of that folder's settings, so nothing outside the folders
// is watched. Without it, "**/.planls/state.json" and "**/<glob>" for the
// planFiles of every folder. Caller holds mu.
func (s *server) clientWatchers() []fileWatcher {
	if !s.caps.relativePatterns {
		out := []fileWatcher{{GlobPattern: "**/.planls/state.json"}}
		for _, g := range s.planFilesUnion() {
			out = append(out, fileWatcher{GlobPattern: "**/" + filepath.ToSlash(g)})
		}
		return out
	}
	var out []fileWatcher
	for _, f := range s.folders {
		out = append(out, fileWatcher{GlobPattern: relativePattern{BaseURI: f.uri, Pattern: ".planls/state.json"}})
		for _, g := range s.folderSettings(f).PlanFiles {
			out = append(out, fileWatcher{GlobPattern: relativePattern{BaseURI: f.uri, Pattern: filepath.ToSlash(g)}})
		}
	}
	return out
}

// rewatch follows a change of folders or settings: fsnotify's directories,
// and the client's watchers when the client watches for us (unless it
// refused). registerWatchers sends nothing when the watchers are those
// registered, and one still in flight is followed by this one, which reads
// the folders and settings when it runs. Caller holds mu.
func (s *server) rewatch() {
	if s.watcher != nil {
		s.watcher.sync(s)
	}
	if s.caps.dynamicWatch && !s.reg.refused {
		s.grp.goFn(s.registerWatchers)
	}
}
