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
	text        string // the message, saying where an item that left the file went
	line, col   int
	gone        bool // no longer in the plan file: line and col are 1
}

// findings are the report's findings: open items, drift, then the
// warnings about proof (open items ticked in the plan file, the editor's
// checked-not-completed; weak evidence; verification).
func (r *checkReport) findings() []finding {
	var out []finding
	// add places a finding at line:col (line 0: no longer in the file, for
	// a plan item's message to say where it went).
	add := func(rule, level, msg string, line, col int, planItem bool) {
		line, col, gone := position(line, col)
		if planItem {
			msg += r.suffix(gone)
		}
		out = append(out, finding{rule, level, msg, line, col, gone})
	}
	for _, o := range r.items {
		level := "note"
		if o.Unproven {
			level = "warning"
		}
		add(o.rule(), level, o.message(), o.Line, o.Col, true)
	}
	for _, d := range r.drift {
		add(ruleDrift, "warning", d.message(), d.Line, d.Col, false)
	}
	for _, o := range r.items {
		if o.Ticked && !r.onlyVerify {
			add(core.RuleTicked, "warning", core.TickedMessage(o.Task.ID), o.Line, o.Col, true)
		}
	}
	for _, o := range r.weak {
		add(ruleWeak, "warning", core.WeakEvidenceMessage(o.Task.ID, o.Task.Evidence), o.Line, o.Col, true)
	}
	for _, f := range r.verified {
		level := map[string]string{ruleFailed: "error", ruleUnverifiable: "note", ruleVerified: "none"}[f.rule()]
		if level != "none" || r.onlyVerify {
			add(f.rule(), level, f.message(), f.Line, f.Col, f.plan)
		}
	}
	return out
}

// writeText prints one `PATH:LINE:COL: message` line per finding, the
// format editors' and CI's error parsers read.
func (r *checkReport) writeText(w io.Writer) error {
	// One list in file order, as a compiler prints its errors: open items
	// and drift interleave by position; items no longer in the file last.
	all := r.findings()
	slices.SortStableFunc(all, func(a, b finding) int {
		return cmp.Or(compareBool(a.gone, b.gone), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
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

// jsonItem is one open item in `check --format json`.
type jsonItem struct {
	ID      int    `json:"id"`
	Status  string `json:"status"`
	Subject string `json:"subject"`
	Path    string `json:"path"`   // relative to the root, slash-separated
	Line    int    `json:"line"`   // 1-based; 0 when no longer in the file
	Column  int    `json:"column"` // 1-based, bytes; 0 when no longer in the file
	Message string `json:"message"`
	Rule    string `json:"rule"` // open-item, or closed-without-proof (counted as open)
	// Checked: the item's checkbox is ticked in the plan file though it is
	// open; the rule stays open-item (the item still counts as open).
	Checked *jsonTicked `json:"checked,omitempty"`
}

// jsonTicked is the editor's checked-not-completed finding on an open item.
type jsonTicked struct {
	Rule    string `json:"rule"` // checked-not-completed
	Message string `json:"message"`
}

// jsonDrift is one bullet new or changed since approval in
// `check --format json`.
type jsonDrift struct {
	Kind    string `json:"kind"`         // new or changed
	ID      int    `json:"id,omitempty"` // the approved item a changed bullet replaces
	Subject string `json:"subject"`      // the bullet's text now
	Path    string `json:"path"`         // relative to the root, slash-separated
	Line    int    `json:"line"`         // 1-based
	Column  int    `json:"column"`       // 1-based, bytes
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
	Plan  jsonPlan    `json:"plan"`
	Open  []jsonItem  `json:"open"`
	Drift []jsonDrift `json:"drift"`
	// Weak: completed items with weak evidence (rule weak-evidence).
	Weak []jsonItem `json:"weak"`
	// Verify: with --verify, the items that failed verification.
	Verify []jsonVerify `json:"verify,omitempty"`
}

func (r *checkReport) jsonPlan() jsonPlan { return jsonPlan{r.planID, r.planTitle, r.rootRel} }

func (r *checkReport) jsonReport() jsonCheck {
	out := jsonCheck{Plan: r.jsonPlan()}
	out.Open = []jsonItem{}
	for _, o := range r.items {
		ji := jsonItem{ID: o.Task.ID, Status: string(o.Task.Status), Subject: o.Task.Subject,
			Path: r.rootRel, Line: o.Line, Column: o.Col, Message: o.message(), Rule: o.rule()}
		if o.Ticked {
			ji.Checked = &jsonTicked{Rule: core.RuleTicked, Message: core.TickedMessage(o.Task.ID)}
		}
		out.Open = append(out.Open, ji)
	}
	out.Drift = []jsonDrift{}
	for _, d := range r.drift {
		out.Drift = append(out.Drift, jsonDrift{Kind: d.kind(), ID: d.TaskID, Subject: d.Subject,
			Path: r.rootRel, Line: d.Line, Column: d.Col, Message: d.message(), Rule: ruleDrift})
	}
	out.Weak = []jsonItem{}
	for _, o := range r.weak {
		out.Weak = append(out.Weak, jsonItem{ID: o.Task.ID, Status: string(o.Task.Status), Subject: o.Task.Subject,
			Path: r.rootRel, Line: o.Line, Column: o.Col, Message: core.WeakEvidenceMessage(o.Task.ID, o.Task.Evidence), Rule: ruleWeak})
	}
	if r.verifying {
		out.Verify = r.jsonVerifyItems()
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
		sarifRuleOf(ruleOpenItem, "OpenPlanItem", "note", "Open plan item",
			"A plan item of the approved plan is still pending or in progress: complete it with evidence or defer it with a reason."),
		sarifRuleOf(ruleUnproven, "ClosedWithoutProof", "warning", "Plan item closed without proof",
			"A plan item is completed without evidence or deferred without a reason, which planls refuses: state.json was edited by hand. Reopen it and close it with its proof."),
		sarifRuleOf(ruleDrift, "PlanDrift", "warning", "Plan changed since approval",
			"A bullet of the plan file is not in the approved plan, or its text differs from the approved item: the plan now says something the user did not approve. Ask the user to review it and re-approve it with planls approve."),
		sarifRuleOf(ruleWeak, "WeakEvidence", "warning", "Plan item completed with weak evidence",
			"A completed plan item's evidence names nothing that can be checked: no commit, file, test, command with its result or URL. Record checkable evidence."),
		sarifRuleOf(ruleFailed, "EvidenceFailed", "error", "Evidence failed verification",
			"Something a completed plan item's evidence names does not hold: a commit that is missing or no branch reaches, a file or line that does not exist, a test that is not in the tree, or a command that no longer gives its stated result."),
		sarifRuleOf(ruleUnverifiable, "EvidenceUnverifiable", "note", "Evidence cannot be verified",
			"Nothing a completed plan item's evidence names can be checked offline (only URLs, commands not re-run, or nothing at all)."),
		sarifRuleOf(core.RuleTicked, "CheckedNotCompleted", "warning", "Plan item ticked but not completed",
			"A plan item's checkbox is ticked in the plan file, but the item is still open: a ticked box is not proof. Complete it with evidence."),
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
		if f.rule == ruleVerified {
			continue // not a finding: the text and json say it
		}
		title := ",title=" + f.rule
		if f.rule == ruleOpenItem {
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

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
