package lsp

import (
	"encoding/json"
	"log/slog"
	"reflect"
	"testing"
)

func TestParseSettings(t *testing.T) {
	base := defaultSettings()
	tests := []struct {
		name string
		raw  string
		want settings
	}{
		{"null", `null`, base},
		{"nested settings.planls", `{"settings":{"planls":{"severity":"hint"}}}`, settings{PlanFiles: []string{"PLAN.md"}, Severity: "hint"}},
		{"planls key", `{"planls":{"fadeClosed":true}}`, settings{PlanFiles: []string{"PLAN.md"}, Severity: "information", FadeClosed: true}},
		{"bare", `{"planFiles":["docs/PLAN.md","PLAN.md"]}`, settings{PlanFiles: []string{"docs/PLAN.md", "PLAN.md"}, Severity: "information"}},
		{"bad severity kept default", `{"severity":"loud"}`, base},
		{"wrong types ignored", `{"planFiles":"PLAN.md","severity":3,"fadeClosed":"yes"}`, base},
		{"empty list ignored", `{"planFiles":[]}`, base},
		{"escaping the root refused", `{"planFiles":["../other/PLAN.md"]}`, base},
		{"absolute refused", `{"planFiles":["/etc/*"]}`, base},
		{"bad glob refused", `{"planFiles":["[x"]}`, base},
		{"not an object", `[1,2]`, base},
	}
	for _, tt := range tests {
		got := parseSettings(json.RawMessage(tt.raw), base, slog.New(slog.DiscardHandler))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
