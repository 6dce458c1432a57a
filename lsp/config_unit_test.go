package lsp

import (
	"encoding/json"
	"log/slog"
	"reflect"
	"slices"
	"testing"
)

func boolp(b bool) *bool { return &b }

// A pulled answer sets only the keys it carries with a good value.
func TestParsePatch(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want settingsPatch
	}{
		{"absent", ``, settingsPatch{}},
		{"null", `null`, settingsPatch{}},
		{"empty object", `{}`, settingsPatch{}},
		{"not an object", `"warning"`, settingsPatch{}},
		{"bare section", `{"severity":"warning"}`, settingsPatch{severity: "warning"}},
		{"fadeClosed false is set", `{"fadeClosed":false}`, settingsPatch{fadeClosed: boolp(false)}},
		{"nested", `{"settings":{"planls":{"planFiles":["a.md"]}}}`, settingsPatch{planFiles: []string{"a.md"}}},
		{"VS Code section", `{"path":"","planFiles":["PLAN.md"],"severity":"hint","fadeClosed":true,"trace":{"server":"off"}}`,
			settingsPatch{planFiles: []string{"PLAN.md"}, severity: "hint", fadeClosed: boolp(true)}},
		{"bad values set nothing", `{"planFiles":["../x.md"],"severity":"loud","fadeClosed":1}`, settingsPatch{}},
		{"unknown keys set nothing", `{"colour":"red"}`, settingsPatch{}},
	}
	for _, tt := range tests {
		got := parsePatch(json.RawMessage(tt.raw), slog.New(slog.DiscardHandler))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// Layers: a later patch replaces only the keys it sets; over fills the rest
// from the base.
func TestSettingsPatchLayers(t *testing.T) {
	base := settings{PlanFiles: []string{"PLAN.md"}, Severity: "warning", FadeClosed: true}
	tests := []struct {
		name   string
		first  settingsPatch
		second settingsPatch
		want   settings
	}{
		{"nothing", settingsPatch{}, settingsPatch{}, base},
		{"first only", settingsPatch{severity: "error"}, settingsPatch{}, settings{PlanFiles: []string{"PLAN.md"}, Severity: "error", FadeClosed: true}},
		{"second wins", settingsPatch{severity: "error"}, settingsPatch{severity: "hint"}, settings{PlanFiles: []string{"PLAN.md"}, Severity: "hint", FadeClosed: true}},
		{"keys add up", settingsPatch{planFiles: []string{"p/*.md"}}, settingsPatch{fadeClosed: boolp(false)},
			settings{PlanFiles: []string{"p/*.md"}, Severity: "warning"}},
	}
	for _, tt := range tests {
		if got := tt.first.merge(tt.second).over(base); !got.equal(tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestSettingsEqual(t *testing.T) {
	a := defaultSettings()
	for _, b := range []settings{
		{PlanFiles: []string{"PLAN.md", "x.md"}, Severity: "information"},
		{PlanFiles: []string{"PLAN.md"}, Severity: "hint"},
		{PlanFiles: []string{"PLAN.md"}, Severity: "information", FadeClosed: true},
	} {
		if a.equal(b) {
			t.Errorf("%+v equals %+v", a, b)
		}
	}
	if !a.equal(defaultSettings()) {
		t.Error("defaults differ from themselves")
	}
}

// A capability of the wrong shape reads as false and never fails the
// decoding of its siblings.
func TestOddCapabilityKeepsSiblings(t *testing.T) {
	s := &server{log: slog.New(slog.DiscardHandler)}
	for raw, want := range map[string]bool{`true`: true, `false`: false, `null`: false, `{}`: false, `"true"`: false, `1`: false} {
		p, caps := s.decodeInitialize(json.RawMessage(`{"processId":` + raw + `,"rootUri":"file:///r","capabilities":{"workspace":{"configuration":` +
			raw + `,"codeLens":{"refreshSupport":true}},"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":` + raw + `}}}}`))
		if caps.configuration != want || caps.flatSymbols != !want || !caps.lensRefresh || p.RootURI != "file:///r" {
			t.Errorf("%s: %+v %+v", raw, caps, p)
		}
	}
}

// Watching covers the pushed globs, then each folder's pulled ones, once.
func TestPlanFilesUnion(t *testing.T) {
	s := &server{settings: defaultSettings()}
	a, b := newFolder(t.TempDir(), "file:///a"), newFolder(t.TempDir(), "file:///b")
	a.pulled = settingsPatch{planFiles: []string{"plans/*.md", "PLAN.md"}}
	b.pulled = settingsPatch{severity: "hint"}
	s.folders = []*folder{a, b}
	if got := s.planFilesUnion(); !slices.Equal(got, []string{"PLAN.md", "plans/*.md"}) {
		t.Errorf("union %v", got)
	}
	if got := s.folderSettings(b); !slices.Equal(got.PlanFiles, []string{"PLAN.md"}) || got.Severity != "hint" {
		t.Errorf("b %+v", got)
	}
}

// Whatever a client answers, the settings in force stay valid: a known
// severity, a non-empty planFiles that stays inside the folder.
func FuzzParsePatch(f *testing.F) {
	for _, seed := range []string{`null`, `{}`, `{"severity":"hint"}`, `{"planls":{"planFiles":["a/*.md"]}}`,
		`{"settings":{"settings":{"fadeClosed":true}}}`, `{"planFiles":["../x"],"severity":"loud"}`, `[`, `{"planFiles":[""]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p := parsePatch(raw, slog.New(slog.DiscardHandler))
		got := p.over(defaultSettings())
		if severityOf(got.Severity) == 0 || len(got.PlanFiles) == 0 || !insideRoot(got.PlanFiles) {
			t.Fatalf("%q gave %+v", raw, got)
		}
		if again := p.merge(p).over(defaultSettings()); !again.equal(got) {
			t.Fatalf("%q: merging a patch with itself changed %+v to %+v", raw, got, again)
		}
	})
}
