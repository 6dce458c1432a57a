package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

func testReport() *checkReport {
	return &checkReport{
		planTitle: "Ship", planID: "sha256:00", display: "docs/PLAN.md", rootRel: "docs/PLAN.md",
		items: []openItem{
			{Task: core.Task{ID: 3, Status: core.Pending, Subject: "Add `x`, then 100%"}, Line: 7, Col: 1},
			{Task: core.Task{ID: 5, Status: core.InProgress, Subject: "gone"}},
			{Task: core.Task{ID: 6, Status: core.Deferred, Subject: "later"}, Line: 9, Col: 3, Unproven: true},
		},
		drift: []driftItem{
			{Kind: core.Changed, TaskID: 3, Subject: "Add `y`", Line: 7, Col: 1},
			{Kind: core.New, Subject: "Ship it, 50%", Line: 12, Col: 1},
		},
	}
}

// The SARIF log is compared whole: the shape code-scanning tools read.
func TestSARIF(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	log := testReport().sarif()
	log.Runs[0].Tool.Driver.Version = "TEST"
	if err := enc.Encode(log); err != nil {
		t.Fatal(err)
	}
	want := `{
 "version": "2.1.0",
 "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
 "runs": [
  {
   "tool": {
    "driver": {
     "name": "planls",
     "version": "TEST",
     "informationUri": "https://github.com/planls/planls",
     "rules": [
      {
       "id": "open-item",
       "name": "OpenPlanItem",
       "shortDescription": {
        "text": "Open plan item"
       },
       "fullDescription": {
        "text": "A plan item of the approved plan is still pending or in progress: complete it with evidence or defer it with a reason."
       },
       "defaultConfiguration": {
        "level": "note"
       }
      },
      {
       "id": "closed-without-proof",
       "name": "ClosedWithoutProof",
       "shortDescription": {
        "text": "Plan item closed without proof"
       },
       "fullDescription": {
        "text": "A plan item is completed without evidence or deferred without a reason, which planls refuses: state.json was edited by hand. Reopen it and close it with its proof."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "plan-drift",
       "name": "PlanDrift",
       "shortDescription": {
        "text": "Plan changed since approval"
       },
       "fullDescription": {
        "text": "A bullet of the plan file is not in the approved plan, or its text differs from the approved item: the plan now says something the user did not approve. Ask the user to review it and re-approve it with planls approve."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "weak-evidence",
       "name": "WeakEvidence",
       "shortDescription": {
        "text": "Plan item completed with weak evidence"
       },
       "fullDescription": {
        "text": "A completed plan item's evidence names nothing that can be checked: no commit, file, test, command with its result or URL. Record checkable evidence."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      },
      {
       "id": "evidence-failed",
       "name": "EvidenceFailed",
       "shortDescription": {
        "text": "Evidence failed verification"
       },
       "fullDescription": {
        "text": "Something a completed plan item's evidence names does not hold: a commit that is missing or no branch reaches, a file or line that does not exist, a test that is not in the tree, or a command that no longer gives its stated result."
       },
       "defaultConfiguration": {
        "level": "error"
       }
      },
      {
       "id": "evidence-unverifiable",
       "name": "EvidenceUnverifiable",
       "shortDescription": {
        "text": "Evidence cannot be verified"
       },
       "fullDescription": {
        "text": "Nothing a completed plan item's evidence names can be checked offline (only URLs, commands not re-run, or nothing at all)."
       },
       "defaultConfiguration": {
        "level": "note"
       }
      },
      {
       "id": "checked-not-completed",
       "name": "CheckedNotCompleted",
       "shortDescription": {
        "text": "Plan item ticked but not completed"
       },
       "fullDescription": {
        "text": "A plan item's checkbox is ticked in the plan file, but the item is still open: a ticked box is not proof. Complete it with evidence."
       },
       "defaultConfiguration": {
        "level": "warning"
       }
      }
     ]
    }
   },
   "columnKind": "unicodeCodePoints",
   "results": [
    {
     "ruleId": "open-item",
     "ruleIndex": 0,
     "level": "note",
     "message": {
      "text": "open plan item #3 (pending): Add x, then 100%"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 7,
         "startColumn": 1
        }
       }
      }
     ]
    },
    {
     "ruleId": "open-item",
     "ruleIndex": 0,
     "level": "note",
     "message": {
      "text": "open plan item #5 (in_progress): gone (no longer in the plan file; re-approve it with planls approve)"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 1,
         "startColumn": 1
        }
       }
      }
     ]
    },
    {
     "ruleId": "closed-without-proof",
     "ruleIndex": 1,
     "level": "warning",
     "message": {
      "text": "plan item #6 is deferred without a reason (state.json edited by hand?): later"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 9,
         "startColumn": 3
        }
       }
      }
     ]
    },
    {
     "ruleId": "plan-drift",
     "ruleIndex": 2,
     "level": "warning",
     "message": {
      "text": "plan item #3 changed since approval (re-approve with planls approve): Add ` + "`y`" + `"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 7,
         "startColumn": 1
        }
       }
      }
     ]
    },
    {
     "ruleId": "plan-drift",
     "ruleIndex": 2,
     "level": "warning",
     "message": {
      "text": "not in the approved plan (re-approve with planls approve): Ship it, 50%"
     },
     "locations": [
      {
       "physicalLocation": {
        "artifactLocation": {
         "uri": "docs/PLAN.md",
         "uriBaseId": "%SRCROOT%"
        },
        "region": {
         "startLine": 12,
         "startColumn": 1
        }
       }
      }
     ]
    }
   ]
  }
 ]
}
`
	if buf.String() != want {
		t.Errorf("sarif:\n%s", buf.String())
	}
}

