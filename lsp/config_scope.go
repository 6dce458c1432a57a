package lsp

import "slices"

// folderSettings are the settings in force for f: what was pulled for f
// (workspace/configuration) over the pushed settings (initializationOptions,
// didChangeConfiguration) over the defaults. Caller holds mu.
func (s *server) folderSettings(f *folder) settings {
	return f.pulled.over(s.settings)
}

// planFilesUnion lists, without repeats, the pushed planFiles then those
// pulled for each folder: what file watching must cover. Caller holds mu.
func (s *server) planFilesUnion() []string {
	out := slices.Clone(s.settings.PlanFiles)
	for _, f := range s.folders {
		for _, g := range f.pulled.planFiles {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// settingsChanged follows a settings change: watchers cover the planFiles
// of every folder, and each folder of changed re-reads its plan and
// republishes. Caller holds mu.
func (s *server) settingsChanged(changed []*folder) {
	s.rewatch()
	for _, f := range changed {
		s.reload(f, true)
	}
}
