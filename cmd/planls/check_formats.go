package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/planls/planls/core"
)

// finding is one finding as every format prints it.
type finding struct {
	rule, level string // level: SARIF's note, warning or error; none for a verified item
	text        string
	line, col   int  // 1-based; 1, 1 when gone
	gone        bool // about an item no longer in the plan file
	id          int
}

// levels are the SARIF level of each severity.
var levels = map[core.Severity]string{core.SeverityError: "error", core.SeverityWarning: "warning",
	core.SeverityInfo: "note", core.SeverityHint: "note"}

// findings are the report's findings: the analysis's, or for planls
// verify each completed item's verification.
func (r *checkReport) findings() []finding {
	var out []finding
	add := func(rule, level, msg string, line, col, id int) {
		gone := line == 0
		if gone {
			line, col = 1, 1
		}
		out = append(out, finding{rule, level, core.NoControls(msg), line, col, gone, id})
	}
	if r.onlyVerify {
		for _, d := range r.verdicts {
			level := map[string]string{core.RuleFailed: "error", core.RuleUnverifiable: "note", core.RuleVerified: "none"}[d.rule]
			add(d.rule, level, d.msg, d.line, d.col, d.id)
		}
		return out
	}
	for _, f := range r.v.an.Findings {
		line, col := r.v.at(f)
		add(f.Rule, levels[f.Severity], f.Message, line, col, f.TaskID)
	}
	return out
}

// writeText prints one `PATH:LINE:COL: message` line per finding, the
// format editors' and CI's error parsers read.
func (r *checkReport) writeText(w io.Writer) error {
	// One list in file order, as a compiler prints its errors; findings
	// about items no longer in the file last.
	all := r.findings()
	slices.SortStableFunc(all, func(a, b finding) int {
		if a.gone != b.gone {
			return map[bool]int{true: 1, false: -1}[a.gone]
		}
		return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
	})
	for _, f := range all {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s\n", r.display, f.line, f.col, f.text); err != nil {
			return err
		}
	}
	if r.onlyVerify {
		_, err := fmt.Fprintln(w, r.verifySummary())
		return err
	}
	return nil
}

// jsonFinding is one finding in `check --format json`.
type jsonFinding struct {
	Rule    string `json:"rule"`
	Level   string `json:"level"`        // SARIF's: error, warning or note
	ID      int    `json:"id,omitempty"` // the plan item it is about
	Path    string `json:"path"`         // relative to the root, slash-separated
	Line    int    `json:"line"`         // 1-based; 0 when no longer in the file
	Column  int    `json:"column"`       // 1-based, bytes; 0 when no longer in the file
	Message string `json:"message"`
}

// jsonItem is one open item in `check --format json`.
type jsonItem struct {
	ID      int    `json:"id"`
	Status  string `json:"status"`
	Subject string `json:"subject"`
	Path    string `json:"path"`   // relative to the root, slash-separated
	Line    int    `json:"line"`   // 1-based; 0 when no longer in the file
	Column  int    `json:"column"` // 1-based, bytes; 0 when no longer in the file
	Message string `json:"message"`
	// Rule: open-item, in-progress, blocked, or closed-without-proof
	// (counted as open); weak-evidence in "weak".
	Rule string `json:"rule"`
	// Checked: the item's checkbox is ticked in the plan file though it is
	// open; the rule stays the item's (it still counts as open).
	Checked *jsonTicked `json:"checked,omitempty"`
}

// jsonTicked is the editor's checked-not-completed finding on an open item.
type jsonTicked struct {
	Rule    string `json:"rule"` // checked-not-completed
	Message string `json:"message"`
}

// jsonDrift is one plan-drift finding in `check --format json`.
type jsonDrift struct {
	Kind    string `json:"kind"`         // new, changed, missing or text
	ID      int    `json:"id,omitempty"` // the approved item it is about
	Subject string `json:"subject"`      // the bullet's text now (the approved one when missing)
	Path    string `json:"path"`         // relative to the root, slash-separated
	Line    int    `json:"line"`         // 1-based; 0 for a missing item
	Column  int    `json:"column"`       // 1-based, bytes; 0 for a missing item
	Message string `json:"message"`
	Rule    string `json:"rule"` // plan-drift
}

// jsonPlan is the approved plan in json output.
type jsonPlan struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Path  string `json:"path"` // relative to the root, slash-separated
}

type jsonCheck struct {
	Plan jsonPlan `json:"plan"`
	// Findings: every finding, in the analysis's order (the plan's, then
	// each item's in file order).
	Findings []jsonFinding `json:"findings"`
	Open     []jsonItem    `json:"open"`
	Drift    []jsonDrift   `json:"drift"`
	// Weak: completed items with weak evidence (rule weak-evidence).
	Weak []jsonItem `json:"weak"`
}

func (r *checkReport) jsonPlan() jsonPlan {
	p := r.v.st.Plan
	if p == nil {
		return jsonPlan{Path: r.rootRel}
	}
	return jsonPlan{p.ID, p.Title, r.rootRel}
}