func TestTextAndGitHubFormats(t *testing.T) {
	r := testReport()
	var text, gh bytes.Buffer
	if err := r.writeText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.writeGitHub(&gh); err != nil {
		t.Fatal(err)
	}
	// In file order, drift among the open items; what left the file last.
	wantText := "docs/PLAN.md:7:1: open plan item #3 (pending): Add x, then 100%\n" +
		"docs/PLAN.md:7:1: plan item #3 changed since approval (re-approve with planls approve): Add `y`\n" +
		"docs/PLAN.md:9:3: plan item #6 is deferred without a reason (state.json edited by hand?): later\n" +
		"docs/PLAN.md:12:1: not in the approved plan (re-approve with planls approve): Ship it, 50%\n" +
		"docs/PLAN.md:1:1: open plan item #5 (in_progress): gone (no longer in the plan file; re-approve it with planls approve)\n"
	if text.String() != wantText {
		t.Errorf("text:\n%s", text.String())
	}
	wantGH := "::notice file=docs/PLAN.md,line=7,col=1::open plan item #3 (pending): Add x, then 100%25\n" +
		"::notice file=docs/PLAN.md,line=1,col=1::open plan item #5 (in_progress): gone (no longer in the plan file; re-approve it with planls approve)\n" +
		"::warning file=docs/PLAN.md,line=9,col=3,title=closed-without-proof::plan item #6 is deferred without a reason (state.json edited by hand?): later\n" +
		"::warning file=docs/PLAN.md,line=7,col=1,title=plan-drift::plan item #3 changed since approval (re-approve with planls approve): Add `y`\n" +
		"::warning file=docs/PLAN.md,line=12,col=1,title=plan-drift::not in the approved plan (re-approve with planls approve): Ship it, 50%25\n"
	if gh.String() != wantGH {
		t.Errorf("github:\n%s", gh.String())
	}
	r.missing = true
	text.Reset()
	r.writeText(&text)
	if !strings.Contains(text.String(), "gone (the plan file is missing)\n") {
		t.Errorf("missing file: %s", text.String())
	}
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"a%b", "a%25b", "a%25b"},
		{"l1\r\nl2", "l1%0D%0Al2", "l1%0D%0Al2"},
		{"dir,x:y", "dir,x:y", "dir%2Cx%3Ay"},
	} {
		if got := ghData(tc.in); got != tc.data {
			t.Errorf("ghData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := ghProperty(tc.in); got != tc.prop {
			t.Errorf("ghProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

func TestParseIDs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		err  string
	}{
		{"1,2", []int{1, 2}, ""},
		{" #3 , 4 ", []int{3, 4}, ""},
		{"", []int{}, ""},
		{"1,,2", []int{1, 2}, ""},
		{"1,x", nil, `"x" is not a task id`},
	} {
		got, err := parseIDs(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseIDs(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("parseIDs(%q) = %v, %v", tc.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("parseIDs(%q) = %v, want %v", tc.in, got, tc.want)
			}
		}
	}
}
