package main

import (
	"runtime/debug"
	"testing"
)

// Issue 11: a build from a checkout names its commit, not "devel".
func TestVersionFrom(t *testing.T) {
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "89e9b5e1a9e26b0bd36ef83b3ed481afd7e264b3"},
			{Key: "vcs.time", Value: "2026-11-30T09:00:40Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	for _, c := range []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"release", "v1.2.3", nil, "v1.2.3"},
		{"stamped pseudo-version", "v0.0.0-20261130090040-89e9b5e1a9e2+dirty", vcs("true"), "v0.0.0-20261130090040-89e9b5e1a9e2+dirty"},
		{"vcs settings only", "(devel)", vcs("false"), "v0.0.0-20261130090040-89e9b5e1a9e2"},
		{"vcs settings, modified", "", vcs("true"), "v0.0.0-20261130090040-89e9b5e1a9e2+dirty"},
		{"no vcs information", "(devel)", nil, "devel"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/planls/planls", Version: c.main}, Settings: c.settings}
		if got := versionFrom(info); got != c.want {
			t.Errorf("%s: versionFrom = %q, want %q", c.name, got, c.want)
		}
	}
}
