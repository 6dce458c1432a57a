package lsp

import (
	"cmp"
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

func (a settings) equal(b settings) bool {
	return slices.Equal(a.PlanFiles, b.PlanFiles) && a.Severity == b.Severity && a.FadeClosed == b.FadeClosed
}

// settingsPatch holds only the keys one source of settings set, so sources
// can be layered: a folder's pulled answers over the pushed settings over
// the defaults (docs/PROTOCOL.md "Settings", precedence). The zero patch sets
// nothing. Slices are never changed in place once stored.
type settingsPatch struct {
	planFiles  []string // nil: unset
	severity   string   // "": unset
	fadeClosed *bool    // nil: unset
}

func (p settingsPatch) over(base settings) settings {
	all := settingsPatch{base.PlanFiles, base.Severity, &base.FadeClosed}.merge(p)
	return settings{PlanFiles: all.planFiles, Severity: all.severity, FadeClosed: *all.fadeClosed}
}

func (p settingsPatch) merge(q settingsPatch) settingsPatch {
	if q.planFiles != nil {
		p.planFiles = q.planFiles
	}
	p.severity = cmp.Or(q.severity, p.severity)
	if q.fadeClosed != nil {
		p.fadeClosed = q.fadeClosed
	}
	return p
}

// clientOnlyKeys are keys of the "planls" section that the editor plugins
// keep for themselves (VS Code's planls.path and planls.trace.server); a
// pulled section carries them, so they are not worth a log line.
var clientOnlyKeys = map[string]bool{"path": true, "trace": true}

// parseSettings reads raw as {"settings":{"planls":{...}}}, {"planls":{...}}
// or the bare object, over base. Unknown keys and bad values are ignored
// (logged), so a typo in a user's config never stops the server.
func parseSettings(raw json.RawMessage, base settings, log *slog.Logger) settings {
	return parsePatch(raw, log).over(base)
}

// parsePatch is parseSettings' rules keeping only the keys raw sets with a
// good value: null, a non-object, unknown keys and bad values set nothing.
func parsePatch(raw json.RawMessage, log *slog.Logger) settingsPatch {
	var out settingsPatch
	if len(raw) == 0 || string(raw) == "null" {
		return out
	}
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &outer); err != nil {
		log.Warn("settings ignored", "err", err)
		return out
	}
	if inner, ok := outer["settings"]; ok {
		return parsePatch(inner, log)
	}
	if inner, ok := outer["planls"]; ok {
		return parsePatch(inner, log)
	}
	for k, v := range outer {
		good := true
		switch k {
		case "planFiles":
			var globs []string
			if good = json.Unmarshal(v, &globs) == nil && len(globs) > 0 && insideRoot(globs); good {
				out.planFiles = globs
			}
		case "severity":
			var sev string
			if good = json.Unmarshal(v, &sev) == nil && severityOf(sev) != 0; good {
				out.severity = sev
			}
		case "fadeClosed":
			var b bool
			if good = json.Unmarshal(v, &b) == nil; good {
				out.fadeClosed = &b
			}
		default:
			if !clientOnlyKeys[k] {
				log.Info("unknown setting ignored", "key", k)
			}
		}
		if !good {
			log.Warn(k+" ignored", "value", string(v))
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
		if _, err := path.Match(g, ""); err != nil || slices.Contains(strings.Split(g, "/"), "..") {
			return false
		}
	}
	return true
}

// severityOf is the severity a setting names, 0 for an unknown name.
func severityOf(s string) protocol.DiagnosticSeverity {
	return map[string]protocol.DiagnosticSeverity{"error": protocol.DiagnosticSeverityError,
		"warning": protocol.DiagnosticSeverityWarning, "information": protocol.DiagnosticSeverityInformation,
		"hint": protocol.DiagnosticSeverityHint}[s]
}

// configChange is DidChangeConfigurationParams with the settings as sent.
type configChange struct {
	Settings json.RawMessage `json:"settings"`
}

// didChangeConfiguration applies pushed settings (a null or empty payload
// changes nothing) to the server-level settings, then, for a client that
// answers workspace/configuration, pulls every folder's settings again:
// pull clients send this notification only to say "ask me".
func (s *server) didChangeConfiguration(_ *request, p *configChange) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings = parseSettings(p.Settings, s.settings, s.log)
	s.settingsChanged(s.folders)
	s.pullSettings(s.folders)
	return nil, nil
}