func (r *checkReport) jsonReport() jsonCheck {
	out := jsonCheck{Plan: r.jsonPlan(), Findings: []jsonFinding{}, Open: []jsonItem{}, Drift: []jsonDrift{}, Weak: []jsonItem{}}
	an := r.v.an
	open := map[int]int{} // task id → index into out.Open
	for _, f := range an.Findings {
		line, col := r.v.at(f)
		out.Findings = append(out.Findings, jsonFinding{Rule: f.Rule, Level: levels[f.Severity], ID: f.TaskID,
			Path: r.rootRel, Line: line, Column: col, Message: f.Message})
		var it *core.Item
		if f.Item >= 0 {
			it = &an.Items[f.Item]
		}
		switch f.Rule {
		case core.RuleOpen, core.RuleInProgress, core.RuleBlocked, core.RuleNoProof, core.RuleWeak:
			t := it.Task
			ji := jsonItem{ID: t.ID, Status: string(t.Status), Subject: t.Subject, Path: r.rootRel,
				Line: line, Column: col, Message: f.Message, Rule: f.Rule}
			if f.Rule == core.RuleWeak {
				out.Weak = append(out.Weak, ji)
			} else {
				open[t.ID] = len(out.Open)
				out.Open = append(out.Open, ji)
			}
		case core.RuleTicked:
			if i, ok := open[f.TaskID]; ok {
				out.Open[i].Checked = &jsonTicked{Rule: f.Rule, Message: f.Message}
			}
		case core.RuleDrift:
			jd := jsonDrift{Kind: string(f.Drift), ID: f.TaskID, Path: r.rootRel, Line: line, Column: col, Message: f.Message, Rule: f.Rule}
			if it != nil {
				jd.Subject = it.Subject
			}
			out.Drift = append(out.Drift, jd)
		}
	}
	return out
}

// SARIF 2.1.0, the subset code-scanning tools read.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

// sarifRules are the driver's rules; a result's ruleIndex is its rule's
// place here.
func sarifRules() []sarifRule {
	return []sarifRule{
		sarifRuleOf(core.RuleOpen, "OpenPlanItem", "note", "Open plan item",
			"A plan item of the approved plan is still pending: complete it with evidence or defer it with a reason."),
		sarifRuleOf(core.RuleInProgress, "PlanItemInProgress", "note", "Plan item in progress",
			"A plan item of the approved plan is in progress: complete it with evidence or defer it with a reason."),
		sarifRuleOf(core.RuleBlocked, "BlockedPlanItem", "note", "Blocked plan item",
			"An open plan item waits on other plan items that are still open."),
		sarifRuleOf(core.RuleNoProof, "ClosedWithoutProof", "warning", "Plan item closed without proof",
			"A plan item is completed without evidence or deferred without a reason, which planls refuses: state.json was edited by hand. Reopen it and close it with its proof."),
		sarifRuleOf(core.RuleDrift, "PlanDrift", "warning", "Plan changed since approval",
			"The plan file is not the approved plan: a bullet is new, its text differs from the approved item, an approved item is missing, or text outside the items changed. Ask the user to review it and re-approve it with planls approve."),
		sarifRuleOf(core.RuleWeak, "WeakEvidence", "warning", "Plan item completed with weak evidence",
			"A completed plan item's evidence names nothing that can be checked: no commit, file, test, command with its result or URL. Record checkable evidence."),
		sarifRuleOf(core.RuleFailed, "EvidenceFailed", "error", "Evidence failed verification",
			"Something a completed plan item's evidence names does not hold: a commit that is missing or no branch reaches, a file or line that does not exist, a test that is not in the tree, or a command that no longer gives its stated result."),
		sarifRuleOf(core.RuleUnverifiable, "EvidenceUnverifiable", "note", "Evidence cannot be verified",
			"Nothing a completed plan item's evidence names can be checked offline (only URLs, commands not re-run, or nothing at all)."),
		sarifRuleOf(core.RuleVerified, "EvidenceVerified", "none", "Evidence verified",
			"What a completed plan item's evidence names holds."),
		sarifRuleOf(core.RuleTicked, "CheckedNotCompleted", "warning", "Plan item ticked but not completed",
			"A plan item's checkbox is ticked in the plan file, but the item is still open: a ticked box is not proof. Complete it with evidence."),
		sarifRuleOf(core.RuleEmpty, "EmptyItem", "warning", "Bullet without text",
			"A top-level bullet of a work section has no text: it is not a plan item."),
		sarifRuleOf(core.RuleDuplicate, "DuplicateItem", "warning", "Duplicate plan item",
			"Two plan items share their heading path, subject and text: each is tracked, but they read as one."),
	}
}

func sarifRuleOf(id, name, level, short, full string) sarifRule {
	return sarifRule{ID: id, Name: name, ShortDescription: sarifText{short}, FullDescription: sarifText{full},
		DefaultConfiguration: sarifConfig{Level: level}}
}

// sarif renders the report as a SARIF 2.1.0 log. Columns are reported as
// code points; a list marker is preceded only by ASCII indentation, so the
// byte column is the same number.
func (r *checkReport) sarif() sarifLog {
	rules := sarifRules()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "planls", Version: version(),
			InformationURI: "https://github.com/planls/planls", Rules: rules}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	for _, f := range r.findings() {
		run.Results = append(run.Results, sarifResult{
			RuleID: f.rule, RuleIndex: slices.IndexFunc(rules, func(s sarifRule) bool { return s.ID == f.rule }),
			Level: f.level, Message: sarifText{f.text},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: r.rootRel, URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: f.line, StartColumn: f.col},
			}}},
		})
	}
	return sarifLog{Version: sarifVersion, Schema: sarifSchema, Runs: []sarifRun{run}}
}

// writeGitHub prints GitHub Actions workflow commands: ::notice for open
// items, ::warning titled with the rule for the other findings.
func (r *checkReport) writeGitHub(w io.Writer) error {
	for _, f := range r.findings() {
		if f.level == "none" {
			continue // not a finding: the text and json say it
		}
		title := ",title=" + f.rule
		if f.rule == core.RuleOpen {
			title = ""
		}
		if _, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d%s::%s\n", ghCommand[f.level],
			ghProperty(r.rootRel), f.line, f.col, title, ghData(f.text)); err != nil {
			return err
		}
	}
	return nil
}

// ghData escapes a workflow command's message (GitHub's toolkit escapeData).
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value (escapeProperty).
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
