package lsp

import (
	"encoding/json"
	"log/slog"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
)

// settings are the planls settings of docs/PROTOCOL.md "Settings".
type settings struct {
	PlanFiles  []string `json:"planFiles"`  // globs relative to each folder; first existing match is the plan
	Severity   string   `json:"severity"`   // of open-item / in-progress / blocked
	FadeClosed bool     `json:"fadeClosed"` // Hint + Unnecessary on closed items
}

func defaultSettings() settings {
	return settings{PlanFiles: []string{"PLAN.md"}, Severity: "information"}
}

// parseSettings reads raw as {"settings":{"planls":{...}}}, {"planls":{...}}
// or the bare object, over base. Unknown keys and bad values are ignored
// (logged), so a typo in a user's config never stops the server.
func parseSettings(raw json.RawMessage, base settings, log *slog.Logger) settings {
	if len(raw) == 0 || string(raw) == "null" {
		return base
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &outer); err != nil {
		log.Warn("settings ignored", "err", err)
		return base
	}
	if inner, ok := outer["settings"]; ok {
		return parseSettings(inner, base, log)
	}
	if inner, ok := outer["planls"]; ok {
		return parseSettings(inner, base, log)
	}
	out := base
	if v, ok := outer["planFiles"]; ok {
		var globs []string
		if err := json.Unmarshal(v, &globs); err == nil && len(globs) > 0 && insideRoot(globs) {
			out.PlanFiles = globs
		} else {
			log.Warn("planFiles ignored", "value", string(v))
		}
	}
	if v, ok := outer["severity"]; ok {
		var sev string
		if err := json.Unmarshal(v, &sev); err == nil && severityOf(sev) != 0 {
			out.Severity = sev
		} else {
			log.Warn("severity ignored", "value", string(v))
		}
	}
	if v, ok := outer["fadeClosed"]; ok {
		var b bool
		if err := json.Unmarshal(v, &b); err == nil {
			out.FadeClosed = b
		}
	}
	return out
}

// insideRoot reports whether every glob stays inside its folder: relative,
// without ".." elements, so a setting cannot make the server read (and
// approve) files elsewhere.
func insideRoot(globs []string) bool {
	for _, g := range globs {
		g = filepath.ToSlash(g)
		if g == "" || path.IsAbs(g) || filepath.IsAbs(g) || (len(g) > 1 && g[1] == ':') {
			return false
		}
		for _, el := range strings.Split(g, "/") {
			if el == ".." {
				return false
			}
		}
		if _, err := path.Match(g, ""); err != nil {
			return false
		}
	}
	return true
}

func severityOf(s string) protocol.DiagnosticSeverity {
	switch s {
	case "error":
		return protocol.DiagnosticSeverityError
	case "warning":
		return protocol.DiagnosticSeverityWarning
	case "information":
		return protocol.DiagnosticSeverityInformation
	case "hint":
		return protocol.DiagnosticSeverityHint
	}
	return 0
}

func (s *server) didChangeConfiguration(r *request) (any, error) {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.settings.PlanFiles
	s.settings = parseSettings(p.Settings, s.settings, s.log)
	if s.watcher != nil {
		s.watcher.sync(s)
	}
	// The client watches unless registration fell back to fsnotify; a
	// registration still in flight re-reads the settings when it runs.
	if s.caps.Workspace.DidChangeWatchedFiles.DynamicRegistration && s.watcher == nil && !slices.Equal(old, s.settings.PlanFiles) {
		go s.registerWatchers()
	}
	for _, f := range s.folders {
		s.refresh(f, true)
	}
	return nil, nil
}
